// `npm run bench:crash`: nothing acknowledged is lost to a crash, at size. The compiled server
// (`npm run build` first) takes a burst of 200 posts from 20 readers, each retrying with its
// idempotency key as the transport does; it is killed (SIGKILL) once a third are acknowledged,
// and started again. Counts what the readers were told against what is stored, on SQLite and, with
// DATABASE_URL (an admin URL: a database of its own is made), on PostgreSQL. Target: 0 lost,
// 0 doubled. The Jest test (crashRecovery.test.ts) is the small version of this.
import { randomBytes } from 'node:crypto';
import { createTestDatabase } from '../packages/server/src/db/testDatabases';
import type { DialectName } from '../packages/server/src/db/createDatabase';
import { freePort } from '../packages/server/src/runtime/testing/freePort';
import { installOverHttp } from '../packages/server/src/runtime/testing/installOverHttp';
import {
  checkPosts,
  createPostLog,
  graphqlAt,
  postUntilAcknowledged,
  retriedOutcomes,
  signInWriters,
  startParley,
} from '../packages/server/src/runtime/testing/postingClients';
import type { RunningParley } from '../packages/server/src/runtime/testing/postingClients';

const SITE = 'https://site.example';
const WRITERS = 20;
/** 20 × 10 = 200, the per-user limit (10 a minute) exactly: a post lost to the kill may cost one more. */
const POSTS_PER_WRITER = 10;
const KILL_AT = (WRITERS * POSTS_PER_WRITER) / 3;

async function run(dialect: DialectName): Promise<boolean> {
  const database = await createTestDatabase(dialect, { sqliteFile: true });
  let server: RunningParley | undefined;
  try {
    const env = {
      PATH: process.env['PATH'] ?? '',
      PARLEY_DATA_DIR: database.dataDir,
      DATABASE_URL: dialect === 'postgres' ? database.url : '',
      PARLEY_SECRET: randomBytes(32).toString('base64url'),
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
    };
    const port = await freePort();
    server = await startParley('parley', port, env);
    await installOverHttp(server.url, { site: SITE, password: 'correct horse' });
    const writers = await signInWriters(database.db, [server.url], WRITERS);
    const storyId = (await graphqlAt(server.url, `{ story(url: "${SITE}/crash") { id } }`)).data
      .story.id as string;
    const log = createPostLog();
    const started = Date.now();
    const posting = Promise.all(
      writers.map(async (writer) => {
        for (let i = 0; i < POSTS_PER_WRITER; i++) {
          await postUntilAcknowledged(() => [server!], writer, storyId, `w${writer.n}-p${i}`, log);
        }
      }),
    );
    while (log.acknowledged.size < KILL_AT) await new Promise((r) => setTimeout(r, 5));
    const inFlight = log.attempts.filter((a) => a.outcome === 'pending').length;
    server.child.kill('SIGKILL');
    await server.exited;
    const killed = Date.now();
    server = await startParley('parley again', port, env);
    const back = Date.now();
    await posting;
    const counts = await checkPosts(database.db, storyId, log);
    const ok =
      counts.lost === 0 && counts.duplicated === 0 && counts.stored === counts.acknowledged;
    console.log(
      `${dialect.padEnd(8)} ${counts.acknowledged} acknowledged, ${counts.stored} stored, ` +
        `${counts.lost} lost, ${counts.duplicated} doubled (target 0 and 0) — ${ok ? 'ok' : 'MISSED'}; ` +
        `killed with ${inFlight} posts in flight after ${killed - started} ms, back in ${back - killed} ms; ` +
        `${log.attempts.length} attempts, retried: ${JSON.stringify(retriedOutcomes(log))}`,
    );
    return ok;
  } finally {
    server?.child.kill('SIGKILL');
    await database.close();
  }
}

const dialects: DialectName[] = process.env['DATABASE_URL'] ? ['sqlite', 'postgres'] : ['sqlite'];
let allOk = true;
for (const dialect of dialects) allOk = (await run(dialect)) && allOk;
process.exitCode = allOk ? 0 : 1;
