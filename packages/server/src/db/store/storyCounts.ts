/**
 * How many comments each story has in each status, kept as counters (`story_comment_counts`):
 * count.js's numbers and the console's queue counts read a few rows instead of counting a
 * story's comments, so a story of 100,000 comments answers as fast as one of 100.
 *
 * Counted: comments not erased (`deleted_at` null), by status. Every write that adds a comment,
 * changes its status or erases it adjusts the counters in its own transaction (comments.ts,
 * accountDeletion.ts), as the reply counts are kept, as its last step (see adjustStoryCounts).
 *
 * One more counter per story, `REPORTED`: its comments in the console's Reported queue (see
 * {@link isInReportedQueue}), kept by the same writes and by the reports (reactions.ts). It was
 * counted before, and a story of 100,000 comments with 1,809 reported took 1.7 ms on PostgreSQL
 * to count them (a heap visit per comment) against a few rows read for the other queues.
 *
 * A rolling upgrade across 0014_big_stories or 0017_reported_counts: an instance of an older
 * version still running posts (and, across 0017, reports, edits and decides) without counting.
 * Stop the old instances before starting new ones (or run `parley migrate` with every instance
 * stopped), as for any migration that changes how rows are written.
 */
import { sql } from 'kysely';
import type { Db } from '../inTransaction';
import { HELD_COMMENT_STATUSES, isVisibleStatus } from '../schema';
import type { CommentStatus, HeldReason, StoryCommentCountsTable } from '../schema';

/** The counter of the comments in the console's Reported queue, next to the statuses'. */
export const REPORTED_COUNTER = 'REPORTED' satisfies StoryCommentCountsTable['status'];

/** What a story's counters count: comments by status, and those in the Reported queue. */
export type CountedKey = StoryCommentCountsTable['status'];

/** What decides whether a comment is in the Reported queue. */
export interface ReportedQueueFields {
  status: CommentStatus;
  reportCount: number;
  reviewedReportCount: number;
  heldBecause: readonly HeldReason[] | null;
  deletedAt: string | null;
}

/**
 * Whether a comment is in the console's Reported queue: published (approved too) with reports
 * no moderator has reviewed, or unreviewed with a suspect word. The same condition as the
 * queue's SQL (commentQueries.ts QUEUE_SQL.REPORTED, with `deleted_at` null) for what the
 * stores write; tests compare the two through every write (commentQueries.test.ts) and on the
 * upgrades fixture.
 */
export function isInReportedQueue(comment: ReportedQueueFields): boolean {
  if (comment.deletedAt !== null) return false;
  const unreviewed =
    isVisibleStatus(comment.status) && comment.reportCount > comment.reviewedReportCount;
  const suspect =
    comment.status === 'NONE' &&
    Array.isArray(comment.heldBecause) &&
    comment.heldBecause.includes('SUSPECT_WORD');
  return unreviewed || suspect;
}

/**
 * The console queue a comment waits in: PENDING (held), REPORTED ({@link isInReportedQueue}), or
 * null when it waits in none (decided, published without reports, deleted).
 */
export function waitingQueue(comment: ReportedQueueFields): 'PENDING' | 'REPORTED' | null {
  if (comment.deletedAt !== null) return null;
  if (HELD_COMMENT_STATUSES.includes(comment.status)) return 'PENDING';
  return isInReportedQueue(comment) ? 'REPORTED' : null;
}

/** The change to a story's Reported counter when a comment goes from `before` to `after`. */
export function reportedCountChange(
  storyId: string,
  before: ReportedQueueFields | undefined,
  after: ReportedQueueFields | undefined,
): StoryCountChange[] {
  const delta =
    (after && isInReportedQueue(after) ? 1 : 0) - (before && isInReportedQueue(before) ? 1 : 0);
  return delta === 0 ? [] : [{ storyId, status: REPORTED_COUNTER, delta }];
}

/** A change to one counter. */
export interface StoryCountChange {
  storyId: string;
  status: CountedKey;
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
): Promise<Map<string, Partial<Record<CountedKey, number>>>> {
  const counts = new Map<string, Partial<Record<CountedKey, number>>>();
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
): Promise<Partial<Record<CountedKey, number>>> {
  let q = db
    .selectFrom('story_comment_counts')
    .select(['story_comment_counts.status', sql<number | string>`sum(count)`.as('count')])
    .groupBy('story_comment_counts.status');
  if (siteId !== null) {
    q = q.where('story_comment_counts.story_id', 'in', (eb) =>
      eb.selectFrom('stories').select('stories.id').where('stories.site_id', '=', siteId),
    );
  }
  const counts: Partial<Record<CountedKey, number>> = {};
  for (const row of await q.execute()) counts[row.status] = Number(row.count);
  return counts;
}
