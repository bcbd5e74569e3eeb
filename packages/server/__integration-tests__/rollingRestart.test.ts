import { randomBytes } from 'node:crypto';
import { gql } from '@urql/core';
import { pipe, subscribe } from 'wonka';
import { WebSocket } from 'ws';
import { createTransport } from '@parley/transport';
import type { SocketStatus, Transport } from '@parley/transport';
import { createTestDatabase } from '../src/db/testDatabases';
import type { TestDatabase } from '../src/db/testDatabases';
import { freePort } from '../src/runtime/testing/freePort';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';
import {
  checkPosts,
  createPostLog,
  graphqlAt,
  postUntilAcknowledged,
  retriedOutcomes,
  signInWriters,
  startParley,
} from '../src/runtime/testing/postingClients';
import type { RunningParley } from '../src/runtime/testing/postingClients';

// A rolling restart, as an orchestrator does one: two compiled servers (`parley start`) on one
// PostgreSQL and one Redis, readers posting through both all along; each server in turn gets
// SIGTERM, must exit 0 within 10 s, and is started again. Posts are retried on the other server
// with the same idempotency key, as the transport retries them. Nothing may be lost or doubled,
// and a reader's socket to a server that went away must come back and deliver live again.

const SITE = 'https://site.example';
/** Both servers behind one address, as behind a load balancer: tokens name it as their issuer. */
const PUBLIC_URL = 'https://comments.example';
const WRITERS = 16;
/** Most posts a writer makes: under the per-user limit (10 a minute), with room for lost attempts. */
const POSTS_PER_WRITER = 8;
/**
 * Time between a writer's posts: slow enough that the writers' quota outlasts both restarts on
 * a loaded machine (they take 2–8 s), fast enough that several posts meet each restart.
 */
const PACE_MS = 2_000;
const STOP_DEADLINE_MS = 10_000;

jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const Live = gql`
  subscription Live($storyId: ID!) {
    commentCreated(storyId: $storyId) {
      id
      body
    }
  }
`;

describe('a rolling restart of two servers', () => {
  let database: TestDatabase;
  const env: Record<string, string> = {};
  const instances: RunningParley[] = [];
  const transports: Transport[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    Object.assign(env, {
      PATH: process.env['PATH'] ?? '',
      DATABASE_URL: database.url,
      REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `parley-rolling-${randomBytes(4).toString('hex')}:`,
      PARLEY_SECRET: randomBytes(32).toString('base64url'),
      PARLEY_DATA_DIR: database.dataDir,
      PUBLIC_URL,
      // Each writer comes from an address of its own (per-address limits stay out of the way).
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      GRAPHQL_ALLOW_ARBITRARY: 'true',
    });
  });
  afterAll(async () => {
    await Promise.all(transports.map((transport) => transport.dispose()));
    for (const instance of instances) instance.child.kill('SIGKILL');
    await database?.close();
  });

  async function start(name: string, port: number): Promise<RunningParley> {
    const instance = await startParley(name, port, env);
    instances.push(instance);
    return instance;
  }

  it('loses and doubles no post, and brings live readers back', async () => {
    const ports = [await freePort(), await freePort()] as const;
    const live: RunningParley[] = [await start('a', ports[0])];
    live.push(await start('b', ports[1]));

    const adminToken = await installOverHttp(live[0]!.url, {
      site: SITE,
      password: 'correct horse',
    });
    const writers = await signInWriters(
      database.db,
      live.map((instance) => instance.url),
      WRITERS,
    );
    const story = await graphqlAt(live[1]!.url, `{ story(url: "${SITE}/rolling") { id } }`);
    const storyId = story.data!.story.id as string;

    // A reader on each server, through the transport the widget uses.
    const readers = live.map((instance) => {
      const transport = createTransport({
        url: `${instance.url}/graphql`,
        WebSocket,
        getToken: () => adminToken,
      });
      transports.push(transport);
      const statuses: SocketStatus[] = [];
      transport.onStatusChange((status) => statuses.push(status));
      const bodies: string[] = [];
      pipe(
        transport.client.subscription(Live, { storyId }),
        subscribe((result) => {
          if (result.data) bodies.push(result.data.commentCreated.body as string);
        }),
      );
      return { transport, statuses, bodies };
    });
    for (const reader of readers) await until(() => reader.transport.status === 'connected');
    await sleep(300); // the subscribe messages reach the servers

    // Posting, all along: round robin over the two, a retry to the other one.
    const log = createPostLog();
    const post = (writer: (typeof writers)[number], i: number) =>
      postUntilAcknowledged(() => live, writer, storyId, `w${writer.n}-p${i}`, log, writer.n + i);
    // Each writer posts until the restarts are over and it has posted once more since, or until
    // its quota is spent.
    let restarted = false;
    const posting = Promise.all(
      writers.map(async (writer) => {
        await sleep(writer.n * (PACE_MS / WRITERS));
        let afterRestarts = 0;
        for (let i = 0; i < POSTS_PER_WRITER && afterRestarts === 0; i++) {
          const late = restarted;
          await post(writer, i);
          if (late) afterRestarts++;
          else await sleep(PACE_MS);
        }
      }),
    );

    // The restart, one server after the other, while they post.
    const windows: {
      name: string;
      from: number;
      to: number;
      stopMs: number;
      code: number | null;
    }[] = [];
    for (const index of [0, 1]) {
      await until(() => log.acknowledged.size >= 10 + index * 10);
      const old = live[index]!;
      const from = Date.now();
      old.child.kill('SIGTERM');
      const code = await old.exited;
      const stopMs = Date.now() - from;
      live[index] = await start(`${old.name}'`, old.port);
      windows.push({ name: old.name, from, to: Date.now(), stopMs, code });
      const slow = /Stopped, slowly[^\n]*/.exec(old.output());
      if (slow) console.log(`${old.name}: ${slow[0]}`);
    }
    restarted = true;
    await posting;

    for (const window of windows) {
      expect({ name: window.name, code: window.code }).toEqual({ name: window.name, code: 0 });
      expect(window.stopMs).toBeLessThan(STOP_DEADLINE_MS);
      // Posting went on while this server was away (else the test proved nothing).
      const during = log.attempts.filter((a) => a.at >= window.from && a.at <= window.to);
      expect(during.length).toBeGreaterThan(0);
    }

    // Every post once, with the id its writer was given.
    const counts = await checkPosts(database.db, storyId, log);
    expect(counts).toEqual({
      acknowledged: new Set(log.attempts.map((a) => a.key)).size,
      stored: counts.acknowledged,
      lost: 0,
      duplicated: 0,
    });

    // The readers' sockets came back (to the restarted servers) and deliver again. A socket
    // still away when a comment is posted misses its event (the widget reloads the thread when it
    // is back): wait until both are connected and subscribed.
    for (const reader of readers) await until(() => reader.transport.status === 'connected');
    for (const instance of live) {
      await until(async () =>
        (await (await fetch(`${instance.url}/metrics`)).text()).includes(
          'parley_graphql_subscriptions_active 1',
        ),
      );
    }
    const final = await graphqlAt(
      live[0]!.url,
      `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
      { input: { storyId, body: 'after the restart', clientMutationId: 'final' } },
      { authorization: `Bearer ${adminToken}` },
    );
    expect(final.errors).toBeUndefined();
    for (const reader of readers) {
      await until(() => reader.bodies.includes('<p>after the restart</p>'), 15_000);
      expect(reader.statuses).toContain('reconnecting');
    }

    console.log(
      `rolling restart: ${counts.acknowledged} posts, ${log.attempts.length} attempts ` +
        `(retried: ${JSON.stringify(retriedOutcomes(log))}); ` +
        windows
          .map((w) => `${w.name} stopped in ${w.stopMs} ms, back after ${w.to - w.from} ms`)
          .join(', ') +
        `; live events seen: ${readers.map((r) => r.bodies.length).join(' and ')}`,
    );
  });
});

/** Waits until `check()` holds, polling; fails after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${check.toString()}`);
    await sleep(20);
  }
}
