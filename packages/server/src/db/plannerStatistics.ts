/**
 * The query planners' statistics, kept fresh. With them, SQLite and PostgreSQL pick the small
 * partial indexes of 0014_big_stories (the Pending and Reported queues) over the wide ones: without
 * them SQLite counts a 100,000-comment story's Reported queue through the story's whole index
 * (49 ms instead of 1 ms, measured by bench:scale).
 *
 * SQLite: `PRAGMA optimize=0x10002` as a connection opens (it analyzes what has changed, within
 * `analysis_limit`), then `PRAGMA optimize` at each periodic sweep, as SQLite's documentation
 * advises for long-lived connections. PostgreSQL: autovacuum analyzes on its own; the sweep also
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
