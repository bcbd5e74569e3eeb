import { createTestDatabase, testDialects } from '../src/db/testDatabases';
import type { TestDatabase } from '../src/db/testDatabases';
import { crashDuringPosts, retriedOutcomes } from '../src/runtime/testing/postingClients';

// Nothing acknowledged is lost to a crash: the compiled server is killed (SIGKILL: no shutdown
// at all) in the middle of a burst of posts from several readers, each retrying with its
// idempotency key as the transport does, and started again. Every post a reader was told was
// stored is there exactly once, and every retried one too. SQLite runs in WAL mode with
// `synchronous = FULL` (db/createDatabase.ts): a commit has reached the disk before it returns.
// `bench/crash.bench.ts` is the 200-post version.

const WRITERS = 10;
/** Each writer's posts: under the per-user limit (10 a minute) with room for lost attempts. */
const POSTS_PER_WRITER = 5;

jest.setTimeout(90_000);

describe.each(testDialects())('a killed server on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    // A file on SQLite: the server opens it itself; this connection only looks.
    database = await createTestDatabase(dialect, { sqliteFile: true });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('keeps every acknowledged post, once', async () => {
    const report = await crashDuringPosts({
      database,
      dialect,
      writers: WRITERS,
      postsPerWriter: POSTS_PER_WRITER,
      killAfter: 15,
    });
    expect(report.exitCode).toBeNull(); // killed, not stopped
    expect(report.counts).toEqual({
      acknowledged: WRITERS * POSTS_PER_WRITER,
      stored: WRITERS * POSTS_PER_WRITER,
      lost: 0,
      duplicated: 0,
    });
    // The kill met posts in flight (else it proved nothing): some had to be sent again.
    const retried = report.log.attempts
      .slice(report.attemptsBeforeKill)
      .filter((a) => a.outcome !== 'ok');
    expect(retried.length).toBeGreaterThan(0);
    console.log(
      `${dialect}: killed with ${report.inFlight} posts in flight; ${report.counts.stored} ` +
        `stored of ${report.counts.acknowledged} acknowledged, ${report.counts.lost} lost, ` +
        `${report.counts.duplicated} doubled; retried: ${JSON.stringify(retriedOutcomes(report.log))}`,
    );
  });
});
