import { createSecretBox, deriveSealingKey } from '../auth/secretBox';
import { testBox } from '../db/testFixtures';
import { testDialects, useTestDatabase } from '../db/testDatabases';
import { createMemoryLogger } from '../runtime/testing/createTestYoga';
import type { MailDelivery, MailMessage, Mailer } from './createMailer';
import { MAIL_RETRY, createMailQueue, retryDelayMs } from './createMailQueue';

const start = Date.UTC(2026, 10, 26, 10);
const MESSAGE: MailMessage = {
  to: 'reader@example.com',
  subject: 'Reset your password',
  text: 'Open https://comments.example/reset?token=live-secret-token to choose a new one.',
};

/** An SMTP stand-in: down (each send fails with `failure`) or up (each send recorded). */
function fakeServer() {
  const received: MailMessage[] = [];
  let failure: (Error & Record<string, unknown>) | undefined;
  const transport: Mailer = {
    smtpFromEnvironment: false,
    async send(message): Promise<MailDelivery> {
      await new Promise((resolve) => setImmediate(resolve));
      if (failure) throw failure;
      received.push(message);
      return { via: 'smtp', messageId: `m-${received.length}` };
    },
    drain: async () => 0,
    close: () => undefined,
  };
  return {
    transport,
    received,
    down(fields: Record<string, unknown> = {}) {
      failure = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), fields);
    },
    up() {
      failure = undefined;
    },
  };
}

describe.each(testDialects())('the mail queue on %s', (dialect) => {
  const t = useTestDatabase(dialect);
  let now = start;
  const clock = () => new Date(now);
  const queueOver = (transport: Mailer) =>
    createMailQueue({
      db: t.db,
      box: testBox,
      transport,
      logger: createMemoryLogger().logger,
      now: clock,
      tickMs: 0,
    });
  const rows = () => t.db.selectFrom('mail_queue').selectAll().execute();
  beforeEach(() => {
    now = start;
  });

  it('sends at once and keeps nothing once sent', async () => {
    const server = fakeServer();
    const delivery = await queueOver(server.transport).send(MESSAGE);
    expect(delivery).toEqual({ via: 'smtp', messageId: 'm-1' });
    expect(server.received).toEqual([MESSAGE]);
    expect(await rows()).toEqual([]);
  });

  it('keeps what the server could not take, sealed, and sends it when it is back', async () => {
    const server = fakeServer();
    server.down();
    const queue = queueOver(server.transport);
    const delivery = await queue.send(MESSAGE);
    expect(delivery).toEqual({
      via: 'queued',
      messageId: expect.any(String),
      retryAt: new Date(start + MAIL_RETRY.firstDelayMs).toISOString(),
    });
    const [row] = await rows();
    expect(row).toMatchObject({ attempts: 1, claimed_until: null, last_error: expect.any(String) });
    // It holds a live link: never in clear.
    expect(row!.message).not.toContain('live-secret-token');

    // Not due yet: not tried. Due, the server still down: tried, put off twice as long.
    expect(await queue.flush()).toBe(0);
    expect((await rows())[0]!.attempts).toBe(1);
    now = start + MAIL_RETRY.firstDelayMs;
    expect(await queue.flush()).toBe(0);
    expect((await rows())[0]).toMatchObject({
      attempts: 2,
      next_attempt_at: new Date(now + retryDelayMs(2)).toISOString(),
    });

    server.up();
    now += retryDelayMs(2);
    expect(await queue.flush()).toBe(1);
    expect(server.received).toEqual([MESSAGE]);
    expect(await rows()).toEqual([]);
    // Sent once: a later look finds nothing.
    now += MAIL_RETRY.maxDelayMs;
    expect(await queue.flush()).toBe(0);
    expect(server.received).toHaveLength(1);
  });

  it('waits longer after each failure, at most an hour', () => {
    expect([1, 2, 3, 4, 8, 20].map((n) => retryDelayMs(n))).toEqual([
      30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000,
    ]);
  });

  it('survives a restart: a new process sends what the last one left', async () => {
    const server = fakeServer();
    server.down();
    const before = queueOver(server.transport);
    await before.send(MESSAGE);
    expect(await before.drain(1_000)).toBe(0);
    before.close();

    server.up();
    now += MAIL_RETRY.firstDelayMs;
    expect(await queueOver(server.transport).flush()).toBe(1);
    expect(server.received).toEqual([MESSAGE]);
  });

  it('takes back an email whose sender died mid-attempt, once its claim runs out', async () => {
    const server = fakeServer();
    const stuck: Mailer = { ...server.transport, send: () => new Promise(() => undefined) };
    void queueOver(stuck).send(MESSAGE);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await rows()).toHaveLength(1);
    const other = queueOver(server.transport);
    expect(await other.flush()).toBe(0); // still claimed
    now += MAIL_RETRY.claimMs;
    expect(await other.flush()).toBe(1);
    expect(server.received).toEqual([MESSAGE]);
  });

  it('lets an attempt that outlived its claim undo nothing of the next one', async () => {
    const server = fakeServer();
    let failFirst: (error: Error) => void = () => undefined;
    const slow: Mailer = {
      ...server.transport,
      send: () => new Promise((_resolve, reject) => (failFirst = reject)),
    };
    const first = queueOver(slow).send(MESSAGE);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Past the claim, another process takes the email; its attempt is under way too.
    now += MAIL_RETRY.claimMs;
    let finishSecond: () => void = () => undefined;
    const held: Mailer = {
      ...server.transport,
      send: async (message) => {
        await new Promise<void>((resolve) => (finishSecond = resolve));
        return server.transport.send(message);
      },
    };
    const second = queueOver(held).flush();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The first attempt fails now: it must not put the email back under the second's feet.
    failFirst(new Error('socket timed out'));
    await first;
    expect((await rows())[0]).toMatchObject({ attempts: 0, claimed_until: expect.any(String) });
    finishSecond();
    expect(await second).toBe(1);
    expect(server.received).toEqual([MESSAGE]);
    expect(await rows()).toEqual([]);
  });

  it('puts back what this process cannot open, for one whose secret opens it', async () => {
    const server = fakeServer();
    server.down();
    await queueOver(server.transport).send(MESSAGE);
    server.up();
    now += MAIL_RETRY.firstDelayMs;
    const stranger = createMailQueue({
      db: t.db,
      box: createSecretBox({ current: deriveSealingKey('another PARLEY_SECRET value') }),
      transport: server.transport,
      logger: createMemoryLogger().logger,
      now: clock,
      tickMs: 0,
    });
    expect(await stranger.flush()).toBe(0);
    expect(await rows()).toHaveLength(1);
    now += MAIL_RETRY.maxDelayMs;
    expect(await queueOver(server.transport).flush()).toBe(1);
    expect(server.received).toEqual([MESSAGE]);
  });

  it('is sent by one of several processes looking at once', async () => {
    const server = fakeServer();
    server.down();
    await queueOver(server.transport).send(MESSAGE);
    server.up();
    now += MAIL_RETRY.firstDelayMs;
    const queues = [1, 2, 3, 4].map(() => queueOver(server.transport));
    const sent = await Promise.all(queues.map((queue) => queue.flush()));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    expect(server.received).toHaveLength(1);
  });

  it('retries a refusal too (the settings being fixed), and gives up after 7 days', async () => {
    const server = fakeServer();
    const results: string[] = [];
    const queue = createMailQueue({
      db: t.db,
      box: testBox,
      transport: server.transport,
      logger: createMemoryLogger().logger,
      now: clock,
      tickMs: 0,
      onResult: (result) => results.push(result),
    });
    server.down({ responseCode: 550, command: 'RCPT TO', response: '550 5.7.1 Relaying denied' });
    expect((await queue.send(MESSAGE)).via).toBe('queued');
    now += MAIL_RETRY.firstDelayMs;
    expect(await queue.flush()).toBe(0);
    expect((await rows())[0]!.attempts).toBe(2);
    now = start + MAIL_RETRY.giveUpAfterMs;
    expect(await queue.flush()).toBe(0);
    expect(await rows()).toEqual([]);
    expect(server.received).toEqual([]);
    // Each attempt counted (the metrics): two retries, then given up.
    expect(results).toEqual(['queued', 'queued', 'failed']);
  });
});
