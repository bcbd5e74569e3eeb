import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParleyServer } from '../src/createParleyServer';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';
import type { ParleyServer } from '../src/createParleyServer';
import { loadConfig } from '../src/runtime/loadConfig';
import { createMemoryLogger } from '../src/runtime/testing/createTestYoga';

// With Redis down, posts hung 9.5 s and sign-in 32.5 s while /healthz said ok; at start,
// "Connection is closed." instead of what was wrong; a full disk logged "cannot
// rollback"; a read-only data folder said "no such file". Each replayed on a real server.

const SITE = 'https://site.example';
const PASSWORD = 'correct horse';

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', ''],
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 100; i += 1) {
    const ping = spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' });
    if (ping.stdout.trim() === 'PONG') return redis;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('redis-server did not start');
}

describe('failures say what and where, fast', () => {
  let dir: string;
  let server: ParleyServer | undefined;
  let redis: ChildProcess | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-fail-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    redis?.kill('SIGKILL');
    redis = undefined;
    spawnSync('umount', [join(dir, 'ro')], { stdio: 'ignore' });
    await rm(dir, { recursive: true, force: true });
  });

  async function graphql(url: string, query: string, variables: object, token?: string) {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: any; errors?: { extensions: { code: string } }[] };
  }

  it('with Redis gone, posts and sign-ins fail at once with SERVICE_UNAVAILABLE, and health says so', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    server = await createParleyServer({
      config: loadConfig({
        PORT: '0',
        PARLEY_DATA_DIR: dir,
        REDIS_URL: `redis://127.0.0.1:${port}`,
        LOG_LEVEL: 'silent',
      }),
      logger: createMemoryLogger().logger,
    });
    const url = `http://127.0.0.1:${await server.listen()}`;
    const token = await installOverHttp(url, { site: SITE, password: PASSWORD });
    const story = await graphql(
      url,
      `
        query ($url: String!) {
          story(url: $url) {
            id
          }
        }
      `,
      {
        url: `${SITE}/a`,
      },
    );
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    redis.kill('SIGKILL');
    redis = undefined;
    await new Promise((resolve) => setTimeout(resolve, 200));

    let started = Date.now();
    const post = await graphql(
      url,
      `
        mutation ($input: CreateCommentInput!) {
          createComment(input: $input) {
            comment {
              id
            }
          }
        }
      `,
      { input: { storyId: story.data.story.id, body: 'Hello' } },
      token,
    );
    expect(post.errors?.[0]?.extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(2000);
    started = Date.now();
    const signIn = await graphql(
      url,
      `
        mutation ($input: SignInInput!) {
          signIn(input: $input) {
            token
          }
        }
      `,
      {
        input: { email: 'admin@example.com', password: PASSWORD },
      },
    );
    expect(signIn.errors?.[0]?.extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(2000);

    expect((await fetch(`${url}/healthz`)).status).toBe(503);
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { checks: Record<string, string> };
    expect(body.checks.database).toBe('ok');
    expect(body.checks.disk).toBe('ok');
    expect(body.checks.redis).not.toBe('ok');
  }, 20_000);

  it('refuses to start without Redis, saying where it looked and why', async () => {
    const port = await freePort();
    const failure = createParleyServer({
      config: loadConfig({
        PORT: '0',
        PARLEY_DATA_DIR: dir,
        REDIS_URL: `redis://:secret@127.0.0.1:${port}`,
        LOG_LEVEL: 'silent',
      }),
      redisReadyTimeoutMs: 1000,
    });
    await expect(failure).rejects.toThrow(`127.0.0.1:${port}`);
    await expect(failure).rejects.toThrow('ECONNREFUSED');
    await expect(failure).rejects.not.toThrow('secret');
  });

  it('refuses to start on a data folder it cannot write, saying so', async () => {
    const readOnly = join(dir, 'ro');
    await mkdir(readOnly);
    // Root writes through modes: as root (CI) the folder is a read-only mount, as anyone else
    // a folder without write permission.
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', readOnly]);
    if (mounted.status !== 0) await chmod(readOnly, 0o500);
    await expect(
      createParleyServer({
        config: loadConfig({ PORT: '0', PARLEY_DATA_DIR: readOnly, LOG_LEVEL: 'silent' }),
      }),
    ).rejects.toThrow(`The data folder ${readOnly} is not writable by this process`);
  });

  it('answers STORAGE_FULL when the database cannot grow, and logs the cause', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'fixtures', 'diskFillingServer.ts')],
      { env: { ...process.env, PARLEY_DATA_DIR: dir }, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    try {
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const nextLine = async () => {
        const { value, done } = await lines.next();
        if (done === true) throw new Error('the server ended');
        return JSON.parse(value as string) as { port?: number };
      };
      let log = '';
      child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
      const { port } = await nextLine();
      const url = `http://127.0.0.1:${port}`;
      const token = await installOverHttp(url, { site: SITE, password: PASSWORD });
      const story = await graphql(
        url,
        `
          query ($url: String!) {
            story(url: $url) {
              id
            }
          }
        `,
        { url: `${SITE}/a` },
      );
      // A disk that is full, as SQLite sees it: the file may not grow by a single page.
      child.stdin.write('fill\n');
      await nextLine();
      let code: string | undefined;
      for (let i = 0; i < 100 && code === undefined; i += 1) {
        const post = await graphql(
          url,
          `
            mutation ($input: CreateCommentInput!) {
              createComment(input: $input) {
                comment {
                  id
                }
              }
            }
          `,
          { input: { storyId: story.data.story.id, body: `${'x'.repeat(2000)} ${i}` } },
          token,
        );
        code = post.errors?.[0]?.extensions.code;
      }
      expect(code).toBe('STORAGE_FULL');
      expect(log).toContain('Storage is full');
    } finally {
      child.stdin.end();
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    }
  }, 30_000);
});
