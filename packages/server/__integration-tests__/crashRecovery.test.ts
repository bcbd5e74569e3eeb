import { randomBytes } from 'node:crypto';
import { createTestDatabase, testDialects } from '../src/db/testDatabases';
import type { TestDatabase } from '../src/db/testDatabases';
import { freePort } from '../src/runtime/testing/freePort';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';
import {
  checkPosts,
  createPostLog,
  graphqlAt,
  postUntilAcknowledged,
  retriedOutcomes,
  signInWriters,
  startParley,
} from '../src/runtime/testing/postingClients';
import type { RunningParley } from '../src/runtime/testing/postingClients';

// Nothing acknowledged is lost to a crash: the compiled server is killed (SIGKILL: no shutdown
// at all) in the middle of a burst of posts from several readers, each retrying with its
// idempotency key as the transport does, and started again. Every post a reader was told was
// stored is there exactly once, and every retried one too. SQLite runs in WAL mode with
// `synchronous = FULL` (db/createDatabase.ts): a commit has reached the disk before it returns.
// `bench/crash.bench.ts` is the 200-post version.

const SITE = 'https://site.example';
const WRITERS = 10;
/** Each writer's posts: under the per-user limit (10 a minute) with room for lost attempts. */
const POSTS_PER_WRITER = 5;

jest.setTimeout(90_000);

describe.each(testDialects())('a killed server on %s', (dialect) => {
  let database: TestDatabase;
  let server: RunningParley | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, { sqliteFile: true });
    // The server opens the database itself: the test's own connection only looks.
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await database?.close();
  });

  it('keeps every acknowledged post, once', async () => {
    const env = {
      PATH: process.env['PATH'] ?? '',
      PARLEY_DATA_DIR: database.dataDir,
      ...(dialect === 'postgres' ? { DATABASE_URL: database.url } : {}),
      PARLEY_SECRET: randomBytes(32).toString('base64url'),
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
    };
    const port = await freePort();
    server = await startParley('parley', port, env);
    await installOverHttp(server.url, { site: SITE, password: 'correct horse' });
    const writers = await signInWriters(database.db, [server.url], WRITERS);
    const story = await graphqlAt(server.url, `{ story(url: "${SITE}/crash") { id } }`);
    const storyId = story.data.story.id as string;

    // The burst: every writer posts as fast as it is answered.
    const log = createPostLog();
    const posting = Promise.all(
      writers.map(async (writer) => {
        for (let i = 0; i < POSTS_PER_WRITER; i++) {
          await postUntilAcknowledged(() => [server!], writer, storyId, `w${writer.n}-p${i}`, log);
        }
      }),
    );
    await until(() => log.acknowledged.size >= 15);
    const killedAt = log.attempts.length;
    server.child.kill('SIGKILL');
    expect(await server.exited).toBeNull(); // killed, not stopped
    server = await startParley('parley again', port, env);
    await posting;

    const counts = await checkPosts(database.db, storyId, log);
    expect(counts).toEqual({
      acknowledged: WRITERS * POSTS_PER_WRITER,
      stored: WRITERS * POSTS_PER_WRITER,
      lost: 0,
      duplicated: 0,
    });
    // The kill met posts in flight (else it proved nothing): some had to be sent again.
    const retried = log.attempts.slice(killedAt).filter((a) => a.outcome !== 'ok');
    expect(retried.length).toBeGreaterThan(0);
    console.log(
      `${dialect}: killed after ${killedAt} attempts; ${counts.stored} posts stored of ` +
        `${counts.acknowledged} acknowledged, ${counts.lost} lost, ${counts.duplicated} doubled; ` +
        `retried: ${JSON.stringify(retriedOutcomes(log))}`,
    );
  });
});

/** Waits until `check()` holds, polling; fails after `ms`. */
async function until(check: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${check.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
