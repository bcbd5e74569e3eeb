// `npm run bench:crash`: nothing acknowledged is lost to a crash, at size. The compiled server
// (`npm run build` first) takes a burst of 200 posts from 20 readers, each retrying with its
// idempotency key as the transport does; it is killed (SIGKILL) once a third are acknowledged,
// and started again. Counts what the readers were told against what is stored, on SQLite and, with
// DATABASE_URL (an admin URL: a database of its own is made), on PostgreSQL. Target: 0 lost,
// 0 doubled. The Jest test (crashRecovery.test.ts) is the small version of this.
import { createTestDatabase } from '../packages/server/src/db/testDatabases';
import type { DialectName } from '../packages/server/src/db/createDatabase';
import {
  crashDuringPosts,
  retriedOutcomes,
} from '../packages/server/src/runtime/testing/postingClients';

const WRITERS = 20;
/** 20 × 10 = 200, the per-user limit (10 a minute) exactly: a post lost to the kill may cost one more. */
const POSTS_PER_WRITER = 10;

async function run(dialect: DialectName): Promise<boolean> {
  const database = await createTestDatabase(dialect, { sqliteFile: true });
  try {
    const report = await crashDuringPosts({
      database,
      dialect,
      writers: WRITERS,
      postsPerWriter: POSTS_PER_WRITER,
      killAfter: (WRITERS * POSTS_PER_WRITER) / 3,
    });
    const { counts } = report;
    const ok =
      counts.lost === 0 && counts.duplicated === 0 && counts.stored === counts.acknowledged;
    console.log(
      `${dialect.padEnd(8)} ${counts.acknowledged} acknowledged, ${counts.stored} stored, ` +
        `${counts.lost} lost, ${counts.duplicated} doubled (target 0 and 0) — ${ok ? 'ok' : 'MISSED'}; ` +
        `killed with ${report.inFlight} posts in flight after ${report.killedAfterMs} ms, back in ` +
        `${report.backAfterMs} ms; ${report.log.attempts.length} attempts, retried: ` +
        JSON.stringify(retriedOutcomes(report.log)),
    );
    return ok;
  } finally {
    await database.close();
  }
}

const dialects: DialectName[] = process.env['DATABASE_URL'] ? ['sqlite', 'postgres'] : ['sqlite'];
let allOk = true;
for (const dialect of dialects) allOk = (await run(dialect)) && allOk;
process.exitCode = allOk ? 0 : 1;
