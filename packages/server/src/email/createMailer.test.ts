import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { getSettings } from '../db/store/organization';
import { useApi } from '../graphql/testing/useApi';
import { createMemoryLogger } from '../runtime/testing/createTestYoga';
import { OUTBOX_DIR, createMailer, mustUpgradeToTls } from './createMailer';
import type { OutboxMessage, SmtpSettings } from './createMailer';
import { smtpSettingsOf } from './smtpSettingsOf';

const FROM = 'Parley <no-reply@parley.test>';
const RESET_LINK = 'http://127.0.0.1:3000/account/reset?token=abc123';

/** What the test SMTP server received: envelope, raw message and the user who signed in. */
interface Received {
  from: string;
  to: string[];
  data: string;
  user: string | undefined;
}

test('a login over SMTP waits for STARTTLS, except with implicit TLS or on loopback', () => {
  const login = { secure: false, user: 'mailer', host: 'smtp.example.com' };
  expect(mustUpgradeToTls(login)).toBe(true);
  expect(mustUpgradeToTls({ ...login, secure: true })).toBe(false);
  expect(mustUpgradeToTls({ ...login, user: '' })).toBe(false);
  expect(mustUpgradeToTls({ ...login, host: '127.0.0.1' })).toBe(false);
  expect(mustUpgradeToTls({ ...login, host: 'LOCALHOST' })).toBe(false);
});

describe('createMailer over SMTP', () => {
  let smtp: SMTPServer;
  let port: number;
  const received: Received[] = [];
  const logins: Array<{ username: string | undefined; password: string | undefined }> = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      // A test server has no certificate worth trusting; plain SMTP on loopback is enough,
      // and credentials may cross it in the clear.
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        logins.push({ username: auth.username, password: auth.password ?? undefined });
        callback(null, { user: auth.username });
      },
      onData(stream, session, callback) {
        let data = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (data += chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            data,
            user: typeof session.user === 'string' ? session.user : undefined,
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
  beforeEach(() => {
    received.length = 0;
    logins.length = 0;
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

  it('sends through stored settings, picking up a change without a restart', async () => {
    let stored: SmtpSettings | undefined;
    const dataDir = await mkdtemp(join(tmpdir(), 'parley-mail-'));
    const { logger } = createMemoryLogger();
    const mailer = createMailer({
      loadSmtpSettings: async () => stored,
      dataDir,
      from: FROM,
      logger,
    });
    try {
      expect(mailer.smtpFromEnvironment).toBe(false);
      // Nothing stored yet: today's behaviour, the outbox.
      expect((await mailer.send({ to: 'a@example.com', subject: 'One', text: '1' })).via).toBe(
        'outbox',
      );

      stored = {
        host: '127.0.0.1',
        port,
        secure: false,
        user: 'parley',
        password: 'pa ss',
        from: 'news@parley.test',
      };
      const delivery = await mailer.send({ to: 'b@example.com', subject: 'Two', text: '2' });
      expect(delivery.via).toBe('smtp');
      expect(logins).toEqual([{ username: 'parley', password: 'pa ss' }]);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ from: 'news@parley.test', to: ['b@example.com'] });

      stored = { ...stored, user: 'other', from: '' };
      await mailer.send({ to: 'c@example.com', subject: 'Three', text: '3' });
      expect(logins.at(-1)).toEqual({ username: 'other', password: 'pa ss' });
      // An empty from address means the mailer's default sender.
      expect(received[1]?.from).toBe('no-reply@parley.test');

      stored = { ...stored, host: '' };
      expect((await mailer.send({ to: 'd@example.com', subject: 'Four', text: '4' })).via).toBe(
        'outbox',
      );
      expect(received).toHaveLength(2);
    } finally {
      mailer.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('lets SMTP_URL win over stored settings', async () => {
    const { logger } = createMemoryLogger();
    const loadSmtpSettings = jest.fn(async () => ({
      host: 'smtp.invalid',
      port: 1,
      secure: true,
      user: 'ignored',
      password: 'ignored',
      from: 'ignored@parley.test',
    }));
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      loadSmtpSettings,
      dataDir: '/nonexistent',
      from: FROM,
      logger,
    });
    const delivery = await mailer.send({ to: 'ada@example.com', subject: 'Env', text: 'env' });
    mailer.close();

    expect(mailer.smtpFromEnvironment).toBe(true);
    expect(delivery.via).toBe('smtp');
    expect(received).toEqual([
      expect.objectContaining({ from: 'no-reply@parley.test', to: ['ada@example.com'] }),
    ]);
    expect(loadSmtpSettings).not.toHaveBeenCalled();
  });

  describe('end to end through the API', () => {
    const api = useApi('sqlite');

    it('sends the test email through the settings an admin just saved', async () => {
      const { adminToken } = await api.install();
      const mailer = createMailer({
        loadSmtpSettings: async () => smtpSettingsOf(await getSettings(api.db), api.deps.box),
        dataDir: '/nonexistent',
        from: FROM,
        logger: createMemoryLogger().logger,
      });
      api.deps.mailer = mailer;
      try {
        await api.ok(
          `mutation ($input: UpdateSettingsInput!) { updateSettings(input: $input) { settings { smtpHost } } }`,
          {
            input: {
              smtpHost: '127.0.0.1',
              smtpPort: port,
              smtpUser: 'admin-set',
              smtpPassword: 'hunter2',
              smtpFrom: 'news@parley.test',
            },
          },
          adminToken,
        );
        const data = await api.ok(`mutation { sendTestEmail { ok } }`, {}, adminToken);
        expect(data.sendTestEmail.ok).toBe(true);
        expect(logins).toEqual([{ username: 'admin-set', password: 'hunter2' }]);
        expect(received).toHaveLength(1);
        expect(received[0]?.from).toBe('news@parley.test');
        expect(received[0]?.data).toContain('test email');
      } finally {
        mailer.close();
      }
    });
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
      logger: {
        info: (...args: unknown[]) => void infoLogs.push(args),
        warn: (...args: unknown[]) => void infoLogs.push(args),
      },
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

  it('files owner-only messages, and in production logs no link and warns that the outbox is for development', async () => {
    const logged: unknown[] = [];
    const collect = (...args: unknown[]) => void logged.push(args);
    const mailer = createMailer({
      dataDir,
      from: FROM,
      logger: { info: collect, warn: collect },
      production: true,
    });
    expect(JSON.stringify(logged)).toContain('for development only');
    const delivery = await mailer.send({
      to: 'ada@example.com',
      subject: 'Reset your password',
      text: `Reset: ${RESET_LINK}`,
    });

    expect(JSON.stringify(logged)).toContain('Reset your password');
    expect(JSON.stringify(logged)).not.toContain(RESET_LINK);
    if (delivery.via !== 'outbox') throw new Error('expected the outbox');
    expect((await stat(delivery.file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dataDir, OUTBOX_DIR))).mode & 0o777).toBe(0o700);
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

describe('createMailer at shutdown', () => {
  it('files in the outbox what an SMTP server has not taken yet, and says so', async () => {
    // An SMTP server that accepts the connection and never answers: the send hangs.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const dataDir = await mkdtemp(join(tmpdir(), 'parley-drain-'));
    const { logger, logs } = createMemoryLogger();
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      dataDir,
      from: 'Parley <no-reply@parley.test>',
      logger,
    });
    try {
      const sent = mailer.send({ to: 'reader@example.com', subject: 'Reply', text: 'Hello' });
      sent.catch(() => undefined);
      expect(await mailer.drain(100)).toBe(1);
      const [name] = await readdir(join(dataDir, OUTBOX_DIR));
      const filed = JSON.parse(
        await readFile(join(dataDir, OUTBOX_DIR, name!), 'utf8'),
      ) as OutboxMessage;
      expect(filed).toMatchObject({ to: 'reader@example.com', subject: 'Reply', text: 'Hello' });
      expect(logs.map((entry) => entry['msg'])).toContain(
        'Email still unsent at shutdown, filed in the outbox to send by hand: Reply',
      );
      // Nothing is left to drain, and a drain with nothing pending files nothing.
      expect(await mailer.drain(100)).toBe(0);
    } finally {
      mailer.close();
      silent.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
