import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { createTestDatabase } from '../src/db/testDatabases';
import type { TestDatabase } from '../src/db/testDatabases';
import { loadConfig } from '../src/runtime/loadConfig';
import { createMemoryLogger } from '../src/runtime/testing/createTestYoga';
import { freePort } from '../src/runtime/testing/freePort';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';
import { graphqlAs } from '../src/runtime/testing/graphqlAs';
import { createComment } from '../src/db/store/comments';
import { renderComment } from '../src/markdown/renderComment';

// The shared read cache when its Redis goes away, with a Redis of its own that the test pauses
// (SIGSTOP: commands time out, the data stays) and stops: two Parley processes on one
// PostgreSQL database, a moderator acting on one, readers on both. Reads while Redis is away are
// answered from the database with a warning; when it is back, nothing a moderator removed
// meanwhile comes back from the cache, on either process.
const SITE = 'https://site.example';
const STORY_URL = `${SITE}/outage`;
const READ = `query Read($url: String) {
  story(url: $url) { id comments(first: 10) { edges { node { id body } } } }
}`;

/** Starts redis-server on `port` with nothing saved to disk; resolves once it answers. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  const probe = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 0 });
  probe.on('error', () => undefined);
  for (let attempt = 0; attempt < 100; attempt++) {
    if (
      await probe.ping().then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  probe.disconnect();
  return child;
}

// Each command Redis does not answer waits out the client's 1 s timeout, and the retries run
// every second: these tests take seconds, not milliseconds.
jest.setTimeout(30_000);

describe('the read cache while its Redis is away', () => {
  let database: TestDatabase;
  let redis: ChildProcess;
  let redisPort: number;
  const servers: ParleyServer[] = [];
  const logs: Array<Record<string, unknown>>[] = [];
  let writer: string;
  let reader: string;
  let token: string;
  let storyId: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    const redisPrefix = `parley-test-${randomUUID()}:`;
    const start = async () => {
      const memory = createMemoryLogger();
      logs.push(memory.logs);
      const server = await createParleyServer({
        config: loadConfig({
          PORT: '0',
          PARLEY_DATA_DIR: database.dataDir,
          DATABASE_URL: database.url,
          REDIS_URL: `redis://127.0.0.1:${redisPort}`,
          LOG_LEVEL: 'warn',
        }),
        logger: memory.logger,
        redisPrefix,
      });
      servers.push(server);
      return `http://127.0.0.1:${await server.listen()}`;
    };
    writer = await start();
    reader = await start();
    token = await installOverHttp(writer, { site: SITE, password: 'correct horse battery' });
    storyId = (
      (await act(READ.replace('query Read', 'query'), { url: STORY_URL })).story as {
        id: string;
      }
    ).id;
  });
  afterAll(async () => {
    redis?.kill('SIGCONT');
    await Promise.all(servers.map((server) => server.close()));
    redis?.kill('SIGKILL');
    await database?.close();
  });

  /** A signed-in POST on the writing process. */
  const act = (query: string, variables?: Record<string, unknown>) =>
    graphqlAs(writer, token)(query, variables);

  /** The comments an anonymous GET on `origin` shows. */
  async function read(origin: string): Promise<string[]> {
    const search = new URLSearchParams({
      query: READ,
      variables: JSON.stringify({ url: STORY_URL }),
    });
    const response = await fetch(`${origin}/graphql?${search}`, {
      headers: { accept: 'application/json' },
    });
    const { data } = (await response.json()) as {
      data: { story: { comments: { edges: { node: { body: string } }[] } } };
    };
    return data.story.comments.edges.map((edge) => edge.node.body.replace(/<[^>]+>|\n/g, ''));
  }

  /**
   * Writes a comment straight into storage: no rate limit (which needs Redis) and no event, so
   * only a read that goes to the database shows it, and a cached answer does not.
   */
  async function seed(body: string): Promise<void> {
    const [user] = await servers[0]!.deps.db.selectFrom('users').select('id').execute();
    await createComment(servers[0]!.deps.db, {
      storyId,
      authorId: user!.id,
      bodySource: body,
      bodyHtml: renderComment(body),
    });
  }

  async function post(body: string): Promise<string> {
    const data = await act(
      `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
      { input: { storyId, body } },
    );
    return (data.createComment as { comment: { id: string } }).comment.id;
  }

  const reject = (commentId: string) =>
    act(`mutation ($id: ID!) { rejectComment(input: { commentId: $id }) { comment { id } } }`, {
      id: commentId,
    });

  const warnings = () =>
    logs.flat().flatMap((entry) => (typeof entry['msg'] === 'string' ? [entry['msg']] : []));

  it('reads from the database while Redis is paused, and serves nothing stale once it is back', async () => {
    await post('Kept');
    const doomed = await post('Doomed');
    // Both processes read, so the answer is in the shared cache.
    expect(await read(reader)).toEqual(['Doomed', 'Kept']);
    expect(await read(writer)).toEqual(['Doomed', 'Kept']);

    redis.kill('SIGSTOP'); // Redis stops answering; what it holds stays
    // The moderator acts: the comment is gone from storage, but the cached answer that shows it
    // cannot be dropped (the invalidation times out).
    await reject(doomed);
    expect(await read(writer)).toEqual(['Kept']);
    expect(await read(reader)).toEqual(['Kept']);
    expect(warnings()).toEqual(
      expect.arrayContaining([
        'Read cache: an invalidation failed; reading around the cache until it works',
        'Read cache: a read failed; reading around the cache until it is emptied',
      ]),
    );

    redis.kill('SIGCONT'); // back, with the stale answer still in it
    // Right away and after the retries, on both processes: never the rejected comment.
    for (let i = 0; i < 12; i++) {
      expect(await read(reader)).toEqual(['Kept']);
      expect(await read(writer)).toEqual(['Kept']);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // And the cache answers again: a comment written behind its back does not show until an
    // event drops the answer.
    await seed('Unannounced');
    expect(await read(reader)).toEqual(['Kept']);
    await post('Announced');
    expect(await read(reader)).toEqual(['Announced', 'Unannounced', 'Kept']);
  });

  it('reads from the database while Redis is down, and caches again once it is back', async () => {
    redis.kill('SIGKILL');
    await new Promise((resolve) => redis.once('exit', resolve));
    await seed('During the outage');
    expect(await read(reader)).toEqual(['During the outage', 'Announced', 'Unannounced', 'Kept']);
    expect(await read(writer)).toEqual(['During the outage', 'Announced', 'Unannounced', 'Kept']);
    redis = await startRedis(redisPort);
    // The clients reconnect on their own (ioredis); reads stay right meanwhile.
    for (let i = 0; (await fetch(`${reader}/readyz`)).status !== 200; i++) {
      expect(i).toBeLessThan(100);
      expect((await read(reader))[0]).toBe('During the outage');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Once the cache has been emptied (the retry, within a second), answers are kept again.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await read(reader))[0]).toBe('During the outage');
    await seed('Unannounced again');
    expect((await read(reader))[0]).toBe('During the outage');
  });
});
