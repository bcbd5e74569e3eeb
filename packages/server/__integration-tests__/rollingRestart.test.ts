import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { gql } from '@urql/core';
import { pipe, subscribe } from 'wonka';
import { WebSocket } from 'ws';
import { createTransport } from '@parley/transport';
import type { SocketStatus, Transport } from '@parley/transport';
import { hashPassword } from '../src/auth/passwords';
import { REPOSITORY_ROOT } from '../src/clientBuilds';
import { createUser } from '../src/db/store/users';
import { createTestDatabase } from '../src/db/testDatabases';
import type { TestDatabase } from '../src/db/testDatabases';
import { freePort } from '../src/runtime/testing/freePort';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';

// A rolling restart, as an orchestrator does one: two compiled servers (`parley start`) on one
// PostgreSQL and one Redis, readers posting through both all along; each server in turn gets
// SIGTERM, must exit 0 within 10 s, and is started again. Posts are retried on the other server
// with the same idempotency key, as the transport retries them. Nothing may be lost or doubled,
// and a reader's socket to a server that went away must come back and deliver live again.

const PARLEY = join(REPOSITORY_ROOT, 'packages/server/dist/parley.js');
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

interface Instance {
  name: string;
  port: number;
  url: string;
  child: ChildProcessWithoutNullStreams;
  exited: Promise<number | null>;
  output: () => string;
}

const POST = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`;
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
  const instances: Instance[] = [];
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

  /** Starts `parley start` on `port`; resolves once it says it is running. */
  async function start(name: string, port: number): Promise<Instance> {
    const child = spawn(process.execPath, [PARLEY, 'start'], {
      env: { ...env, PORT: String(port) },
    });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Parley is running')) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      void exited.then((code) => reject(new Error(`${name} exited (${code}):\n${output}`)));
    });
    const instance = {
      name,
      port,
      url: `http://127.0.0.1:${port}`,
      child,
      exited,
      output: () => output,
    };
    instances.push(instance);
    return instance;
  }

  async function graphql(url: string, query: string, variables = {}, headers = {}) {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: any; errors?: { message: string }[] };
  }

  it('loses and doubles no post, and brings live readers back', async () => {
    const ports = [await freePort(), await freePort()] as const;
    const live: Instance[] = [await start('a', ports[0])];
    live.push(await start('b', ports[1]));

    const adminToken = await installOverHttp(live[0]!.url, {
      site: SITE,
      password: 'correct horse',
    });
    const passwordHash = await hashPassword('writer password');
    const writers = await Promise.all(
      Array.from({ length: WRITERS }, async (_, n) => {
        await createUser(database.db, {
          username: `writer${n}`,
          email: `writer${n}@example.com`,
          passwordHash,
          emailVerified: true,
        });
        const ip = `10.0.0.${n + 1}`;
        const signedIn = await graphql(
          live[n % 2]!.url,
          `mutation ($input: SignInInput!) { signIn(input: $input) { token } }`,
          { input: { email: `writer${n}@example.com`, password: 'writer password' } },
          { 'x-forwarded-for': ip },
        );
        return { n, ip, token: signedIn.data!.signIn.token as string };
      }),
    );
    const story = await graphql(live[1]!.url, `{ story(url: "${SITE}/rolling") { id } }`);
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

    // Posting, all along.
    const acknowledged = new Map<string, string>();
    const attempts: { key: string; port: number; at: number; outcome: string }[] = [];
    async function post(writer: (typeof writers)[number], i: number): Promise<void> {
      const key = `w${writer.n}-p${i}`;
      for (let attempt = 0; attempt < 200; attempt++) {
        // Round robin over the two; a retry goes to the other one.
        const instance = live[(writer.n + i + attempt) % 2]!;
        const record = { key, port: instance.port, at: Date.now(), outcome: 'pending' };
        attempts.push(record);
        let response: Response;
        try {
          response = await fetch(`${instance.url}/graphql`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${writer.token}`,
              'idempotency-key': key,
              'x-forwarded-for': writer.ip,
            },
            body: JSON.stringify({
              query: POST,
              variables: { input: { storyId, body: `post ${key}`, clientMutationId: key } },
            }),
            signal: AbortSignal.timeout(15_000),
          });
        } catch (error) {
          // No answer: refused (the server is away) or cut (it went away mid-request).
          const cause = (error as { cause?: { code?: string } }).cause;
          record.outcome = cause?.code ?? (error as Error).name;
          await sleep(50);
          continue;
        }
        const body = (await response.json().catch(() => ({}))) as {
          data?: { createComment?: { comment: { id: string } } };
          errors?: { extensions?: { code?: string } }[];
        };
        const id = body.data?.createComment?.comment.id;
        if (id !== undefined) {
          record.outcome = 'ok';
          const earlier = acknowledged.get(key);
          if (earlier !== undefined && earlier !== id) throw new Error(`${key}: two ids`);
          acknowledged.set(key, id);
          return;
        }
        const code = body.errors?.[0]?.extensions?.code;
        record.outcome = `${response.status} ${code ?? ''}`.trim();
        // A server on its way down (its database or Redis closing) may answer so; anything else
        // (a rate limit, a validation error) is a fault of this test or of the server.
        if (code !== 'SERVICE_UNAVAILABLE' && code !== 'INTERNAL' && response.status < 500) {
          throw new Error(`${key}: ${response.status} ${JSON.stringify(body)}`);
        }
        await sleep(50);
      }
      throw new Error(`${key}: never acknowledged`);
    }
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
      await until(() => acknowledged.size >= 10 + index * 10);
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
      const during = attempts.filter((a) => a.at >= window.from && a.at <= window.to);
      expect(during.length).toBeGreaterThan(0);
    }

    // Every post once, with the id its writer was given.
    const total = acknowledged.size;
    expect(total).toBe(new Set(attempts.map((a) => a.key)).size);
    const rows = await database.db
      .selectFrom('comments')
      .select(['id', 'client_mutation_id', 'body_source'])
      .where('story_id', '=', storyId)
      .execute();
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((row) => row.client_mutation_id)).size).toBe(total);
    for (const row of rows) {
      expect(acknowledged.get(row.client_mutation_id!)).toBe(row.id);
      expect(row.body_source).toBe(`post ${row.client_mutation_id}`);
    }

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
    const final = await graphql(
      live[0]!.url,
      POST,
      { input: { storyId, body: 'after the restart', clientMutationId: 'final' } },
      { authorization: `Bearer ${adminToken}` },
    );
    expect(final.errors).toBeUndefined();
    await sleep(3000);
    console.log(
      JSON.stringify(final),
      readers.map((r) => [
        r.statuses.join(','),
        r.bodies.length,
        r.transport.status,
        r.bodies.slice(-3),
      ]),
    );
    for (const instance of live) {
      const text = await (await fetch(`${instance.url}/metrics`)).text();
      console.log(
        instance.name,
        text
          .split('\n')
          .filter((l) =>
            /subscriptions_active|websocket_connections_active|pubsub_lag_seconds_count/.test(l),
          )
          .join(' | '),
        instance.output(),
      );
    }
    for (const reader of readers) {
      await until(() => reader.bodies.includes('<p>after the restart</p>'), 15_000);
      expect(reader.statuses).toContain('reconnecting');
    }

    const failed = attempts.filter((a) => a.outcome !== 'ok');
    const outcomes = failed.reduce<Record<string, number>>((counts, a) => {
      counts[a.outcome] = (counts[a.outcome] ?? 0) + 1;
      return counts;
    }, {});
    console.log(
      `rolling restart: ${total} posts, ${attempts.length} attempts ` +
        `(retried: ${JSON.stringify(outcomes)}); ` +
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
