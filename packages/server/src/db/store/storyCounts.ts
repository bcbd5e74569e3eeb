/**
 * How many comments each story has in each status, kept as counters (`story_comment_counts`):
 * count.js's numbers and the console's queue counts read a few rows instead of counting a
 * story's comments, so a story of 100,000 comments answers as fast as one of 100.
 *
 * Counted: comments not erased (`deleted_at` null), by status. Every write that adds a comment,
 * changes its status or erases it adjusts the counters in its own transaction (comments.ts,
 * accountDeletion.ts), as the reply counts are kept, as its last step (see adjustStoryCounts).
 *
 * A rolling upgrade across 0014_big_stories: an instance of an older version still running posts
 * without counting. Stop the old instances before starting new ones (or run `parley migrate`
 * with every instance stopped), as for any migration that changes how rows are written.
 */
import { sql } from 'kysely';
import type { Db } from '../inTransaction';
import type { CommentStatus } from '../schema';

/** A change to one counter. */
export interface StoryCountChange {
  storyId: string;
  status: CommentStatus;
  delta: number;
}

/**
 * Applies counter changes in the caller's transaction: summed per counter, then in one fixed
 * order (story, then status), after every other row the caller locks. On PostgreSQL each upsert
 * holds its counter row until commit; writers that all take their counters last and in the same
 * order cannot deadlock (two decisions crossing APPROVED→REJECTED and REJECTED→APPROVED would,
 * taking them in their own order).
 */
export async function adjustStoryCounts(
  trx: Db,
  changes: readonly StoryCountChange[],
): Promise<void> {
  const summed = new Map<string, StoryCountChange>();
  for (const change of changes) {
    const key = `${change.storyId}\u0000${change.status}`;
    const entry = summed.get(key);
    summed.set(key, { ...change, delta: (entry?.delta ?? 0) + change.delta });
  }
  const ordered = [...summed.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [, { storyId, status, delta }] of ordered) {
    if (delta === 0) continue;
    await trx
      .insertInto('story_comment_counts')
      .values({ story_id: storyId, status, count: delta })
      .onConflict((oc) =>
        oc
          .columns(['story_id', 'status'])
          .doUpdateSet({ count: sql<number>`story_comment_counts.count + ${delta}` }),
      )
      .execute();
  }
}

/** Counts by status of each of `storyIds` (a story without comments: no entry). */
export async function storyStatusCounts(
  db: Db,
  storyIds: readonly string[],
): Promise<Map<string, Partial<Record<CommentStatus, number>>>> {
  const counts = new Map<string, Partial<Record<CommentStatus, number>>>();
  if (storyIds.length === 0) return counts;
  const rows = await db
    .selectFrom('story_comment_counts')
    .select(['story_id', 'status', 'count'])
    .where('story_id', 'in', storyIds)
    .execute();
  for (const row of rows) {
    const story = counts.get(row.story_id) ?? {};
    story[row.status] = Number(row.count);
    counts.set(row.story_id, story);
  }
  return counts;
}

/** Counts by status over every story, or a site's (the console's queue counts without a story). */
export async function statusCounts(
  db: Db,
  siteId: string | null,
): Promise<Partial<Record<CommentStatus, number>>> {
  let q = db
    .selectFrom('story_comment_counts')
    .select(['story_comment_counts.status', sql<number | string>`sum(count)`.as('count')])
    .groupBy('story_comment_counts.status');
  if (siteId !== null) {
    q = q.where('story_comment_counts.story_id', 'in', (eb) =>
      eb.selectFrom('stories').select('stories.id').where('stories.site_id', '=', siteId),
    );
  }
  const counts: Partial<Record<CommentStatus, number>> = {};
  for (const row of await q.execute()) counts[row.status] = Number(row.count);
  return counts;
}
