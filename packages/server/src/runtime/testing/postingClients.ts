/**
 * Readers posting through servers that are being restarted or killed, as the transport posts:
 * each post carries its idempotency key (and `clientMutationId`), and a post that got no answer
 * is sent again with the same key — to another server when there is one — until it is
 * acknowledged. Used by the rolling-restart and crash tests and by `bench/crash.bench.ts`, which
 * share {@link crashDuringPosts}.
 * Test support only; nothing in production uses it.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashPassword } from '../../auth/passwords';
import { REPOSITORY_ROOT } from '../../clientBuilds';
import type { Db } from '../../db/inTransaction';
import { createUser } from '../../db/store/users';
import { freePort } from './freePort';
import { installOverHttp } from './installOverHttp';

/** The compiled `parley` command (`npm run build`). */
export const PARLEY_BIN = join(REPOSITORY_ROOT, 'packages/server/dist/parley.js');

/**
 * The flags Node runs the compiled `parley` with: its first line's (`#!/usr/bin/env -S node
 * <flags>`, scripts/buildServer.mjs). A process started as `node parley.js` does not read that
 * line; started with these, it runs as the installed command does (the heap's bounds change the
 * server's memory and speed).
 */
export function parleyNodeFlags(bin: string = PARLEY_BIN): string[] {
  const [first = ''] = readFileSync(bin, 'utf8').slice(0, 500).split('\n', 1);
  if (!first.startsWith('#!')) return [];
  const words = first.slice(2).trim().split(/\s+/);
  const node = words.findIndex((word) => /(^|\/)node$/.test(word));
  if (node === -1) throw new Error(`${bin}: its first line runs no node: ${first}`);
  return words.slice(node + 1);
}

/** A `parley start` process. */
export interface RunningParley {
  name: string;
  port: number;
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** Its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** What it printed so far (standard output and error). */
  output(): string;
}

/** Where {@link startParley} finds the command. */
export interface StartParleyOptions {
  /**
   * An installed `parley` (its `node_modules/.bin` link). @default the build's, run by node with
   * the flags of its first line ({@link parleyNodeFlags})
   */
  bin?: string;
  /** Working folder. @default this process's */
  cwd?: string;
  /** Longest wait for it to say it is running; past it, it is killed. @default 30 s */
  timeoutMs?: number;
  /** Another program that says "Parley is running" once it listens (a bench's). @default parley start */
  command?: { file: string; args: string[] };
}

/** Starts `parley start` on `port` with `env`; resolves once it says it is running. */
export async function startParley(
  name: string,
  port: number,
  env: Record<string, string>,
  { bin, cwd, timeoutMs = 30_000, command: other }: StartParleyOptions = {},
): Promise<RunningParley> {
  const [command, args] = other
    ? [other.file, other.args]
    : bin
      ? [bin, ['start']]
      : [process.execPath, [...parleyNodeFlags(), PARLEY_BIN, 'start']];
  const child = spawn(command, args, { cwd, env: { ...env, PORT: String(port) } });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    // Cleared once it runs: a server that lives past `timeoutMs` is not one that failed to start.
    const late = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name}: not running within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    late.unref();
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('Parley is running')) return;
      clearTimeout(late);
      resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`${name} exited (${code}):\n${output}`)));
  });
  return { name, port, url: `http://127.0.0.1:${port}`, child, exited, output: () => output };
}

/** A GraphQL answer, loosely typed. */
export interface LooseAnswer {
  data?: any;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** One GraphQL request over HTTP. */
export async function graphqlAt(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<LooseAnswer> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as LooseAnswer;
}

/** A signed-in reader who posts, from an address of its own (`X-Forwarded-For`, `TRUST_PROXY=1`). */
export interface Writer {
  n: number;
  ip: string;
  token: string;
}

/**
 * `count` readers (`writer0`…), made straight in storage with confirmed emails, each signed in
 * over HTTP through one of `urls` (in turn).
 */
export async function signInWriters(db: Db, urls: readonly string[], count: number) {
  const password = 'writer password';
  const passwordHash = await hashPassword(password);
  return Promise.all(
    Array.from({ length: count }, async (_, n): Promise<Writer> => {
      await createUser(db, {
        username: `writer${n}`,
        email: `writer${n}@example.com`,
        passwordHash,
        emailVerified: true,
      });
      const ip = `10.0.${Math.floor(n / 250)}.${(n % 250) + 1}`;
      const answer = await graphqlAt(
        urls[n % urls.length]!,
        `mutation ($input: SignInInput!) { signIn(input: $input) { token } }`,
        { input: { email: `writer${n}@example.com`, password } },
        { 'x-forwarded-for': ip },
      );
      return { n, ip, token: answer.data.signIn.token as string };
    }),
  );
}

/** One attempt at a post: where, when, and how it ended (`ok`, a status, or a network error). */
export interface PostAttempt {
  key: string;
  port: number;
  at: number;
  outcome: string;
}

/** What the writers were told, and every attempt. */
export interface PostLog {
  /** Idempotency key → the comment id the writer was given. */
  acknowledged: Map<string, string>;
  attempts: PostAttempt[];
}

export function createPostLog(): PostLog {
  return { acknowledged: new Map(), attempts: [] };
}

const CREATE = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`;

/**
 * Posts `post <key>` on `storyId` as `writer` until a server acknowledges it; attempt `i` goes to
 * `servers()[(first + i) % length]` (another server for each retry, when there are several).
 * No answer, or an answer a server gives on its way down (`SERVICE_UNAVAILABLE`, `INTERNAL`, a
 * 5xx), is retried after 50 ms with the same key; any other error fails (the test's fault, or the
 * server's). Two different ids for one key fail too.
 */
export async function postUntilAcknowledged(
  servers: () => readonly { url: string; port: number }[],
  writer: Writer,
  storyId: string,
  key: string,
  log: PostLog,
  first = 0,
): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const list = servers();
    const server = list[(first + attempt) % list.length]!;
    const record: PostAttempt = { key, port: server.port, at: Date.now(), outcome: 'pending' };
    log.attempts.push(record);
    let response: Response;
    try {
      response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${writer.token}`,
          'idempotency-key': key,
          'x-forwarded-for': writer.ip,
        },
        body: JSON.stringify({
          query: CREATE,
          variables: { input: { storyId, body: `post ${key}`, clientMutationId: key } },
        }),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      // No answer: refused (the server is away) or cut (it went away mid-request).
      const cause = (error as { cause?: { code?: string } }).cause;
      record.outcome = cause?.code ?? (error as Error).name;
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    const body = (await response.json().catch(() => ({}))) as LooseAnswer;
    const id = body.data?.createComment?.comment?.id as string | undefined;
    if (id !== undefined) {
      record.outcome = 'ok';
      const earlier = log.acknowledged.get(key);
      if (earlier !== undefined && earlier !== id) throw new Error(`${key}: two ids`);
      log.acknowledged.set(key, id);
      return;
    }
    const code = body.errors?.[0]?.extensions?.code;
    record.outcome = `${response.status} ${code ?? ''}`.trim();
    if (code !== 'SERVICE_UNAVAILABLE' && code !== 'INTERNAL' && response.status < 500) {
      throw new Error(`${key}: ${response.status} ${JSON.stringify(body)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${key}: never acknowledged`);
}

/** How the attempts that were not acknowledged ended, counted (`{ ECONNREFUSED: 9 }`). */
export function retriedOutcomes(log: PostLog): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { outcome } of log.attempts) {
    if (outcome !== 'ok') counts[outcome] = (counts[outcome] ?? 0) + 1;
  }
  return counts;
}

/**
 * Checks storage against what the writers were told: every acknowledged post is there exactly
 * once, with the id its writer got and its body. Resolves the counts; throws on the first
 * difference.
 */
export async function checkPosts(
  db: Db,
  storyId: string,
  log: PostLog,
): Promise<{ acknowledged: number; stored: number; lost: number; duplicated: number }> {
  const rows = await db
    .selectFrom('comments')
    .select(['id', 'client_mutation_id', 'body_source'])
    .where('story_id', '=', storyId)
    .execute();
  const byKey = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = row.client_mutation_id ?? '';
    byKey.set(key, [...(byKey.get(key) ?? []), row]);
  }
  let lost = 0;
  let duplicated = 0;
  for (const [key, id] of log.acknowledged) {
    const stored = byKey.get(key) ?? [];
    if (stored.length === 0) lost++;
    if (stored.length > 1) duplicated += stored.length - 1;
    if (stored.length === 1 && (stored[0]!.id !== id || stored[0]!.body_source !== `post ${key}`)) {
      throw new Error(`${key}: stored as ${JSON.stringify(stored[0])}, acknowledged as ${id}`);
    }
  }
  return { acknowledged: log.acknowledged.size, stored: rows.length, lost, duplicated };
}

/** Options of {@link crashDuringPosts}. */
export interface CrashOptions {
  /** A database of its own (`createTestDatabase`, with `sqliteFile` on SQLite). */
  database: { db: Db; url: string; dataDir: string };
  dialect: 'sqlite' | 'postgres';
  writers: number;
  postsPerWriter: number;
  /** Acknowledged posts before the kill. */
  killAfter: number;
  /** The site installed (its origin is the one permitted). @default 'https://site.example' */
  site?: string;
}

/** What {@link crashDuringPosts} saw. */
export interface CrashReport {
  counts: Awaited<ReturnType<typeof checkPosts>>;
  log: PostLog;
  /** Attempts made before the kill. */
  attemptsBeforeKill: number;
  /** Posts in flight (sent, unanswered) at the kill. */
  inFlight: number;
  /** The killed process's exit code (null: killed by the signal). */
  exitCode: number | null;
  /** ms from the first post to the kill, and from the kill until the server was back. */
  killedAfterMs: number;
  backAfterMs: number;
}

/**
 * The crash test: the compiled server, installed, takes a burst of posts from `writers` readers
 * (each posting as fast as it is answered, retrying with its idempotency key); once `killAfter`
 * are acknowledged it is SIGKILLed and started again on the same port; the posting goes on until
 * every post is acknowledged. Resolves storage checked against what the readers were told.
 */
export async function crashDuringPosts(options: CrashOptions): Promise<CrashReport> {
  const { database, dialect } = options;
  const site = options.site ?? 'https://site.example';
  const env = {
    PATH: process.env['PATH'] ?? '',
    PARLEY_DATA_DIR: database.dataDir,
    DATABASE_URL: dialect === 'postgres' ? database.url : '',
    PARLEY_SECRET: randomBytes(32).toString('base64url'),
    TRUST_PROXY: '1',
    LOG_LEVEL: 'warn',
  };
  const port = await freePort();
  let server = await startParley('parley', port, env);
  try {
    await installOverHttp(server.url, { site, password: 'correct horse' });
    const writers = await signInWriters(database.db, [server.url], options.writers);
    const storyId = (await graphqlAt(server.url, `{ story(url: "${site}/crash") { id } }`)).data
      .story.id as string;
    const log = createPostLog();
    const started = Date.now();
    const posting = Promise.all(
      writers.map(async (writer) => {
        for (let i = 0; i < options.postsPerWriter; i++) {
          await postUntilAcknowledged(() => [server], writer, storyId, `w${writer.n}-p${i}`, log);
        }
      }),
    );
    while (log.acknowledged.size < options.killAfter) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const attemptsBeforeKill = log.attempts.length;
    const inFlight = log.attempts.filter((a) => a.outcome === 'pending').length;
    server.child.kill('SIGKILL');
    const exitCode = await server.exited;
    const killed = Date.now();
    server = await startParley('parley again', port, env);
    const back = Date.now();
    await posting;
    return {
      counts: await checkPosts(database.db, storyId, log),
      log,
      attemptsBeforeKill,
      inFlight,
      exitCode,
      killedAfterMs: killed - started,
      backAfterMs: back - killed,
    };
  } finally {
    server.child.kill('SIGKILL');
  }
}
