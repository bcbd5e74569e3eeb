// `npm run bench:read`: the read path side by side, in one run on this machine — Parley on SQLite,
// Parley on PostgreSQL + Redis, and Waline (installed from npm into a scratch folder, see
// peers/waline.ts) — with the same page shape: 25 top-level comments, 20 shown, the same text.
// For each: cold loads in headless Chromium (a fresh context each) from navigation start to 20
// comments painted, the bytes received before that paint, the layout shift (CLS) until a second
// after it; then the widget's list request at 50 connections for 10 s (autocannon), and the
// server's memory (RSS) after that load. Parley runs as `npm start` runs it after its build (the
// compiled server under plain node, with its flags: read from package.json), as a child process,
// so its memory is its own. Needs the builds, DATABASE_URL (an admin URL: the bench
// creates and drops its own database) and REDIS_URL; without them the PostgreSQL run is skipped.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { Browser } from 'playwright-core';
import { createParleyServer, loadConfig } from '@parley/server';
import { createTestDatabase } from '../packages/server/src/db/testDatabases';
import { freePort, launchChromium, REPOSITORY_ROOT as ROOT } from '../e2e/support/browser';
import { startWaline } from './peers/waline';

/** What `npm start` runs once it has built: node's flags and the compiled server. */
const PRODUCTION_ENTRY = (() => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const command = /&&\s*node\s+(.+)$/.exec(scripts.start)?.[1];
  if (!command) throw new Error(`npm start does not end with a node command: ${scripts.start}`);
  return command.trim().split(/\s+/);
})();
import { seedStory } from './support/seedStory';

const COMMENTS = 25;
const SHOWN = 20;
/** Cold loads per subject (a fresh browser context each), after one warm-up load. */
const LOADS = 9;
const CONNECTIONS = 50;
const DURATION_SECONDS = 10;
/** A load that has not painted 20 comments by then failed. */
const LOAD_TIMEOUT_MS = 15_000;
/** How long after the paint layout shifts still count. */
const CLS_WINDOW_MS = 1000;
const TEXT = (i: number) =>
  `Comment ${i}: a short remark about the bench article, with a few words.`;
const STORY_PATH = '/articles/bench';

/** The issue's targets (read path): what the figures are held against. */
const TARGETS = {
  paintRatio: 0.75,
  bytesBeforePaint: 12_000,
  sqlite: { rps: 7500, p99: 20 },
  postgres: { rps: 5000, p99: 30 },
  rssBytes: 100 * 1024 * 1024,
  cls: 0,
};

/** One system under test. */
interface Subject {
  name: string;
  /** The host page with the widget on it. */
  pageUrl: string;
  /** Selector of one painted top-level comment (in whichever frame the widget renders). */
  selector: string;
  /** The widget's request for the first page, as the widget sends it. */
  listUrl: string;
  /** The server's processes, for RSS. */
  pids: number[];
  /** URLs whose bytes are the host page's own, not the widget's. */
  hostDocument: string;
  close(): Promise<void>;
}

interface LoadFigures {
  paintMs: number;
  bytes: number;
  cls: number;
}

interface Figures {
  loads: LoadFigures[];
  rps: number;
  p99: number;
  errors: number;
  rssBytes: number;
}

// ---- Parley -------------------------------------------------------------------------------

/** Starts Parley as `npm start` does, on a database seeded with the bench's story. */
async function startParley(postgres: boolean): Promise<Subject> {
  const [port, examplePort] = [await freePort(), await freePort()];
  const parleyUrl = `http://127.0.0.1:${port}`;
  const exampleUrl = `http://127.0.0.1:${examplePort}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-read-bench-'));
  const database = postgres ? await createTestDatabase('postgres') : undefined;
  const env: Record<string, string> = {
    PORT: String(port),
    EXAMPLE_PORT: String(examplePort),
    HOST: '127.0.0.1',
    PARLEY_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Empty is unset: the SQLite run must not inherit the bench's own DATABASE_URL.
    DATABASE_URL: database?.url ?? '',
    REDIS_URL: database ? (process.env['REDIS_URL'] ?? '') : '',
  };

  // Seed through the storage functions, then hand the database to the real server process.
  const seeding = await createParleyServer({
    config: loadConfig({ ...env, PORT: '0', REDIS_URL: '' }),
  });
  const storyUrl = `${exampleUrl}${STORY_PATH}`;
  await seedStory(seeding.deps, {
    siteUrl: exampleUrl,
    storyUrl,
    readers: 4,
    comments: COMMENTS,
    body: TEXT,
  });
  await seeding.close();

  // BENCH_CPU_PROF=<folder>: the server writes a V8 CPU profile there when it stops.
  const profile = process.env['BENCH_CPU_PROF'];
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...flags, ...PRODUCTION_ENTRY], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', process.env['BENCH_SERVER_LOG'] ? 'inherit' : 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await waitForOk(`${parleyUrl}/healthz`, child, () => stderr);

  // The widget's first request, as the transport builds it (urql sorts the variables' keys).
  const manifest = JSON.parse(
    readFileSync(join(ROOT, 'packages/contract/persisted-documents.json'), 'utf8'),
  ) as Record<string, string>;
  const documentId = Object.keys(manifest).find((id) => manifest[id]!.startsWith('query Stream('));
  const listUrl =
    `${parleyUrl}/graphql?` +
    new URLSearchParams({
      operationName: 'Stream',
      variables: JSON.stringify({
        first: SHOWN,
        sort: 'CREATED_AT_DESC',
        title: 'Bench',
        url: storyUrl,
      }),
      extensions: JSON.stringify({ persistedQuery: { documentId } }),
    }).toString();
  return {
    name: postgres ? 'Parley, PostgreSQL + Redis' : 'Parley, SQLite',
    pageUrl: storyUrl,
    selector: 'article',
    listUrl,
    pids: [child.pid!],
    hostDocument: storyUrl,
    async close() {
      await stop(child);
      await database?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function waitForOk(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${log()}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within 60 s:\n${log()}`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

// ---- measuring ------------------------------------------------------------------------------

/**
 * Runs in every frame before its scripts: records (wall clock) the paint after `selector` first
 * matches `SHOWN` elements, and sums the frame's layout shifts. A string, not a function: tsx
 * would wrap a function's inner functions in a helper the page does not have.
 */
const watch = (selector: string) => `
  window.__cls = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  const check = () => {
    if (document.querySelectorAll(${JSON.stringify(selector)}).length < ${SHOWN}) return void requestAnimationFrame(check);
    requestAnimationFrame(() => setTimeout(() => (window.__painted = performance.timeOrigin + performance.now())));
  };
  requestAnimationFrame(check);
`;

async function load(browser: Browser, subject: Subject): Promise<LoadFigures> {
  const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
  const received: { at: number; bytes: number }[] = [];
  context.on('requestfinished', (request) => {
    const at = Date.now();
    if (request.url() === subject.hostDocument) return;
    void request.sizes().then(
      (sizes) => received.push({ at, bytes: sizes.responseBodySize + sizes.responseHeadersSize }),
      () => undefined,
    );
  });
  await context.addInitScript(watch(subject.selector));
  try {
    const page = await context.newPage();
    await page.goto(subject.pageUrl);
    const origin = await page.evaluate(() => performance.timeOrigin);
    const deadline = Date.now() + LOAD_TIMEOUT_MS;
    let painted: number | undefined;
    while (painted === undefined) {
      if (Date.now() > deadline) {
        const frames = await Promise.all(
          page.frames().map(async (frame) => {
            const count = await frame
              .evaluate((selector) => document.querySelectorAll(selector).length, subject.selector)
              .catch(() => -1);
            return `${frame.url()}: ${count}`;
          }),
        );
        throw new Error(`${subject.name}: no ${SHOWN} comments painted (${frames.join('; ')})`);
      }
      for (const frame of page.frames()) {
        painted ??= await frame
          .evaluate(() => (window as unknown as { __painted?: number }).__painted)
          .catch(() => undefined);
      }
      if (painted === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setTimeout(resolve, CLS_WINDOW_MS));
    let cls = 0;
    for (const frame of page.frames())
      cls += await frame
        .evaluate(() => (window as unknown as { __cls?: number }).__cls ?? 0)
        .catch(() => 0);
    const bytes = received.filter((r) => r.at <= painted!).reduce((sum, r) => sum + r.bytes, 0);
    return { paintMs: painted - origin, bytes, cls };
  } finally {
    await context.close();
  }
}

async function throughput(url: string): Promise<{ rps: number; p99: number; errors: number }> {
  await fetch(url).then((r) => r.arrayBuffer()); // the first answer fills the caches
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

function rss(pids: number[]): number {
  return pids.reduce((sum, pid) => {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return sum + Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  }, 0);
}

async function measure(browser: Browser, subject: Subject): Promise<Figures> {
  await load(browser, subject); // warm-up: server caches, the OS's file cache
  const loads: LoadFigures[] = [];
  for (let i = 0; i < LOADS; i++) loads.push(await load(browser, subject));
  const { rps, p99, errors } = await throughput(subject.listUrl);
  return { loads, rps, p99, errors, rssBytes: rss(subject.pids) };
}

// ---- report -----------------------------------------------------------------------------------

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

function row(name: string, f: Figures): string {
  const paints = f.loads.map((l) => l.paintMs);
  return (
    `${name.padEnd(28)} paint median ${median(paints).toFixed(0).padStart(4)} ms ` +
    `(${Math.min(...paints).toFixed(0)}–${Math.max(...paints).toFixed(0)}), ` +
    `bytes before paint ${kb(median(f.loads.map((l) => l.bytes))).padStart(8)}, ` +
    `CLS ${Math.max(...f.loads.map((l) => l.cls)).toFixed(3)} (max; ${f.loads.filter((l) => l.cls > 0).length} of ${f.loads.length} loads shifted), ` +
    `list ${f.rps.toFixed(0).padStart(5)} req/s p99 ${String(f.p99).padStart(4)} ms` +
    `${f.errors ? ` (${f.errors} errors)` : ''}, RSS ${mb(f.rssBytes)}`
  );
}

const browser = await launchChromium();
const results = new Map<string, Figures>();
try {
  // BENCH_ONLY=sqlite|postgres|waline: one subject (to profile it, say).
  const only = process.env['BENCH_ONLY'];
  const subjects: (() => Promise<Subject>)[] = [
    ...(!only || only === 'sqlite' ? [() => startParley(false)] : []),
    ...(process.env['DATABASE_URL'] && process.env['REDIS_URL'] && (!only || only === 'postgres')
      ? [() => startParley(true)]
      : []),
    ...(only && only !== 'waline'
      ? []
      : [
          async () => {
            const peer = await startWaline({
              scratchDir: join(tmpdir(), 'parley-waline-peer'),
              comments: COMMENTS,
              text: TEXT,
            });
            return {
              name: 'Waline',
              pageUrl: peer.pageUrl,
              selector: peer.commentSelector,
              listUrl: peer.listUrl,
              pids: peer.pids,
              hostDocument: peer.pageUrl,
              close: () => peer.close(),
            };
          },
        ]),
  ];
  console.log(
    `node ${process.version}, ${browser.version()} headless; ${COMMENTS} top-level comments, ` +
      `${SHOWN} shown; ${LOADS} cold loads each after a warm-up; list request at ${CONNECTIONS} ` +
      `connections for ${DURATION_SECONDS} s (autocannon, this process); RSS after that load`,
  );
  for (const start of subjects) {
    const subject = await start();
    try {
      const figures = await measure(browser, subject);
      results.set(subject.name, figures);
      console.log(row(subject.name, figures));
    } finally {
      await subject.close();
    }
  }
} finally {
  await browser.close();
}

const sqlite = results.get('Parley, SQLite');
const postgres = results.get('Parley, PostgreSQL + Redis');
const waline = results.get('Waline');
if (sqlite && waline) {
  const ours = median(sqlite.loads.map((l) => l.paintMs));
  const theirs = median(waline.loads.map((l) => l.paintMs));
  const bytes = median(sqlite.loads.map((l) => l.bytes));
  const cls = Math.max(...sqlite.loads.map((l) => l.cls));
  console.log('\nagainst the targets (Parley, SQLite unless said):');
  console.log(
    `  paint: ${(ours / theirs).toFixed(2)} × Waline's, same run (target ≤ ${TARGETS.paintRatio}): ${verdict(ours / theirs <= TARGETS.paintRatio)}`,
  );
  console.log(
    `  bytes before paint: ${kb(bytes)} (target ≤ ${kb(TARGETS.bytesBeforePaint)}; Waline ${kb(median(waline.loads.map((l) => l.bytes)))}): ${verdict(bytes <= TARGETS.bytesBeforePaint)}`,
  );
  console.log(
    `  CLS: ${cls.toFixed(3)} (target ${TARGETS.cls.toFixed(2)}): ${verdict(cls <= TARGETS.cls)}`,
  );
  console.log(
    `  list: ${sqlite.rps.toFixed(0)} req/s, p99 ${sqlite.p99} ms (target ≥ ${TARGETS.sqlite.rps}, ≤ ${TARGETS.sqlite.p99} ms; Waline ${waline.rps.toFixed(0)} req/s): ${verdict(sqlite.rps >= TARGETS.sqlite.rps && sqlite.p99 <= TARGETS.sqlite.p99)}`,
  );
  if (postgres)
    console.log(
      `  list on PostgreSQL + Redis: ${postgres.rps.toFixed(0)} req/s, p99 ${postgres.p99} ms (target ≥ ${TARGETS.postgres.rps}, ≤ ${TARGETS.postgres.p99} ms): ${verdict(postgres.rps >= TARGETS.postgres.rps && postgres.p99 <= TARGETS.postgres.p99)}`,
    );
  console.log(
    `  RSS after load: ${mb(sqlite.rssBytes)} (target ≤ ${mb(TARGETS.rssBytes)}; Waline ${mb(waline.rssBytes)}): ${verdict(sqlite.rssBytes <= TARGETS.rssBytes)}`,
  );
}
