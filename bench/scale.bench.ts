// `npm run bench:scale`: the scale issue's figures, each next to its target, in one run on this
// machine. Section 3 (big stories) is built: a story of 100,000 comments against one of 100, on
// SQLite and on PostgreSQL (DATABASE_URL: an admin URL; the bench makes and drops its own
// databases), through the real server over HTTP on 127.0.0.1 — the stream's first page, "Load
// more" at page 50, a permalink deep in the thread, the console's queue and counts, and count.js's
// count. Each request is timed REPEAT times after a warm-up; the median is compared. Sections 1, 2,
// 4 and 5 say so where they are not built yet. Bounded: fixed counts, a fixed size.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createParleyServer, loadConfig } from '@parley/server';
import type { ParleyServer } from '@parley/server';
import { createTestDatabase } from '../packages/server/src/db/testDatabases';
import { seedStory } from './support/seedStory';
import { writeBigStory } from './support/bigStory';
import { refreshPlannerStatistics } from '../packages/server/src/db/plannerStatistics';
import { RATE_LIMITS } from '../packages/server/src/defaults';
import { startRoundRobin } from './support/roundRobin';
import { postAtRate } from './support/pacedPosts';
import { graphqlAt } from '../packages/server/src/runtime/testing/postingClients';
import {
  arrivalsOf,
  countStored,
  openReaders,
  percentile,
  post,
  startLive,
  writerHeaders,
} from './support/liveFanOut';
import type { LiveSetup } from './support/liveFanOut';

const SITE = 'https://site.example';
const SMALL = 100;
const BIG = Number(process.env['BENCH_BIG_STORY'] ?? 100_000);
const REPEAT = 25;
/** The issue's target: each request on the big story within 1.5× the small one's time. */
const TARGET_RATIO = 1.5;

const COMMENT = `id body createdAt replyCount reactionCount viewerReacted tags author { id username avatarUrl badges }`;
const FIRST_PAGE = `query FirstPage($url: String!, $after: String) {
  story(url: $url) {
    id commentCount
    comments(first: 20, after: $after) {
      edges { cursor node { ${COMMENT}
        replies(first: 3) { edges { node { ${COMMENT} } } pageInfo { hasNextPage endCursor } }
      } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;
const PERMALINK = `query Permalink($id: ID!) {
  comment(id: $id) {
    ${COMMENT} story { id } parent { ${COMMENT} }
    replies(first: 3) { edges { node { ${COMMENT} } } pageInfo { hasNextPage endCursor } }
  }
}`;
const QUEUE = `query Queue($storyId: ID!) {
  moderationQueue(queue: PENDING, storyId: $storyId, first: 20) {
    edges { node { ${COMMENT} status heldBecause } } pageInfo { hasNextPage endCursor }
  }
}`;
const COUNTS = `query Counts($storyId: ID!) {
  moderationCounts(storyId: $storyId) { pending reported unmoderated approved rejected }
}`;
const COUNT = `query Count($urls: [String!]!) { commentCounts(urls: $urls) }`;

/** A story of `size` comments on a fresh server; what the requests need. */
async function setUp(server: ParleyServer, size: number) {
  const { storyId, authorIds } = await seedStory(server.deps, {
    siteUrl: SITE,
    storyUrl: `${SITE}/story`,
    readers: 49,
    comments: 0,
    body: () => '',
  });
  const { deepId } = await writeBigStory(server.deps, storyId, authorIds, size);
  // What the server's hourly sweep does: the planners' statistics of what the tables now hold.
  await refreshPlannerStatistics(server.deps.db);
  const token = await server.deps.tokens.sign({ userId: authorIds[0]!, role: 'ADMIN' });
  return { storyId, deepId, token };
}

/** Warm-up runs before the timed ones (the server's code paths compiled, caches filled). */
const WARM_UP = 10;

/** Median milliseconds of `REPEAT` runs of `run`, after {@link WARM_UP} untimed ones. */
async function time(run: () => Promise<void>): Promise<number> {
  for (let i = 0; i < WARM_UP; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** The five requests' medians on a story of `size` comments. */
async function measure(env: Record<string, string>, size: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-scale-'));
  const config = loadConfig({ ...env, PORT: '0', PARLEY_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const server = await createParleyServer({ config });
  try {
    const port = await server.listen();
    const seeded = await setUp(server, size);
    const url = `http://127.0.0.1:${port}/graphql`;
    const ask = async (query: string, variables: object, token?: string) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: SITE,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as { data?: any; errors?: unknown[] };
      if (body.errors) throw new Error(`${query.slice(0, 40)}: ${JSON.stringify(body.errors)}`);
      return body.data;
    };
    const storyUrl = `${SITE}/story`;
    // The cursor of page 50 (or of the last page a small story has), walked once, untimed.
    let after: string | null = null;
    for (let page = 1; page < 50; page++) {
      const data = await ask(FIRST_PAGE, { url: storyUrl, after });
      const info = data.story.comments.pageInfo;
      if (!info.hasNextPage) break;
      after = info.endCursor;
    }
    return {
      'first page': await time(() => ask(FIRST_PAGE, { url: storyUrl })),
      'load more (page 50)': await time(() => ask(FIRST_PAGE, { url: storyUrl, after })),
      'deep permalink': await time(() => ask(PERMALINK, { id: seeded.deepId })),
      "console's Pending queue": await time(() =>
        ask(QUEUE, { storyId: seeded.storyId }, seeded.token),
      ),
      "console's queue counts": await time(() =>
        ask(COUNTS, { storyId: seeded.storyId }, seeded.token),
      ),
      "count.js's count": await time(() => ask(COUNT, { urls: [storyUrl] })),
    };
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Section 3 on one database: `env` for each size from `open` (a fresh database each: statistics
 * left by the small story would mislead PostgreSQL's plans while the big one is written).
 */
async function bigStories(
  name: string,
  open: () => Promise<{ env: Record<string, string>; close: () => Promise<void> }>,
) {
  const run = async (size: number) => {
    const database = await open();
    try {
      return await measure(database.env, size);
    } finally {
      await database.close();
    }
  };
  const start = performance.now();
  const small = await run(SMALL);
  const big = await run(BIG);
  console.log(
    `\n3. Big stories on ${name} (${BIG.toLocaleString('en')} vs ${SMALL} comments; median of ${REPEAT}; seeding and all ${((performance.now() - start) / 1000).toFixed(0)} s)`,
  );
  for (const [request, ms] of Object.entries(big)) {
    const base = small[request as keyof typeof small];
    const ratio = ms / base;
    const verdict = ratio <= TARGET_RATIO ? 'ok' : 'MISSED';
    console.log(
      `   ${request.padEnd(26)} ${base.toFixed(2).padStart(7)} ms → ${ms.toFixed(2).padStart(8)} ms  ×${ratio.toFixed(2)} (target ≤ ×${TARGET_RATIO})  ${verdict}`,
    );
  }
}

/** Comments timed per fan-out, after {@link FAN_OUT_WARM_UP} untimed ones. */
const FAN_OUT_COMMENTS = 10;
const FAN_OUT_WARM_UP = 2;
/** Processes the fan-out's readers are spread over. */
const READER_PROCESSES = 2;
/** Readers per loopback address: under the server's bound of sockets per address. */
const READERS_PER_ADDRESS = 40;

/**
 * `count` readers of one story over `setup`'s servers (in turn), `FAN_OUT_COMMENTS` comments
 * posted on the first server one after another, each waited for by every reader: the delays from
 * the post leaving to each reader having it.
 */
async function fanOut(setup: LiveSetup, count: number, label: string, targetP95: number) {
  // The readers in READER_PROCESSES processes, half each (one Node process parsing 10,000
  // messages in turn measures itself more than the server; real readers are many machines).
  const groups = await Promise.all(
    Array.from({ length: READER_PROCESSES }, (_, group) =>
      openReaders({
        urls: setup.servers.map((server) => `${server.url.replace('http', 'ws')}/graphql`),
        storyIds: [setup.storyIds[0]!],
        count: count / READER_PROCESSES,
        perAddress: READERS_PER_ADDRESS,
        addressGroup: 1 + group * 4,
      }),
    ),
  );
  try {
    const delays: number[] = [];
    const lasts: number[] = [];
    let lost = 0;
    const errors: string[] = [];
    for (let n = 0; n < FAN_OUT_WARM_UP + FAN_OUT_COMMENTS; n++) {
      const { id, sentAt } = await post(setup, setup.servers[0]!, setup.storyIds[0]!, n);
      const got = await arrivalsOf(groups, id, sentAt, count);
      errors.push(...got.errors);
      if (n < FAN_OUT_WARM_UP) continue;
      lost += count - got.delays.length;
      delays.push(...got.delays);
      lasts.push(Math.max(...got.delays));
    }
    const p95 = percentile(delays, 95);
    console.log(
      `   ${label.padEnd(44)} p50 ${ms(percentile(delays, 50))}  p95 ${ms(p95)}  last reader ${ms(percentile(lasts, 50))} (median)  target p95 ≤ ${targetP95} ms  ${p95 <= targetP95 && lost === 0 ? 'ok' : 'MISSED'}${lost > 0 ? `  ${lost} deliveries missing` : ''}`,
    );
    if (errors.length > 0) console.log(`     readers' errors: ${errors.slice(0, 3).join('; ')}`);
    console.log(
      `     (${count.toLocaleString('en')} readers connected in ${(Math.max(...groups.map((g) => g.openedMs)) / 1000).toFixed(1)} s)`,
    );
  } finally {
    await Promise.all(groups.map((group) => group.close()));
  }
}

/**
 * Idle readers spread over stories: the server's memory and CPU while only keep-alives flow,
 * judged over a window after a settling time, every second of it sampled; the peak while
 * settling, just after connecting, is printed too. Connecting 10,000 readers makes ~200 MB of
 * garbage. Under the server's first flags, V8 returned it 10–25 s after the last connection or
 * not at all (readers' pings kept the allocation rate above what its memory reducer waits for):
 * RSS 375–435 MB in some runs, 225–241 in others. With `--heap-growing-percent=50` it is
 * collected while the readers connect (RSS 259–266 MB at the peak); the settling time stays, so
 * that a return to the old behaviour shows as a peak above the window.
 */
async function idleReaders(setup: LiveSetup, count: number) {
  const readers = await openReaders({
    urls: [`${setup.servers[0]!.url.replace('http', 'ws')}/graphql`],
    storyIds: setup.storyIds,
    count,
    perAddress: READERS_PER_ADDRESS,
    addressGroup: 1,
  });
  try {
    const rssEachSecond = async (seconds: number) => {
      const samples: number[] = [];
      for (let i = 0; i < seconds; i++) {
        samples.push(setup.usage()[0]!.rssMb);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      return samples;
    };
    const settling = await rssEachSecond(IDLE_SETTLE_S);
    const [before] = setup.usage();
    const start = performance.now();
    const idle = await rssEachSecond(IDLE_WINDOW_S);
    const [after] = setup.usage();
    const cpu = ((after!.cpuMs - before!.cpuMs) / (performance.now() - start)) * 100;
    const rss = Math.max(...idle, after!.rssMb);
    console.log(
      `   ${`${count.toLocaleString('en')} idle readers over ${setup.storyIds.length.toLocaleString('en')} stories`.padEnd(44)} RSS ${rss.toFixed(0)} MB (target ≤ 300)  CPU ${cpu.toFixed(1)} % of a core (target ≤ 5 %), both over ${IDLE_WINDOW_S} s  ${rss <= 300 && cpu <= 5 ? 'ok' : 'MISSED'}`,
    );
    console.log(
      `   ${''.padEnd(44)} (the ${IDLE_SETTLE_S} s before, just after connecting: RSS up to ${Math.max(...settling).toFixed(0)} MB)`,
    );
  } finally {
    await readers.close();
  }
}
/** Idle readers: the settling time after connecting (see idleReaders), then the window measured. */
const IDLE_SETTLE_S = 25;
const IDLE_WINDOW_S = 20;

const ms = (value: number) => `${value.toFixed(0).padStart(5)} ms`;

/** Section 1: one instance on SQLite; two on PostgreSQL + Redis; idle readers. */
async function liveFanOutSection() {
  console.log(
    `1. Live fan-out (graphql-ws readers in ${READER_PROCESSES} other processes, the compiled server; ${FAN_OUT_COMMENTS} comments, each awaited by every reader; delay from the post leaving to a reader having it)`,
  );
  if (runs('1a')) {
    const sqlite = await startLive({});
    try {
      await fanOut(sqlite, 1_000, '1,000 readers, one instance, SQLite', 100);
      await fanOut(sqlite, 10_000, '10,000 readers, one instance, SQLite', 500);
    } finally {
      await sqlite.close();
    }
  }
  if (!runs('1b')) {
    // Left out by BENCH_SCALE_ONLY.
  } else if (process.env['DATABASE_URL'] && process.env['REDIS_URL']) {
    const database = await createTestDatabase('postgres');
    const two = await startLive(
      { DATABASE_URL: database.url, REDIS_URL: process.env['REDIS_URL'] },
      { instances: 2 },
    );
    try {
      await fanOut(two, 10_000, '10,000 readers over two instances, PG + Redis', 600);
    } finally {
      await two.close();
      await database.close();
    }
  } else {
    console.log('   two instances: skipped (set DATABASE_URL and REDIS_URL)');
  }
  if (runs('1c')) {
    const idle = await startLive({}, { stories: 1_000 });
    try {
      await idleReaders(idle, 10_000);
    } finally {
      await idle.close();
    }
  }
}

/** Section 2: readers as the widget is (its socket, its catch-up), and a server restarted. */
const STORM_READERS = 1_000;
const STORM_TARGET_MS = 15_000;

/**
 * `STORM_READERS` readers on one story, each the transport's socket with the stream's catch-up
 * (liveSubscribers.ts, mode `transport`), on the compiled server (SQLite). The server is stopped
 * as a deploy stops it (SIGTERM: the sockets are closed with 1001) and started again on its port;
 * a comment is posted as soon as it is up, while the readers are still coming back; every reader
 * must have it (live, or from `commentsSince`), and be back within the target.
 */
async function reconnectStormSection() {
  console.log(
    `\n2. Reconnect storm (${STORM_READERS.toLocaleString('en')} readers as the widget is: the transport's socket and backoff, the stream's catch-up; the compiled server restarted, a comment posted while they come back)`,
  );
  const setup = await startLive({});
  const storyId = setup.storyIds[0]!;
  const readers = await openReaders({
    urls: [`${setup.servers[0]!.url.replace('http', 'ws')}/graphql`],
    storyIds: [storyId],
    count: STORM_READERS,
    perAddress: READERS_PER_ADDRESS,
    addressGroup: 3,
    mode: 'transport',
  });
  try {
    const warm = await post(setup, setup.servers[0]!, storyId, 0);
    const warmed = await arrivalsOf([readers], warm.id, warm.sentAt, STORM_READERS);
    if (warmed.delays.length < STORM_READERS) throw new Error('not every reader is following');
    const stoppedAt = performance.timeOrigin + performance.now();
    await setup.restart(0);
    const upAfter = performance.timeOrigin + performance.now() - stoppedAt;
    const gap = await post(setup, setup.servers[0]!, storyId, 1);
    const got = await arrivalsOf([readers], gap.id, gap.sentAt, STORM_READERS, 30_000);
    const back = got.reconnectedAt.map((at) => at - stoppedAt).sort((a, b) => a - b);
    const last = back.at(-1) ?? Number.NaN;
    const [server] = setup.usage();
    const missed = STORM_READERS - got.delays.length;
    const ok = back.length === STORM_READERS && last <= STORM_TARGET_MS && missed === 0;
    console.log(
      `   server stopped and up again in ${ms(upAfter)}; ${back.length.toLocaleString('en')} readers back, the last after ${ms(last)} (target: all within ${STORM_TARGET_MS / 1000} s)`,
    );
    const buckets = new Map<number, number>();
    for (const at of back)
      buckets.set(Math.floor(at / 1000), (buckets.get(Math.floor(at / 1000)) ?? 0) + 1);
    const widest = Math.max(...buckets.values());
    for (const [second, count] of [...buckets].sort((a, b) => a[0] - b[0])) {
      console.log(
        `     ${String(second).padStart(2)}–${String(second + 1).padEnd(2)} s ${'█'.repeat(Math.ceil((count / widest) * 40)).padEnd(40)} ${count}`,
      );
    }
    console.log(
      `   the comment posted in the gap: ${got.delays.length.toLocaleString('en')} of ${STORM_READERS.toLocaleString('en')} readers have it (target: all); server RSS after ${server!.rssMb.toFixed(0)} MB (target ≤ 300)  ${ok && server!.rssMb <= 300 ? 'ok' : 'MISSED'}`,
    );
    if (got.errors.length > 0)
      console.log(`     readers' errors: ${got.errors.slice(0, 3).join('; ')}`);
  } finally {
    await readers.close();
    await setup.close();
  }
}

/** Section 4: comments posted through one port in front of two processes. */
const ROUND_ROBIN_READERS = 200;
const ROUND_ROBIN_COMMENTS = 40;

/**
 * Two `parley start` processes on PostgreSQL + Redis behind a round-robin port: readers follow
 * live through it (so half are on each process), comments are posted through it (so half go to
 * each), and after each post a read through it (the other process, every second time) must
 * show it; then one writer's posts through it meet one limit, and the hourly sweep ran on one.
 */
async function severalInstancesSection() {
  console.log(
    `\n4. Several instances (two processes on PostgreSQL + Redis behind one round-robin port; ${ROUND_ROBIN_READERS} live readers, ${ROUND_ROBIN_COMMENTS} comments)`,
  );
  if (!process.env['DATABASE_URL'] || !process.env['REDIS_URL']) {
    console.log('   skipped (set DATABASE_URL and REDIS_URL)');
    return;
  }
  const database = await createTestDatabase('postgres');
  const setup = await startLive(
    { DATABASE_URL: database.url, REDIS_URL: process.env['REDIS_URL'] },
    { instances: 2 },
  );
  const port = await startRoundRobin(setup.servers.map((server) => server.port));
  const front = { ...setup.servers[0]!, url: port.url };
  const readers = await openReaders({
    urls: [`${port.url.replace('http', 'ws')}/graphql`],
    storyIds: [setup.storyIds[0]!],
    count: ROUND_ROBIN_READERS,
    perAddress: READERS_PER_ADDRESS,
    addressGroup: 2,
  });
  try {
    const storyUrl = `${SITE}/story-0`;
    const others = { ...setup, writers: setup.writers.slice(0, -1) };
    let unreadAfterPost = 0;
    let missingLive = 0;
    const delays: number[] = [];
    // What the readers saw go wrong, and which comments they missed: printed when any were.
    const liveErrors: string[] = [];
    let reconnects = 0;
    const missedComments: string[] = [];
    for (let n = 0; n < ROUND_ROBIN_COMMENTS; n++) {
      // Every writer but the last, who is kept for the limit below.
      const { id, sentAt } = await post(others, front, setup.storyIds[0]!, n);
      const page = await graphqlAt(
        port.url,
        `query ($url: String!) { story(url: $url) { comments(first: 5) { edges { node { id } } } } }`,
        { url: storyUrl },
        { origin: SITE },
      );
      const ids = (page.data?.story?.comments?.edges ?? []).map((edge: any) => edge.node.id);
      if (!ids.includes(id)) unreadAfterPost++;
      const got = await arrivalsOf([readers], id, sentAt, ROUND_ROBIN_READERS, 5_000);
      missingLive += ROUND_ROBIN_READERS - got.delays.length;
      if (got.delays.length < ROUND_ROBIN_READERS) {
        missedComments.push(`#${n}: ${ROUND_ROBIN_READERS - got.delays.length}`);
      }
      liveErrors.push(...got.errors);
      reconnects += got.reconnectedAt.length;
      delays.push(...got.delays);
    }
    const live = `   live: ${ROUND_ROBIN_READERS * ROUND_ROBIN_COMMENTS - missingLive} of ${ROUND_ROBIN_READERS * ROUND_ROBIN_COMMENTS} deliveries, p95 ${ms(percentile(delays, 95))}`;
    console.log(`${live} (target: all)  ${missingLive === 0 ? 'ok' : 'MISSED'}`);
    if (missingLive > 0) {
      // Seen once in a whole run (7,914 of 8,000), never in section 4 alone: what to look at.
      console.log(
        `     missed within 5 s, by comment: ${missedComments.join(', ')}; readers reconnected ${reconnects} times; errors: ${[...new Set(liveErrors)].slice(0, 5).join(' | ') || 'none'}`,
      );
    }
    console.log(
      `   read after post: ${ROUND_ROBIN_COMMENTS - unreadAfterPost} of ${ROUND_ROBIN_COMMENTS} posts in the next read through the port (target: all)  ${unreadAfterPost === 0 ? 'ok' : 'MISSED'}`,
    );
    // One writer, posting through the port until refused: one limit over both processes.
    const writer = { ...setup, writers: [setup.writers.at(-1)!] };
    let accepted = 0;
    for (let n = 0; n < RATE_LIMIT_POSTS + 5; n++) {
      const ok = await post(writer, front, setup.storyIds[0]!, 1000 + n).then(
        () => true,
        () => false,
      );
      if (!ok) break;
      accepted++;
    }
    console.log(
      `   one writer alternating processes: ${accepted} posts accepted before the limit (target: ${RATE_LIMIT_POSTS}, the one limit)  ${accepted === RATE_LIMIT_POSTS ? 'ok' : 'MISSED'}`,
    );
    const sweeps = await Promise.all(
      setup.servers.map(async (server) => {
        const text = await (await fetch(`${server.url}/metrics`)).text();
        return (
          /^parley_job_runs_total\{job="account_deletion",result="ok"\} (\d+)/m.exec(text)?.[1] ??
          '0'
        );
      }),
    );
    const oneRan = sweeps.filter((count) => count !== '0').length === 1;
    console.log(
      `   the hourly sweep at start: runs per process ${sweeps.join(' and ')} (target: on one)  ${oneRan ? 'ok' : 'MISSED'}`,
    );
  } finally {
    await readers.close();
    await port.close();
    await setup.close();
    await database.close();
  }
}
/** Posts a writer may make per minute (RATE_LIMITS.post). */
const RATE_LIMIT_POSTS = RATE_LIMITS.post.limit;

/** Section 5: writers posting at a steady rate, how many got through and how fast. */
const WRITERS = 200;
const WRITE_SECONDS = 10;
/**
 * The first seconds of the run, at a share of the rate, not counted: a server starting cold
 * compiles its code in the first second, and a sustained rate is about the server after that.
 * At the full rate, a cold start's backlog took longer than the window to work off at 500/s (the
 * server near its capacity): p99 5.6 s in the warm-up, 246 ms in the window. Any backlog the
 * warm-up leaves is still the window's (pacedPosts.ts).
 */
const WARM_UP_SECONDS = 4;
const WARM_UP_SHARE = 0.5;

/**
 * `WRITERS` signed-in users posting on one story at `rate` comments/s in all, spread evenly
 * (pacedPosts.ts), for `WRITE_SECONDS` after a warm-up, with moderation rules on (banned and
 * suspect words, links held, the report threshold); then every acknowledged comment is looked
 * for in storage, and storage is checked for comments nobody was told of.
 */
async function writeThroughput(name: string, env: Record<string, string>, rate: number) {
  const setup = await startLive(env, { rateLimitsRaised: true, writerCount: WRITERS });
  try {
    const server = setup.servers[0]!;
    const admin = setup.adminToken;
    const settings = await graphqlAt(
      server.url,
      `mutation ($input: UpdateSettingsInput!) { updateSettings(input: $input) { settings { premod } } }`,
      {
        input: {
          premod: 'LINKS',
          bannedWords: ['spamword', 'scamword'],
          suspectWords: ['suspicious'],
          reportThreshold: 3,
          // On, as by default; BENCH_SCALE_SPAM_FILTER=false measures what the filter costs.
          spamFilter: process.env['BENCH_SCALE_SPAM_FILTER'] !== 'false',
        },
      },
      { authorization: `Bearer ${admin}`, origin: SITE },
    );
    if (settings.errors) throw new Error(`settings: ${JSON.stringify(settings.errors)}`);
    const storyId = setup.storyIds[0]!;
    let cpuAtWindow = 0;
    const posted = await postAtRate({
      url: `${server.url}/graphql`,
      rate,
      warmUpSeconds: WARM_UP_SECONDS,
      warmUpRate: rate * WARM_UP_SHARE,
      seconds: WRITE_SECONDS,
      connections: WRITERS,
      request: (n) => {
        const key = `w${n}`;
        return {
          headers: writerHeaders(setup.writers[n % setup.writers.length]!),
          body: JSON.stringify({
            query: `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
            variables: {
              input: {
                storyId,
                body: `Comment ${key}: a thought on the story, and another.`,
                clientMutationId: key,
              },
            },
          }),
        };
      },
      idOf: (body) =>
        (JSON.parse(body) as { data?: { createComment?: { comment: { id: string } } } }).data
          ?.createComment?.comment.id,
      onWindow: () => (cpuAtWindow = setup.usage()[0]!.cpuMs),
    });
    // The server's CPU from the window's start to the answers' end, per comment of the window.
    const cpuPerComment = (setup.usage()[0]!.cpuMs - cpuAtWindow) / posted.windowAcknowledged;
    if (posted.firstRefusal) console.log(`   the first refusal: ${posted.firstRefusal}`);
    const stored = await countStored(setup, storyId);
    const lost = [...posted.acknowledged].filter((id) => !stored.ids.has(id)).length;
    const unannounced = stored.ids.size - posted.acknowledged.size;
    // Comments acknowledged over the time from the window's start to the last answer.
    const perSecond = posted.windowAcknowledged / (posted.windowMs / 1000);
    const p99 = percentile(posted.latencies, 99);
    const { refused, errors } = posted;
    const ok =
      perSecond >= rate * 0.98 &&
      p99 <= 100 &&
      lost === 0 &&
      unannounced === 0 &&
      stored.duplicates === 0 &&
      refused === 0 &&
      errors === 0;
    console.log(
      `   ${name.padEnd(11)} ${perSecond.toFixed(0).padStart(5)} comments/s of ${rate} asked (target ≥ ${rate})  p50 ${percentile(posted.latencies, 50).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (target ≤ 100)  lost ${lost}, duplicated ${stored.duplicates}, unannounced ${unannounced}, refused ${refused}, errors ${errors}  ${ok ? 'ok' : 'MISSED'}`,
    );
    console.log(
      `   ${''.padEnd(11)} (the first ${WARM_UP_SECONDS} s of the run, at ${rate * WARM_UP_SHARE}/s, not counted: p99 ${percentile(posted.warmUpLatencies, 99).toFixed(0)} ms; the sender was at most ${posted.senderLagMs.toFixed(0)} ms late; the Parley process's CPU per comment ${cpuPerComment.toFixed(2)} ms)`,
    );
  } finally {
    await setup.close();
  }
}

async function writeThroughputSection() {
  console.log(
    `\n5. Write throughput (${WRITERS} signed-in writers over at most ${WRITERS} connections, posting at a steady overall rate, one request every 1/rate s, for ${WARM_UP_SECONDS} s at half that rate, not counted, then ${WRITE_SECONDS} s measured; each timed from when it was due; banned and suspect words, links held, report threshold on)`,
  );
  // BENCH_SCALE_RATE=<n>: post at n/s instead of the target's rate (for profiling below capacity).
  const rateOr = (target: number) => Number(process.env['BENCH_SCALE_RATE'] ?? target);
  if (runs('5a')) await writeThroughput('SQLite', {}, rateOr(500));
  if (!runs('5b')) {
    // Left out by BENCH_SCALE_ONLY.
  } else if (process.env['DATABASE_URL']) {
    const database = await createTestDatabase('postgres');
    try {
      await writeThroughput('PostgreSQL', { DATABASE_URL: database.url }, rateOr(1_000));
    } finally {
      await database.close();
    }
  } else {
    console.log('   PostgreSQL: skipped (set DATABASE_URL)');
  }
}

/**
 * BENCH_SCALE_ONLY=1,3 (or 1a, 1b, 1c, 5a, 5b: a part of a section) runs only those; unset runs all.
 * For profiling one case; the figures of a note come from a whole run.
 */
const only = process.env['BENCH_SCALE_ONLY']?.split(',');
const runs = (section: string) =>
  only === undefined || only.some((name) => section === name || section.startsWith(name));

console.log('npm run bench:scale — the scale issue, section by section\n');
if (['1a', '1b', '1c'].some(runs)) await liveFanOutSection();
if (runs('2')) await reconnectStormSection();
if (runs('3')) await bigStories('SQLite', async () => ({ env: {}, close: async () => undefined }));
if (!runs('3')) {
  // BENCH_SCALE_ONLY left section 3 out.
} else if (process.env['DATABASE_URL']) {
  await bigStories('PostgreSQL', async () => {
    const database = await createTestDatabase('postgres');
    return { env: { DATABASE_URL: database.url }, close: () => database.close() };
  });
} else {
  console.log('\n3. Big stories on PostgreSQL: skipped (set DATABASE_URL).');
}
if (runs('4')) await severalInstancesSection();
if (['5a', '5b'].some(runs)) await writeThroughputSection();
