// The reader's first view: from the host page's navigation start to 20 comment `article`s painted
// in the stream iframe, in headless Debian Chromium, against the real server (SQLite in a temp
// folder) and the example host site on another origin — 10 runs, a fresh browser context each
// (no cache, no storage). Then the gzip sizes of what a first render downloads. Needs the builds:
// npm run build && npx tsx bench/stream.bench.ts
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { builtClientRoutes, CLIENT_BUILDS, createParleyServer, loadConfig } from '@parley/server';
import { createExampleServer } from '../examples/host/createExampleServer';
import { freePort, launchChromium, REPOSITORY_ROOT as ROOT } from '../e2e/support/browser';
import { seedStory } from './support/seedStory';

const RUNS = 10;
const TOP_LEVEL_COMMENTS = 25;
const PAINTED_ARTICLES = 20;
/** A run that has not painted by then is reported as failed (the widget is broken). */
const RUN_TIMEOUT_MS = 15_000;
const STORY_PATH = '/articles/bench';

// ---- sizes ---------------------------------------------------------------------------------

const gzipBytes = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;
/** Bytes a browser that takes Brotli receives: the build's `.br` copy (what the server sends). */
const brotliBytes = (path: string) =>
  existsSync(`${path}.br`) ? readFileSync(`${path}.br`).length : readFileSync(path).length;

/** The size-limit budget (in bytes) whose name starts with `name`: one list of targets. */
function budget(name: string): number {
  const entries = createRequire(import.meta.url)('../.size-limit.cjs') as {
    name: string;
    limit: string;
  }[];
  const limit = entries.find((entry) => entry.name.startsWith(name))?.limit ?? '';
  const [, figure = 'NaN', unit = 'B'] = /^([\d.]+)\s*(KB|B)$/.exec(limit) ?? [];
  return Number(figure) * (unit === 'KB' ? 1000 : 1);
}
const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;

/**
 * The stream's first-render files: what stream.html references under /embed/assets, then every
 * module those import statically (a dynamic `import()` is a lazy chunk, not first render).
 */
function firstRenderFiles(): string[] {
  const html = CLIENT_BUILDS['/embed/stream'] as string;
  const assets = CLIENT_BUILDS['/embed/assets'] as string;
  const files = [html];
  const queue = [...readFileSync(html, 'utf8').matchAll(/\/embed\/assets\/([^"'\s>]+)/g)].map((m) =>
    join(assets, m[1]!),
  );
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (files.includes(file) || !existsSync(file)) continue;
    files.push(file);
    if (!file.endsWith('.js')) continue;
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(
      /\b(?:import|export)\s*(?:[^'"()]*?\bfrom\s*)?["'](\.[^"']+)["']/g,
    )) {
      queue.push(join(dirname(file), posix.normalize(m[1]!)));
    }
  }
  return files;
}

function printSizes(): void {
  const embed = CLIENT_BUILDS['/embed.js'] as string;
  const count = CLIENT_BUILDS['/count.js'] as string;
  const row = (label: string, bytes: number, budget?: number) =>
    console.log(
      `  ${label.padEnd(62)} ${String(bytes).padStart(7)} B  ${kB(bytes).padStart(9)}` +
        (budget === undefined ? '' : `  (budget ${kB(budget)}${bytes > budget ? ' — OVER' : ''})`),
    );
  console.log('\ngzip sizes (level 9):');
  row('embed.js', gzipBytes(embed), budget('embed.js'));
  row('count.js', gzipBytes(count), budget('count.js'));
  const stream = firstRenderFiles();
  let total = gzipBytes(embed);
  let transferred = brotliBytes(embed);
  for (const file of stream) {
    transferred += brotliBytes(file);
    const bytes = gzipBytes(file);
    total += bytes;
    row(`stream: ${file.slice(ROOT.length).replace(/^packages\/stream\/dist\//, '')}`, bytes);
  }
  row('first render (embed.js + the stream files above)', total, budget('stream first render'));
  row('first render as served to a browser taking Brotli (.br copies)', transferred);
  if (loaded.length > 0) {
    // What a first view really fetched, lazy chunks too (the live socket, storage…).
    console.log('\nfetched by the browser during the warm-up view (lazy chunks too):');
    let fetched = 0;
    for (const file of loaded.filter((f) => existsSync(f))) {
      const bytes = gzipBytes(file);
      fetched += bytes;
      row(file.slice(ROOT.length).replace(/^packages\//, ''), bytes);
    }
    row('total', fetched);
  }
}

// ---- time to 20 comments painted -----------------------------------------------------------

/**
 * Runs in every frame before its own scripts. In the stream frame it watches for the 20th
 * `article` and records, after the next paint, the wall-clock time; the host's navigation start
 * is its `performance.timeOrigin` (the same clock, another process). A string, not a function:
 * tsx would wrap a function's inner functions in a `__name` helper the page does not have.
 */
const WATCH_FOR_ARTICLES = `
  if (location.pathname === '/embed/stream') {
    const check = () => {
      if (document.querySelectorAll('article').length < ${PAINTED_ARTICLES}) return void requestAnimationFrame(check);
      // rAF runs just before a paint; a task queued from it runs once that paint is done.
      requestAnimationFrame(() =>
        setTimeout(() => (window.__parleyPainted = performance.timeOrigin + performance.now())),
      );
    };
    requestAnimationFrame(check);
  }
`;

/** The built file a URL of the Parley server serves, if it is one of the client builds. */
function builtFileOf(parleyUrl: string, url: string): string | undefined {
  if (!url.startsWith(parleyUrl)) return undefined;
  const path = new URL(url).pathname;
  for (const [route, target] of Object.entries(CLIENT_BUILDS)) {
    if (typeof target !== 'string') continue;
    if (path === route) return target;
    if (path.startsWith(`${route}/`)) return join(target, path.slice(route.length + 1));
  }
  return undefined;
}

/** The built files the browser fetched during the warm-up run, in order. */
const loaded: string[] = [];

async function measure(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-stream-bench-'));
  const port = await freePort();
  const parleyUrl = `http://127.0.0.1:${port}`;
  // Without the comments' HTML in the article: the bench times the frame's thread, as the
  // peers' host pages have no server include either.
  const example = createExampleServer({
    parleyUrl,
    pagesDir: join(ROOT, 'examples/host'),
    commentsHtml: false,
  });
  await new Promise<void>((resolve) => example.listen(0, '127.0.0.1', resolve));
  const exampleUrl = `http://127.0.0.1:${(example.address() as AddressInfo).port}`;
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_URL: parleyUrl,
    PARLEY_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
  });
  const server = await createParleyServer({ config, staticRoutes: builtClientRoutes() });
  await server.listen();
  const browser = await launchChromium();
  try {
    await seedStory(server.deps, {
      siteUrl: exampleUrl,
      storyUrl: `${exampleUrl}${STORY_PATH}`,
      readers: 4,
      comments: TOP_LEVEL_COMMENTS,
      body: (i) => `Comment ${i} with **some** Markdown and a link https://example.com/${i}`,
    });

    console.log(
      `node ${process.version}; ${browser.version()} headless; SQLite; a story with ` +
        `${TOP_LEVEL_COMMENTS} top-level comments; host page ${exampleUrl}, Parley ${parleyUrl}`,
    );
    console.log(
      `navigation start → ${PAINTED_ARTICLES} comment articles painted in the frame ` +
        `(1 warm-up run not counted, then ${RUNS} runs, fresh context each); in brackets, ms ` +
        'after navigation start when each step was done:',
    );
    const times: number[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
      if (run === 0) {
        context.on('response', (response) => {
          const file = builtFileOf(parleyUrl, response.url());
          if (file !== undefined && !loaded.includes(file)) loaded.push(file);
        });
      }
      const errors: string[] = [];
      context.on('weberror', (error) => errors.push(String(error.error())));
      await context.addInitScript(WATCH_FOR_ARTICLES);
      const page = await context.newPage();
      try {
        await page.goto(`${exampleUrl}${STORY_PATH}`);
        const origin = await page.evaluate(() => performance.timeOrigin);
        const deadline = Date.now() + RUN_TIMEOUT_MS;
        let painted: number | undefined;
        while (painted === undefined && Date.now() < deadline) {
          const frame = page.frames().find((f) => f.url().startsWith(`${parleyUrl}/embed/stream`));
          painted = await frame
            ?.evaluate(() => (window as unknown as { __parleyPainted?: number }).__parleyPainted)
            .catch(() => undefined);
          if (painted === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        if (painted === undefined) {
          const frame = page.frames().find((f) => f.url().startsWith(`${parleyUrl}/embed/stream`));
          const articles = await frame?.evaluate(() => document.querySelectorAll('article').length);
          throw new Error(
            `no ${PAINTED_ARTICLES} articles within ${RUN_TIMEOUT_MS} ms (frame: ` +
              `${frame ? `${articles} articles` : 'none'}${errors.length ? `; errors: ${errors.join('; ')}` : ''})`,
          );
        }
        const ms = painted - origin;
        // Where the time went, on the host page's clock: each milestone's end.
        const hostEntries = await page.evaluate(() =>
          (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
            (e) => [e.name, e.responseEnd] as const,
          ),
        );
        const frame = page.frames().find((f) => f.url().startsWith(`${parleyUrl}/embed/stream`))!;
        const frameTimes = await frame.evaluate(() => ({
          origin: performance.timeOrigin,
          entries: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
            (e) => [e.name, e.responseEnd] as const,
          ),
        }));
        const at = (
          entries: readonly (readonly [string, number])[],
          path: string | RegExp,
          base: number,
        ) => {
          const found = entries.find(([name]) => {
            const { pathname } = new URL(name);
            return typeof path === 'string' ? pathname.endsWith(path) : path.test(pathname);
          });
          return found ? `${(base + found[1] - origin).toFixed(0).padStart(4)}` : '   -';
        };
        const steps =
          `embed.js ${at(hostEntries, '/embed.js', origin)}, ` +
          `frame opens ${(frameTimes.origin - origin).toFixed(0).padStart(4)}, ` +
          `stream.js ${at(frameTimes.entries, /\/stream-[\w-]+\.js$/, frameTimes.origin)}, ` +
          `first query ${at(frameTimes.entries, '/graphql', frameTimes.origin)}`;
        if (run === 0) {
          console.log(`  warm-up  ${ms.toFixed(0).padStart(6)} ms   (${steps})`);
        } else {
          times.push(ms);
          console.log(
            `  run ${String(run).padStart(2)}   ${ms.toFixed(0).padStart(6)} ms   (${steps})`,
          );
        }
      } finally {
        await context.close();
      }
    }
    const sorted = [...times].sort((a, b) => a - b);
    const quantile = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
    const median =
      sorted.length % 2 === 1
        ? sorted[(sorted.length - 1) / 2]!
        : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
    console.log(
      `median ${median.toFixed(0)} ms, p90 ${quantile(0.9).toFixed(0)} ms, ` +
        `min ${sorted[0]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
    );
  } finally {
    await browser.close();
    example.closeAllConnections();
    example.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const missing = ['/embed.js', '/count.js', '/embed/stream', '/embed/assets'].filter(
  (route) => !existsSync(CLIENT_BUILDS[route] as string),
);
if (missing.length > 0) {
  console.error(`Run \`npm run build\` first: no build for ${missing.join(', ')}.`);
  process.exit(1);
}
try {
  await measure();
} catch (error) {
  console.error('The timing runs failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
printSizes();
