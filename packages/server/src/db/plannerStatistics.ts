/**
 * The query planners' statistics, kept fresh. With them, SQLite and PostgreSQL pick the small
 * partial indexes of 0014_big_stories (the Pending and Reported queues) over the wide ones: without
 * them SQLite counts a 100,000-comment story's Reported queue through the story's whole index
 * (49 ms instead of 1 ms, measured by bench:scale).
 *
 * Refreshed by the periodic sweep, which runs as the server starts and then hourly (never by a
 * start that is refused: that one must leave the database as it found it). SQLite:
 * `PRAGMA optimize=0x10002`, which analyzes the tables whose contents changed, within the
 * connection's `analysis_limit`. PostgreSQL: autovacuum analyzes on its own; the sweep also
 * analyzes the comment tables, which costs a sample, not a scan.
 */
import { PostgresAdapter, sql } from 'kysely';
import type { Db } from './inTransaction';

/** Refreshes what has gone stale (the periodic sweep; see the file comment). */
export async function refreshPlannerStatistics(db: Db): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`analyze comments, story_comment_counts`.execute(db);
  } else {
    await sql`pragma optimize = 0x10002`.execute(db);
  }
}
