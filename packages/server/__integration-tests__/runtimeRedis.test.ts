import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import { Redis } from 'ioredis';
import { WebSocket } from 'ws';
import { startTestServer } from '../src/runtime/testing/startTestServer';
import type { TestServer } from '../src/runtime/testing/startTestServer';

// Two Parley servers behind "one address": a subscriber on A must see a comment posted on B.
// Runs when REDIS_URL is set (CI sets it; locally: REDIS_URL=redis://127.0.0.1:6379).
const REDIS_URL = process.env['REDIS_URL'];
// REDIS_URL comes from the environment, or jest.setup.ts's loopback default: never skipped.
const RUN_TEST_SERVER = join(__dirname, '../src/runtime/testing/runTestServer.ts');
const SUBSCRIPTION = 'subscription { commentCreated(storyId: "story-1") { commentId storyId } }';

/** Resolves the first event of the subscription on `client`. */
function firstEvent(client: Client): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const stop = client.subscribe(
      { query: SUBSCRIPTION },
      { next: (value) => (stop(), resolve(value)), error: reject, complete: () => {} },
    );
  });
}

/**
 * Waits until Redis counts `expected` subscribed connections on `channel`: servers subscribe (and
 * unsubscribe) asynchronously after the graphql-ws message, so a publish must wait for them.
 */
async function waitForSubscribers(admin: Redis, channel: string, expected = 1): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const [, count] = (await admin.pubsub('NUMSUB', channel)) as [string, number];
    if (Number(count) === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Expected ${expected} subscriber(s) on ${channel} within 2 s`);
}

async function postComment(origin: string, commentId: string): Promise<void> {
  const response = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `mutation { publishComment(storyId: "story-1", commentId: "${commentId}") }`,
    }),
  });
  expect(await response.json()).toEqual({ data: { publishComment: true } });
}

describe('live updates across servers sharing Redis', () => {
  let admin: Redis;
  const servers: TestServer[] = [];
  beforeAll(() => {
    admin = new Redis(REDIS_URL as string);
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  afterAll(async () => {
    await admin.quit();
  });

  it('two servers in this process, each with its own Redis connections', async () => {
    const prefix = `parley-test-${randomUUID()}:`;
    const a = await startTestServer({ pubsub: { redisUrl: REDIS_URL, prefix } });
    const b = await startTestServer({ pubsub: { redisUrl: REDIS_URL, prefix } });
    servers.push(a, b);
    expect(a.origin).not.toBe(b.origin);

    const received = firstEvent(a.wsClient());
    await waitForSubscribers(admin, `${prefix}commentCreated:story-1`);
    expect(a.logs).toEqual([]);
    await postComment(b.origin, 'c-from-b');

    await expect(received).resolves.toEqual({
      data: { commentCreated: { commentId: 'c-from-b', storyId: 'story-1' } },
    });
  });

  it('a server in a child process delivers to a subscriber on this one, and back', async () => {
    const prefix = `parley-test-${randomUUID()}:`;
    const local = await startTestServer({ pubsub: { redisUrl: REDIS_URL, prefix } });
    servers.push(local);
    // `require` through esbuild-register: run as the entry file, Node would treat the .ts of this
    // "type": "module" package as ESM and refuse it.
    const child = spawn(
      process.execPath,
      [
        '-r',
        'esbuild-register',
        '-e',
        `require(${JSON.stringify(RUN_TEST_SERVER)})`,
        '--',
        REDIS_URL as string,
        prefix,
      ],
      { env: { ...process.env, LOG_LEVEL: 'silent' } },
    );
    try {
      const remoteOrigin = `http://127.0.0.1:${await childPort(child)}`;

      const channel = `${prefix}commentCreated:story-1`;
      const onLocal = firstEvent(local.wsClient());
      await waitForSubscribers(admin, channel);
      await postComment(remoteOrigin, 'c-from-child');
      await expect(onLocal).resolves.toMatchObject({
        data: { commentCreated: { commentId: 'c-from-child' } },
      });

      // And the other way: subscribe on the child's server, post on this one. The local
      // subscription has ended; wait for Redis to see that first, so the count means the child.
      await waitForSubscribers(admin, channel, 0);
      const toChild = createClient({
        url: `${remoteOrigin.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      });
      try {
        const onRemote = firstEvent(toChild);
        await waitForSubscribers(admin, channel);
        await postComment(local.origin, 'c-from-parent');
        await expect(onRemote).resolves.toMatchObject({
          data: { commentCreated: { commentId: 'c-from-parent' } },
        });
      } finally {
        await toChild.dispose();
      }
    } finally {
      await stopChild(child);
    }
  });
});

/** Reads `PORT <n>` from the child's output. */
function childPort(child: ChildProcessWithoutNullStreams): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /PORT (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`Test server exited (${code}): ${errors}`)));
  });
}

/** Ends the child by closing its stdin (it closes its server), then waits for it to exit. */
function stopChild(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin.end();
  const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
  return exited.finally(() => clearTimeout(kill));
}
