import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { createMemoryLogger } from '../runtime/testing/createTestYoga';
import { OUTBOX_DIR, createMailer } from './createMailer';
import type { OutboxMessage } from './createMailer';

const FROM = 'Parley <no-reply@parley.test>';
const RESET_LINK = 'http://127.0.0.1:3000/account/reset?token=abc123';

describe('createMailer over SMTP', () => {
  let smtp: SMTPServer;
  let port: number;
  const received: Array<{ from: string; to: string[]; data: string }> = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      // A test server has no certificate worth trusting; plain SMTP on loopback is enough.
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let data = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (data += chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers the message to a real SMTP server', async () => {
    const { logger } = createMemoryLogger();
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      dataDir: '/nonexistent',
      from: FROM,
      logger,
    });
    const delivery = await mailer.send({
      to: 'ada@example.com',
      subject: 'Reset your password',
      text: `Open ${RESET_LINK} to choose a new password.`,
      html: `<p><a href="${RESET_LINK}">Choose a new password</a></p>`,
    });
    mailer.close();

    expect(delivery.via).toBe('smtp');
    expect(received).toHaveLength(1);
    expect(received[0]?.from).toBe('no-reply@parley.test');
    expect(received[0]?.to).toEqual(['ada@example.com']);
    expect(received[0]?.data).toContain('Subject: Reset your password');
    expect(received[0]?.data).toContain('text/html');
    // Bodies travel quoted-printable: `=` is written `=3D`.
    expect(received[0]?.data).toContain('token=3Dabc123');
  });
});

describe('createMailer without SMTP', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'parley-mail-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('files the message in the outbox and logs its subject and links', async () => {
    const infoLogs: unknown[] = [];
    const mailer = createMailer({
      dataDir,
      from: FROM,
      logger: { info: (...args: unknown[]) => void infoLogs.push(args) },
    });
    const delivery = await mailer.send({
      to: 'ada@example.com',
      subject: 'Confirm your email',
      text: `Confirm: ${RESET_LINK}\nThanks.`,
    });

    const files = await readdir(join(dataDir, OUTBOX_DIR));
    expect(files).toHaveLength(1);
    const filed = JSON.parse(
      await readFile(join(dataDir, OUTBOX_DIR, files[0] as string), 'utf8'),
    ) as OutboxMessage;
    expect(filed).toMatchObject({
      from: FROM,
      to: 'ada@example.com',
      subject: 'Confirm your email',
      links: [RESET_LINK],
    });
    expect(delivery).toMatchObject({ via: 'outbox', links: [RESET_LINK] });
    expect(JSON.stringify(infoLogs)).toContain('Confirm your email');
    expect(JSON.stringify(infoLogs)).toContain(RESET_LINK);
  });

  it('keeps two messages sent in the same instant apart', async () => {
    const { logger } = createMemoryLogger();
    const mailer = createMailer({ dataDir, from: FROM, logger });
    await Promise.all([
      mailer.send({ to: 'a@example.com', subject: 'One', text: 'one' }),
      mailer.send({ to: 'b@example.com', subject: 'Two', text: 'two' }),
    ]);
    expect(await readdir(join(dataDir, OUTBOX_DIR))).toHaveLength(2);
  });
});
