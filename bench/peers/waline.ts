// Waline (https://waline.js.org), a popular lightweight commenting system, as a peer for Parley's
// benchmarks: installed from npm into a scratch folder, its SQLite database created and seeded here,
// its standalone server (`vanilla.js`, what Waline's own Docker image runs) started on 127.0.0.1,
// and a host page embedding the @waline/client widget served locally. Nothing of it is a
// dependency of the repository: `startWaline` installs it where it is told to.
//
// Self-check: `npx tsx bench/peers/waline.ts [--browser] [--scratch DIR]`.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { freePort, launchChromium } from '../../e2e/support/browser';

/** The Waline server package (`@waline/vercel`) version this module was verified with. */
export const WALINE_SERVER_VERSION = '1.39.3';
/** The Waline widget package (`@waline/client`) version this module was verified with. */
export const WALINE_CLIENT_VERSION = '3.15.2';

/** The page path the seeded thread lives on (Waline's `url` column, the widget's `path`). */
export const WALINE_THREAD_PATH = '/bench';
/** Comments per page, in the widget and in `listUrl`. */
export const WALINE_PAGE_SIZE = 20;
/** The widget's language, sent as `lang` with every request. */
const LANG = 'en';
/** How long the server may take to answer the list request with the seeded thread. */
const READY_TIMEOUT_MS = 30_000;
const HOST = '127.0.0.1';

/** A running Waline peer: its server, seeded thread and a host page embedding its widget. */
export interface WalinePeer {
  /** Server origin, e.g. http://127.0.0.1:8360 */
  origin: string;
  /**
   * The request the widget makes to list the first page of the seeded thread (Parley's "list"
   * request), built exactly as @waline/api's `getComment` builds it.
   */
  listUrl: string;
  /** A host page (served on another 127.0.0.1 port) embedding the widget on the seeded thread. */
  pageUrl: string;
  /** CSS selector matching each rendered top-level comment of the widget. */
  commentSelector: string;
  /**
   * PID of the Waline server process: the cluster worker that runs Waline's code and answers the
   * requests. `vanilla.js` runs ThinkJS in cluster mode, so a small master process (which owns the
   * listening socket and hands connections to the worker) exists too: see `pids`.
   */
  pid: number;
  /** Every process of the Waline server (the master first, then its worker), e.g. to sum RSS. */
  pids: number[];
  /** Stops everything it started and removes the run's database. */
  close(): Promise<void>;
}

/** What `startWaline` needs. */
export interface StartWalineOptions {
  /** Folder Waline is installed into (reused when it already holds the pinned versions). */
  scratchDir: string;
  /** Number of top-level approved comments to seed on `WALINE_THREAD_PATH`. */
  comments: number;
  /** Body of comment `i` (0-based; comment `comments - 1` is the newest). */
  text: (i: number) => string;
}

/** One comment as Waline's list API returns it (the fields this module reads). */
interface WalineComment {
  objectId: number;
  nick: string;
  comment: string;
  time: number;
}

/** Waline's answer to the list request. */
interface WalineListResponse {
  errno: number;
  errmsg: string;
  data: {
    page: number;
    totalPages: number;
    pageSize: number;
    count: number;
    data: WalineComment[];
  };
}

/** Reads the version of an installed package, or undefined when it is not installed. */
function installedVersion(dir: string, name: string): string | undefined {
  const file = join(dir, 'node_modules', name, 'package.json');
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** Runs a command to completion; rejects with its output when it fails. */
function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}

/**
 * Installs the pinned @waline/vercel and @waline/client into `scratchDir` unless they are there
 * already. The scratch folder gets its own package.json, so npm never walks up into another
 * project, and allows sqlite3's install script (it compiles the native binding with node-gyp).
 */
export async function ensureWalineInstalled(scratchDir: string): Promise<void> {
  const wanted = {
    '@waline/vercel': WALINE_SERVER_VERSION,
    '@waline/client': WALINE_CLIENT_VERSION,
  };
  const missing = Object.entries(wanted).filter(([n, v]) => installedVersion(scratchDir, n) !== v);
  if (missing.length > 0) {
    await mkdir(scratchDir, { recursive: true });
    const manifest = join(scratchDir, 'package.json');
    if (!existsSync(manifest)) {
      const pkg = { name: 'waline-peer', private: true, allowScripts: { sqlite3: true } };
      await writeFile(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
    }
    const specs = Object.entries(wanted).map(([n, v]) => `${n}@${v}`);
    await run('npm', ['install', '--no-audit', '--no-fund', '--save-exact', ...specs], scratchDir);
  }
  // Waline's SQLite adapter swallows a failing `require('sqlite3')`, so check it here.
  await run(process.execPath, ['-e', "require('sqlite3')"], scratchDir).catch((err: unknown) => {
    throw new Error(
      `sqlite3 (the native module Waline's SQLite adapter needs) does not load in ${scratchDir}`,
      {
        cause: err,
      },
    );
  });
}

/**
 * Waline's tables, derived from what @waline/vercel's code reads and writes (its storage services
 * and controllers; ids are AUTOINCREMENT because `setSeqId` updates SQLITE_SEQUENCE), with the
 * column types of Waline's published MySQL/PostgreSQL schemas. Like those, no index but the keys.
 */
export const WALINE_SCHEMA = `
CREATE TABLE wl_Comment (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER DEFAULT NULL,
  comment TEXT,
  insertedAt DATETIME DEFAULT CURRENT_TIMESTAMP,
  ip VARCHAR(100) DEFAULT '',
  link VARCHAR(255) DEFAULT NULL,
  mail VARCHAR(255) DEFAULT NULL,
  nick VARCHAR(255) DEFAULT NULL,
  pid INTEGER DEFAULT NULL,
  rid INTEGER DEFAULT NULL,
  sticky BOOLEAN DEFAULT NULL,
  status VARCHAR(50) NOT NULL DEFAULT '',
  "like" INTEGER DEFAULT NULL,
  ua TEXT,
  url VARCHAR(255) DEFAULT NULL,
  createdAt DATETIME DEFAULT CURRENT_TIMESTAMP,
  updatedAt DATETIME DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE wl_Counter (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  time INTEGER DEFAULT NULL,
  reaction0 INTEGER DEFAULT NULL,
  reaction1 INTEGER DEFAULT NULL,
  reaction2 INTEGER DEFAULT NULL,
  reaction3 INTEGER DEFAULT NULL,
  reaction4 INTEGER DEFAULT NULL,
  reaction5 INTEGER DEFAULT NULL,
  reaction6 INTEGER DEFAULT NULL,
  reaction7 INTEGER DEFAULT NULL,
  reaction8 INTEGER DEFAULT NULL,
  url VARCHAR(255) NOT NULL DEFAULT '',
  createdAt DATETIME DEFAULT CURRENT_TIMESTAMP,
  updatedAt DATETIME DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE wl_Users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  display_name VARCHAR(255) NOT NULL DEFAULT '',
  email VARCHAR(255) NOT NULL DEFAULT '',
  password VARCHAR(255) NOT NULL DEFAULT '',
  type VARCHAR(50) NOT NULL DEFAULT '',
  label VARCHAR(255) DEFAULT NULL,
  url VARCHAR(255) DEFAULT NULL,
  avatar VARCHAR(255) DEFAULT NULL,
  github VARCHAR(255) DEFAULT NULL,
  twitter VARCHAR(255) DEFAULT NULL,
  facebook VARCHAR(255) DEFAULT NULL,
  google VARCHAR(255) DEFAULT NULL,
  weibo VARCHAR(255) DEFAULT NULL,
  qq VARCHAR(255) DEFAULT NULL,
  oidc VARCHAR(255) DEFAULT NULL,
  huawei VARCHAR(255) DEFAULT NULL,
  "2fa" VARCHAR(32) DEFAULT NULL,
  createdAt DATETIME DEFAULT CURRENT_TIMESTAMP,
  updatedAt DATETIME DEFAULT CURRENT_TIMESTAMP
);
`;

/** A browser user agent, stored with each seeded comment as Waline stores the poster's. */
const SEED_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** Formats a date as ThinkJS writes DATETIME values (`think.datetime`: local time, to seconds). */
function thinkDatetime(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ` +
    `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`
  );
}

/**
 * Creates `<dataDir>/waline.sqlite` with Waline's tables and `comments` approved top-level
 * comments on `WALINE_THREAD_PATH`, by distinct guests, one minute apart, the newest a minute ago.
 */
export function seedWalineDatabase(dataDir: string, comments: number, text: (i: number) => string) {
  const db = new Database(join(dataDir, 'waline.sqlite'));
  try {
    db.exec(WALINE_SCHEMA);
    const insert = db.prepare(
      `INSERT INTO wl_Comment (comment, insertedAt, ip, link, mail, nick, status, "like", ua, url,
         createdAt, updatedAt)
       VALUES (?, ?, '127.0.0.1', '', ?, ?, 'approved', 0, ?, ?, ?, ?)`,
    );
    const now = Date.now();
    db.transaction(() => {
      for (let i = 0; i < comments; i++) {
        const at = thinkDatetime(new Date(now - (comments - i) * 60_000));
        const mail = `reader${i}@example.com`;
        insert.run(text(i), at, mail, `Reader ${i}`, SEED_UA, WALINE_THREAD_PATH, at, at);
      }
    })();
  } finally {
    db.close();
  }
}

/** Listens on a free 127.0.0.1 port and resolves to the server's origin. */
function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () =>
      resolve(`http://${HOST}:${(server.address() as AddressInfo).port}`),
    );
  });
}

/**
 * A stand-in for Waline's OAuth service list. Waline's first middleware fetches `OAUTH_URL`
 * (by default https://oauth.lithub.cc) on every request and answers 502/500 when that fails; with
 * no internet here, a separate process answers `{"services":[]}` on 127.0.0.1 instead (a separate
 * process, so the benchmark's own event loop never delays Waline's answers).
 */
function startOauthStub(): Promise<{ url: string; child: ChildProcess }> {
  const script = `
    const server = require('node:http').createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"services":[]}');
    });
    server.listen(0, '${HOST}', () => console.log(server.address().port));
    process.on('SIGTERM', () => process.exit(0));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`OAuth stub exited with ${code}`)));
    child.stdout.once('data', (chunk: Buffer) => {
      child.stdout.destroy();
      resolve({ url: `http://${HOST}:${chunk.toString().trim()}/`, child });
    });
  });
}

/** The host page: Waline's documented embed, with the widget's JS and CSS served locally. */
function hostPage(serverURL: string): string {
  const options = {
    el: '#waline',
    serverURL,
    path: WALINE_THREAD_PATH,
    lang: LANG,
    pageSize: WALINE_PAGE_SIZE,
    // The default emoji tabs are fetched from unpkg.com, which this machine cannot reach.
    emoji: false,
  };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Waline peer</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/waline/waline.css" />
  </head>
  <body>
    <main>
      <h1>Bench</h1>
      <div id="waline"></div>
    </main>
    <script type="module">
      import { init } from '/waline/waline.js';
      init(${JSON.stringify(options)});
    </script>
  </body>
</html>
`;
}

/** A small placeholder avatar, so the widget's avatars load locally instead of from Libravatar. */
const AVATAR_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100" fill="#9aa5b1"/></svg>';

/**
 * Starts the host-page server: `/bench` (the page), `/waline/waline.js` and `/waline/waline.css`
 * (@waline/client's full ESM build and stylesheet, from the scratch install, kept in memory) and
 * `/avatar/*` (the placeholder avatar). Resolves to the server and its origin.
 */
async function startHostServer(
  scratchDir: string,
  walineOrigin: string,
): Promise<{ server: Server; origin: string }> {
  const dist = join(scratchDir, 'node_modules', '@waline', 'client', 'dist');
  const files = new Map<string, { type: string; body: string | Buffer }>([
    [WALINE_THREAD_PATH, { type: 'text/html; charset=utf-8', body: hostPage(walineOrigin) }],
    [
      '/waline/waline.js',
      { type: 'text/javascript', body: await readFile(join(dist, 'waline.js')) },
    ],
    ['/waline/waline.css', { type: 'text/css', body: await readFile(join(dist, 'waline.css')) }],
  ]);
  const avatar = { type: 'image/svg+xml', body: AVATAR_SVG };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://host').pathname;
    const file = path.startsWith('/avatar/') ? avatar : files.get(path);
    if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': file.type,
      'content-length': Buffer.byteLength(file.body),
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  });
  return { server, origin: await listen(server) };
}

/**
 * Makes `vanilla.js` listen on 127.0.0.1 only. ThinkJS listens on all interfaces unless its `host`
 * config is set, and the one hook `vanilla.js` offers is an optional `config.js` beside it, whose
 * keys it applies with `think.config(key, value)` before the worker starts listening.
 */
async function bindToLoopback(serverDir: string): Promise<void> {
  await writeFile(
    join(serverDir, 'config.js'),
    `// Written by Parley's bench/peers/waline.ts: listen on loopback only.\nmodule.exports = { host: '${HOST}' };\n`,
  );
}

/** The environment of the Waline server: only what it needs, so nothing inherited picks storage. */
function walineEnv(dataDir: string, oauthUrl: string, hostOrigin: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'production',
    SQLITE_PATH: dataDir,
    JWT_TOKEN: 'parley-bench-waline-peer',
    OAUTH_URL: oauthUrl,
    // Posting a comment would otherwise ask Akismet (rest.akismet.com) whether it is spam.
    AKISMET_KEY: 'false',
    // Waline's avatar template (nunjucks), pointed at the host server's placeholder.
    GRAVATAR_STR: `${hostOrigin}/avatar/{{mail|md5}}.svg`,
  };
  for (const key of ['PATH', 'HOME', 'TZ', 'LANG']) {
    if (process.env[key] !== undefined) env[key] = process.env[key];
  }
  return env;
}

/** Reads the end of a log file, for error messages. */
function logTail(file: string, chars = 4000): string {
  if (!existsSync(file)) return '(no log)';
  const text = readFileSync(file, 'utf8');
  return text.length > chars ? `…${text.slice(-chars)}` : text;
}

/** PIDs of the direct children of a process, from /proc. */
function childPids(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the parenthesised command name: state, ppid, ...
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** Whether a process is still alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops a child started with `detached: true` and everything in its process group: SIGTERM, then
 * SIGKILL after `graceMs` if any of `pids` is still alive.
 */
async function stopGroup(child: ChildProcess, pids: number[], graceMs = 3000): Promise<void> {
  const leader = child.pid;
  if (leader === undefined) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-leader, signal);
    } catch {
      // The group is gone already.
    }
  };
  signalGroup('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pids.some(alive) && Date.now() < deadline) await sleep(50);
  if (pids.some(alive)) signalGroup('SIGKILL');
  while (pids.some(alive)) await sleep(20);
  if (child.exitCode === null && child.signalCode === null) {
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/** Stops a plain child process. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Builds the list request exactly as @waline/api's `getComment` does (client 3.15.2). */
export function walineListUrl(origin: string, path = WALINE_THREAD_PATH): string {
  return (
    `${origin}/api/comment?path=${encodeURIComponent(path)}&pageSize=${WALINE_PAGE_SIZE}` +
    `&page=1&lang=${LANG}&sortBy=insertedAt_desc`
  );
}

/**
 * Polls `listUrl` until it answers 200 with the whole seeded thread counted; throws with the end of
 * the server's log if the server exits or `READY_TIMEOUT_MS` passes first.
 */
async function waitUntilListed(
  listUrl: string,
  comments: number,
  server: ChildProcess,
  logFile: string,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(
        `Waline exited (${server.exitCode ?? server.signalCode}) before it listed the thread.\n` +
          `Its output:\n${logTail(logFile)}`,
      );
    }
    try {
      const res = await fetch(listUrl, { signal: AbortSignal.timeout(5000) });
      const body = await res.text();
      last = `HTTP ${res.status}: ${body.slice(0, 300)}`;
      if (res.ok && (JSON.parse(body) as WalineListResponse).data?.count === comments) return;
    } catch (err) {
      last = String(err);
    }
    await sleep(250);
  }
  throw new Error(
    `Waline did not list the ${comments} seeded comments at ${listUrl} within ` +
      `${READY_TIMEOUT_MS / 1000} s (last: ${last}).\nIts output:\n${logTail(logFile)}`,
  );
}

/**
 * Installs (if needed) and starts Waline on 127.0.0.1 with a fresh SQLite database seeded with
 * `options.comments` comments, plus a host page embedding its widget; resolves once the list
 * request returns the seeded thread. Everything it starts is stopped by the peer's `close()`.
 */
export async function startWaline(options: StartWalineOptions): Promise<WalinePeer> {
  const { scratchDir, comments, text } = options;
  await ensureWalineInstalled(scratchDir);
  const serverDir = join(scratchDir, 'node_modules', '@waline', 'vercel');
  const runDir = await mkdtemp(join(scratchDir, 'run-'));
  const dataDir = join(runDir, 'data');
  await mkdir(dataDir);
  seedWalineDatabase(dataDir, comments, text);
  await bindToLoopback(serverDir);

  const port = await freePort();
  const origin = `http://${HOST}:${port}`;
  const listUrl = walineListUrl(origin);
  const cleanups: (() => Promise<void>)[] = [() => rm(runDir, { recursive: true, force: true })];
  const cleanUp = async () => {
    for (const step of cleanups.splice(0).reverse()) await step();
  };

  try {
    const host = await startHostServer(scratchDir, origin);
    cleanups.push(async () => {
      host.server.closeAllConnections();
      await new Promise((resolve) => host.server.close(resolve));
    });
    const oauth = await startOauthStub();
    cleanups.push(() => stopChild(oauth.child));

    const logFile = join(runDir, 'waline.log');
    const log = openSync(logFile, 'w');
    const server = spawn(process.execPath, [join(serverDir, 'vanilla.js'), String(port)], {
      cwd: scratchDir,
      env: walineEnv(dataDir, oauth.url, host.origin),
      stdio: ['ignore', log, log],
      detached: true,
    });
    closeSync(log);
    const masterPid = server.pid;
    if (masterPid === undefined) throw new Error('Waline server did not start');
    const pids = [masterPid];
    cleanups.push(() => stopGroup(server, pids));

    await waitUntilListed(listUrl, comments, server, logFile);
    pids.push(...childPids(masterPid));
    const workerPid = pids[1];
    if (workerPid === undefined)
      throw new Error('Waline answered, but its cluster worker was not found');

    return {
      origin,
      listUrl,
      pageUrl: `${host.origin}${WALINE_THREAD_PATH}`,
      commentSelector: '.wl-cards > .wl-card-item',
      pid: workerPid,
      pids,
      close: cleanUp,
    };
  } catch (err) {
    await cleanUp();
    throw err;
  }
}

/** Resident set size of a process in MiB, from /proc. */
function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** Opens `pageUrl` in headless Chromium and times until `count` comments are rendered. */
async function browserCheck(peer: WalinePeer, count: number): Promise<void> {
  const browser = await launchChromium();
  try {
    for (const label of ['cold', 'warm']) {
      // A new context each time: empty cache and storage, as for a first visit.
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(String(err)));
      page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
      page.on('response', (r) => r.status() >= 400 && errors.push(`HTTP ${r.status()} ${r.url()}`));
      const started = performance.now();
      await page.goto(peer.pageUrl);
      await page.waitForFunction(
        ([selector, n]) => document.querySelectorAll(selector).length >= n,
        [peer.commentSelector, count] as const,
        { timeout: 30_000 },
      );
      const ms = performance.now() - started;
      const rendered = await page.locator(peer.commentSelector).count();
      const first = await page.locator(`${peer.commentSelector} .wl-content`).first().innerText();
      console.log(
        `browser (${label} browser process, new context): ${rendered} comments rendered in ` +
          `${ms.toFixed(0)} ms; first: ${JSON.stringify(first.trim().slice(0, 60))}` +
          (errors.length ? `; page errors: ${errors.join(' | ')}` : ''),
      );
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

/** Starts Waline with 25 comments, checks the list request and the host page, then stops it. */
async function selfCheck(): Promise<void> {
  const scratchIndex = process.argv.indexOf('--scratch');
  const scratchDir =
    (scratchIndex > 0 ? process.argv[scratchIndex + 1] : undefined) ??
    join(tmpdir(), 'parley-waline-peer');
  const comments = 25;
  let started = performance.now();
  const peer = await startWaline({
    scratchDir,
    comments,
    text: (i) => `Comment ${i}: a short remark about the **bench** article.`,
  });
  console.log(`started in ${(performance.now() - started).toFixed(0)} ms (install reused or made)`);
  try {
    console.log(`origin:   ${peer.origin}`);
    console.log(`listUrl:  ${peer.listUrl}`);
    console.log(`pageUrl:  ${peer.pageUrl}`);
    console.log(`selector: ${peer.commentSelector}`);
    console.log(
      `pids:     worker ${peer.pid} (${rssMiB(peer.pid).toFixed(1)} MiB RSS), ` +
        `all ${peer.pids.map((p) => `${p} (${rssMiB(p).toFixed(1)} MiB)`).join(', ')}`,
    );

    started = performance.now();
    const res = await fetch(peer.listUrl);
    const list = (await res.json()) as WalineListResponse;
    const ms = performance.now() - started;
    console.log(
      `list:     HTTP ${res.status} in ${ms.toFixed(1)} ms: ${list.data.data.length} comments ` +
        `of ${list.data.count} in all, ${list.data.totalPages} pages; newest ` +
        `${JSON.stringify(list.data.data[0]?.nick)}: ${JSON.stringify(list.data.data[0]?.comment)}`,
    );
    const page = await fetch(peer.pageUrl);
    const html = await page.text();
    console.log(`page:     HTTP ${page.status}, ${html.length} bytes of HTML`);

    if (process.argv.includes('--browser')) await browserCheck(peer, WALINE_PAGE_SIZE);
  } finally {
    await peer.close();
  }
  const left = peer.pids.filter(alive);
  console.log(
    `closed:   ${left.length ? `still alive: ${left.join(', ')}` : 'all processes gone'}`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await selfCheck();
}
