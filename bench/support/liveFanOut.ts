// Section 1 of `bench:scale` (live fan-out), and what section 2 reuses: Parley as `parley start`
// runs it (the compiled server, in processes of its own), graphql-ws readers in forked processes
// (liveSubscribers.ts), comments posted over HTTP, and when each reader had each comment.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { createParleyServer, loadConfig } from '@parley/server';
import { findOrCreateStory, freePort, parleyNodeFlags, startParley } from '@parley/server/testing';
import type { RunningParley } from '../../packages/server/src/runtime/testing/postingClients';
import { REPOSITORY_ROOT } from '../../packages/server/src/clientBuilds';
import { seedStory } from './seedStory';
import type { SubscribersCommand, SubscribersReport } from './liveSubscribers';

export const SITE = 'https://site.example';
const now = () => performance.timeOrigin + performance.now();
const CREATE = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`;

/** The stream's own `commentCreated` document, by id (what the widget subscribes with). */
export function commentCreatedDocumentId(): string {
  const manifest = JSON.parse(
    readFileSync(join(REPOSITORY_ROOT, 'packages/contract/persisted-documents.json'), 'utf8'),
  ) as Record<string, string>;
  const id = Object.keys(manifest).find((key) =>
    manifest[key]!.startsWith('subscription commentCreated('),
  );
  if (id === undefined) throw new Error('no commentCreated document in the manifest');
  return id;
}

/** One or more Parley processes on one seeded database, and writers to post with. */
export interface LiveSetup {
  servers: RunningParley[];
  /** What the processes were started with. */
  env: Record<string, string>;
  /** The admin's session. */
  adminToken: string;
  storyIds: string[];
  /** Signed-in writers' tokens with an address each (`TRUST_PROXY=1`), posted with in turn. */
  writers: { token: string; ip: string }[];
  /** Each server's memory and CPU time (from /proc). */
  usage(): { rssMb: number; cpuMs: number }[];
  /** Stops server `index` (SIGTERM, as a deploy does) and starts it again on its port. */
  restart(index: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Seeds an installed Parley with `stories` stories (through storage) and starts `instances`
 * `parley start` processes on it: SQLite in a fresh folder, or PostgreSQL + Redis when `env`
 * carries DATABASE_URL and REDIS_URL.
 */
export async function startLive(
  env: Record<string, string>,
  {
    instances = 1,
    stories = 1,
    rateLimitsRaised = false,
    writerCount = 30,
  }: {
    instances?: number;
    stories?: number;
    rateLimitsRaised?: boolean;
    /** Signed-in writers made (each a reader of the seeded story). */
    writerCount?: number;
  } = {},
): Promise<LiveSetup> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-live-'));
  const full: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    PARLEY_DATA_DIR: dataDir,
    PARLEY_SECRET: randomBytes(32).toString('base64url'),
    NODE_ENV: 'production',
    // One address for every instance (as behind a proxy): sessions name it, so they hold on all.
    PUBLIC_URL: 'http://parley.example',
    // A session's email is not wanted here.
    SMTP_URL: '',
    GRAPHQL_ALLOW_ARBITRARY: 'true',
    TRUST_PROXY: '1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    REDIS_URL: '',
    REDIS_PREFIX: `bench-${randomBytes(4).toString('hex')}:`,
    ...env,
  };
  const seeding = await createParleyServer({
    config: loadConfig({ ...full, PORT: '0', LOG_LEVEL: 'error' }),
  });
  const storyIds: string[] = [];
  const writers: LiveSetup['writers'] = [];
  let adminToken = '';
  try {
    const { storyId, authorIds } = await seedStory(seeding.deps, {
      siteUrl: SITE,
      storyUrl: `${SITE}/story-0`,
      readers: writerCount,
      comments: 20,
      body: (i) => `Comment ${i}`,
    });
    storyIds.push(storyId);
    const site = await seeding.deps.db.selectFrom('sites').select('id').executeTakeFirstOrThrow();
    for (let i = 1; i < stories; i++) {
      const { story } = await findOrCreateStory(seeding.deps.db, {
        siteId: site.id,
        url: `${SITE}/story-${i}`,
        title: `Story ${i}`,
      });
      storyIds.push(story.id);
    }
    adminToken = await seeding.deps.tokens.sign({ userId: authorIds[0]!, role: 'ADMIN' });
    for (const [n, userId] of authorIds.slice(1).entries()) {
      const token = await seeding.deps.tokens.sign({ userId, role: 'COMMENTER' });
      writers.push({ token, ip: `10.9.${Math.floor(n / 250)}.${(n % 250) + 1}` });
    }
  } finally {
    await seeding.close();
  }
  const servers: RunningParley[] = [];
  let command: { file: string; args: string[] } | undefined;
  for (let i = 0; i < instances; i++) {
    command = rateLimitsRaised
      ? {
          file: process.execPath,
          args: [
            // As `parley start` runs (the compiled server's own flags).
            ...parleyNodeFlags(),
            // BENCH_CPU_PROF=<folder>: each such server writes a V8 CPU profile there as it stops.
            ...(process.env['BENCH_CPU_PROF']
              ? ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_CPU_PROF']}`]
              : []),
            await compiledBenchServer(),
          ],
        }
      : undefined;
    servers.push(await startParley(`parley ${i + 1}`, await freePort(), full, { command }));
  }
  return {
    servers,
    env: full,
    adminToken,
    storyIds,
    writers,
    usage: () =>
      servers.map((server) =>
        server.child.exitCode === null && server.child.signalCode === null
          ? processUsage(server.child.pid!)
          : { rssMb: Number.NaN, cpuMs: Number.NaN },
      ),
    async restart(index) {
      const server = servers[index]!;
      server.child.kill('SIGTERM');
      await server.exited;
      servers[index] = await startParley(server.name, server.port, full, { command });
    },
    async close() {
      await Promise.all(
        servers.map((server) => {
          if (server.child.exitCode !== null || server.child.signalCode !== null) {
            console.log(`   ${server.name} had stopped:\n${server.output().slice(-3000)}`);
          }
          server.child.kill('SIGTERM');
          return server.exited;
        }),
      );
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resident memory (MB) and CPU time (user + system, ms) of process `pid`, from /proc. */
export function processUsage(pid: number): { rssMb: number; cpuMs: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  // Fields 14 and 15 of stat, after the parenthesised name: utime and stime, in clock ticks.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rssMb: rssKb / 1024, cpuMs: ticks * 10 };
}

/** A forked process of readers (liveSubscribers.ts). */
export interface Readers {
  count: number;
  tell(command: SubscribersCommand): void;
  next<T extends SubscribersReport['type']>(
    type: T,
  ): Promise<Extract<SubscribersReport, { type: T }>>;
  close(): Promise<void>;
}

/** Forks a readers' process and opens `count` of them (see liveSubscribers.ts). */
export async function openReaders(
  options: Omit<Extract<SubscribersCommand, { type: 'open' }>, 'type' | 'documentId'>,
): Promise<Readers & { openedMs: number }> {
  const child: ChildProcess = fork(join(import.meta.dirname, 'liveSubscribers.ts'), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: ((report: SubscribersReport) => void)[] = [];
  child.on('message', (report: SubscribersReport) => waiting.shift()?.(report));
  const readers: Readers = {
    count: options.count,
    tell: (command) => child.send(command),
    next: (type) =>
      new Promise((resolve, reject) => {
        waiting.push((report) =>
          report.type === type
            ? resolve(report as never)
            : reject(new Error(`expected ${type}, got ${report.type}`)),
        );
      }),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send({ type: 'close' } satisfies SubscribersCommand);
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
  readers.tell({ type: 'open', documentId: commentCreatedDocumentId(), ...options });
  const opened = await readers.next('opened');
  if (opened.errors.length > 0) {
    await readers.close();
    throw new Error(`readers could not open: ${opened.errors.join('; ')}`);
  }
  return { ...readers, openedMs: opened.ms };
}

/** The headers of a writer's request: signed in, from the site, from its own address. */
export function writerHeaders(writer: LiveSetup['writers'][number]): Record<string, string> {
  return {
    'content-type': 'application/json',
    origin: SITE,
    authorization: `Bearer ${writer.token}`,
    'x-forwarded-for': writer.ip,
  };
}

/** Posts one comment on `storyId` as writer `n` (in turn) on `server`; its id and when it left. */
export async function post(
  setup: LiveSetup,
  server: RunningParley,
  storyId: string,
  n: number,
): Promise<{ id: string; sentAt: number }> {
  const writer = setup.writers[n % setup.writers.length]!;
  const sentAt = now();
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: writerHeaders(writer),
    body: JSON.stringify({
      query: CREATE,
      variables: {
        input: { storyId, body: `Live comment ${n} ${randomBytes(3).toString('hex')}` },
      },
    }),
  });
  const body = (await response.json()) as { data?: any; errors?: unknown };
  const id = body.data?.createComment?.comment?.id as string | undefined;
  if (id === undefined) throw new Error(`post failed: ${JSON.stringify(body.errors)}`);
  return { id, sentAt };
}

/**
 * Waits until `expected` readers (over every process in `groups`) have comment `id`, or
 * `timeoutMs`; returns each arrival's delay from `sentAt`, in ms.
 */
export async function arrivalsOf(
  groups: Readers[],
  id: string,
  sentAt: number,
  expected: number,
  timeoutMs = 20_000,
): Promise<{ delays: number[]; errors: string[]; reconnectedAt: number[] }> {
  const delays: number[] = [];
  const errors: string[] = [];
  const reconnectedAt: number[] = [];
  const deadline = Date.now() + timeoutMs;
  while (delays.length < expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const group of groups) {
      group.tell({ type: 'collect' });
      const report = await group.next('arrivals');
      errors.push(...report.errors);
      reconnectedAt.push(...report.reconnectedAt);
      for (const [commentId, times] of Object.entries(report.arrivals)) {
        // Arrivals of an earlier comment still in flight when its wait ended are not this one's.
        if (commentId === id) delays.push(...times.map((at) => at - sentAt));
      }
    }
  }
  return { delays, errors, reconnectedAt };
}

/** The `p`th percentile (0–100) of `values`. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * The comments storage holds on `storyId` (read through a server object of the same
 * configuration, not listening), and how many idempotency keys were stored twice.
 */
export async function countStored(
  setup: LiveSetup,
  storyId: string,
): Promise<{ ids: Set<string>; duplicates: number }> {
  const reading = await createParleyServer({
    config: loadConfig({ ...setup.env, PORT: '0', LOG_LEVEL: 'error' }),
  });
  try {
    const rows = await reading.deps.db
      .selectFrom('comments')
      .select(['id', 'client_mutation_id'])
      .where('story_id', '=', storyId)
      .where('client_mutation_id', 'is not', null)
      .execute();
    const keys = new Set(rows.map((row) => row.client_mutation_id));
    return { ids: new Set(rows.map((row) => row.id)), duplicates: rows.length - keys.size };
  } finally {
    await reading.close();
  }
}

/**
 * benchServer.ts compiled as `npm run build` compiles the server (Parley's packages bundled,
 * installed ones imported): measured under tsx, a post cost 6 ms instead of ~2, the loader's
 * hooks answering dynamic imports on another thread. Built once per run.
 */
let compiling: Promise<string> | undefined;
function compiledBenchServer(): Promise<string> {
  compiling ??= (async () => {
    // Where the compiled server sits: the server package's own node_modules come first (its
    // versions), and REPOSITORY_ROOT, `../../../` of the module, is the repository's.
    const outfile = join(REPOSITORY_ROOT, 'packages/server/.bench/benchServer.mjs');
    await build({
      entryPoints: [join(import.meta.dirname, 'benchServer.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Parley's own packages (workspace links to TypeScript) bundled, every other package
      // imported, as scripts/buildServer.mjs does.
      plugins: [
        {
          name: 'installed-packages-stay-external',
          setup(builder) {
            builder.onResolve({ filter: /^[^./]/ }, ({ path }) =>
              path.startsWith('@parley/') ? undefined : { path, external: true },
            );
          },
        },
      ],
      define: { PARLEY_BUNDLED: 'false' },
      logLevel: 'warning',
    });
    return outfile;
  })();
  return compiling;
}
