import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { createTestDatabase, testDialects } from '../src/db/testDatabases';
import type { TestDatabase } from '../src/db/testDatabases';
import { loadConfig } from '../src/runtime/loadConfig';
import { createMemoryLogger } from '../src/runtime/testing/createTestYoga';
import { graphqlAs } from '../src/runtime/testing/graphqlAs';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';

// A mail server that is down delays mail, never loses it: the real server queues what SMTP did
// not take, keeps it across its own restart, and sends it once the mail server is back.
const SITE = 'https://site.example';

/** A port nothing listens on (yet): taken, then given back. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe.each(testDialects())('the mail queue of the real server on %s', (dialect) => {
  let database: TestDatabase;
  let server: ParleyServer | undefined;
  let smtp: SMTPServer | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(dialect, { sqliteFile: true });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    await database?.close();
  });

  async function start(smtpPort: number) {
    server = await createParleyServer({
      config: loadConfig({
        PORT: '0',
        PARLEY_DATA_DIR: database.dataDir,
        DATABASE_URL: dialect === 'postgres' ? database.url : undefined,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        LOG_LEVEL: 'silent',
      }),
      logger: createMemoryLogger().logger,
    });
    return `http://127.0.0.1:${await server.listen()}`;
  }

  it('sends after a restart what the mail server could not take before it', async () => {
    const smtpPort = await freePort();
    const first = await start(smtpPort);
    const admin = graphqlAs(
      first,
      await installOverHttp(first, { site: SITE, password: 'correct horse battery' }),
    );
    // The mail server is down: the test email says so at once (it is not queued)…
    await expect(admin(`mutation { sendTestEmail { ok } }`)).rejects.toThrow('INTERNAL');
    expect(await database.db.selectFrom('mail_queue').selectAll().execute()).toEqual([]);
    // …and a password reset link is queued, not lost.
    await admin(`mutation { requestPasswordReset(input: { email: "admin@example.com" }) { ok } }`);
    for (let i = 0; i < 100; i += 1) {
      const [row] = await database.db.selectFrom('mail_queue').select('attempts').execute();
      if (row?.attempts === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const queued = await database.db.selectFrom('mail_queue').selectAll().execute();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      attempts: 1,
      last_error: expect.stringContaining('ECONNREFUSED'),
    });
    await server!.close();
    server = undefined;

    // The mail server is back; so is Parley, which sends what it left as it starts.
    const received: string[] = [];
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        let data = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (data += chunk));
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp!.listen(smtpPort, '127.0.0.1', resolve));
    await database.db
      .updateTable('mail_queue')
      .set({ next_attempt_at: new Date(0).toISOString() })
      .execute();
    await start(smtpPort);
    for (let i = 0; i < 100 && received.length === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(received).toHaveLength(1);
    expect(received[0]).toContain('admin@example.com');
    expect(received[0]).toContain('Reset your password');
    // The queue lets go of it once the mail server has answered, a moment after it took the data.
    const left = () => database.db.selectFrom('mail_queue').selectAll().execute();
    for (let i = 0; i < 100 && (await left()).length > 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await left()).toEqual([]);
  });
});
