/**
 * Votes (a reaction, a Like, is an up vote) and reports: one per user per comment, each keeping
 * its comment's counters exact.
 * The insert or delete and the counter change share a transaction, and the counter moves only
 * when a row was really added or removed — so repeated or concurrent clicks cannot drift it.
 */
import type { Selectable } from 'kysely';
import { inTransaction, isoTime, newId } from '../inTransaction';
import type { Db } from '../inTransaction';
import type { ReportReason, ReportsTable } from '../schema';
import { deletedComment, toComment } from './comments';
import type { Comment } from './comments';
import { adjustStoryCounts, reportedCountChange } from './storyCounts';

async function countReport(trx: Db, commentId: string): Promise<Comment> {
  // A report arriving after its comment was deleted: refused, and the caller's transaction (its
  // new row) rolled back.
  const row = await trx
    .updateTable('comments')
    .set((eb) => ({ report_count: eb('report_count', '+', 1) }))
    .where('id', '=', commentId)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (row === undefined) throw deletedComment(commentId);
  return toComment(row);
}

async function currentCount(
  db: Db,
  commentId: string,
  column: 'reaction_count' | 'report_count',
): Promise<number> {
  const row = await db
    .selectFrom('comments')
    .select(column)
    .where('id', '=', commentId)
    .executeTakeFirstOrThrow();
  return row[column];
}

// z of a 95 % two-sided interval.
const Z = 1.959963984540054;

/**
 * The Best sort's key of a comment with `up` and `down` votes: the lower bound of the Wilson
 * score interval of its up-vote share (Evan Miller, "How Not To Sort By Average Rating"), × 10⁹
 * and rounded to a whole number (at least 1 once anyone voted it up). That bound is 0 for every
 * comment nobody voted up, so those rank by their down votes instead, below the rest: none is
 * 0, one down -1, and so on.
 */
export function bestRank(up: number, down: number): number {
  if (up <= 0) return down > 0 ? -down : 0;
  const n = up + down;
  const p = up / n;
  const z2 = Z * Z;
  const bound = (p + z2 / (2 * n) - Z * Math.sqrt((p * (1 - p) + z2 / (4 * n)) / n)) / (1 + z2 / n);
  return Math.max(1, Math.round(bound * 1e9));
}

/** A vote as stored: 1 up (a Like), -1 down, 0 none. */
export type VoteValue = 1 | -1 | 0;

/**
 * Moves a comment's vote counters by `up` and `down` and sets its Best rank from the new counts,
 * in the caller's transaction (the first update locks the row). A vote that adds to a deleted
 * comment is refused; taking one back stays possible.
 */
export async function moveVoteCounts(
  trx: Db,
  commentId: string,
  up: number,
  down: number,
): Promise<Comment> {
  let q = trx
    .updateTable('comments')
    .set((eb) => ({
      reaction_count: eb('reaction_count', '+', up),
      downvote_count: eb('downvote_count', '+', down),
    }))
    .where('id', '=', commentId);
  if (up > 0 || down > 0) q = q.where('deleted_at', 'is', null);
  const counted = await q.returning(['reaction_count', 'downvote_count']).executeTakeFirst();
  if (counted === undefined) throw deletedComment(commentId);
  const row = await trx
    .updateTable('comments')
    .set({ best_rank: bestRank(counted.reaction_count, counted.downvote_count) })
    .where('id', '=', commentId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toComment(row);
}

/**
 * Sets `userId`'s vote on a comment to `value` (idempotent): `changed` is false when it was so
 * already. Each step is one statement that says what it changed, so two concurrent clicks of one
 * reader cannot both count: a flip updates only a row holding the opposite vote, an insert does
 * nothing over an existing row, a delete returns what it removed.
 */
export function setVote(
  db: Db,
  commentId: string,
  userId: string,
  value: VoteValue,
): Promise<{ comment: Comment; changed: boolean }> {
  return inTransaction(db, async (trx) => {
    let previous: VoteValue = value;
    if (value === 0) {
      const deleted = await trx
        .deleteFrom('reactions')
        .where('comment_id', '=', commentId)
        .where('user_id', '=', userId)
        .returning('value')
        .executeTakeFirst();
      previous = deleted?.value ?? 0;
    } else {
      const flipped = await trx
        .updateTable('reactions')
        .set({ value, created_at: isoTime() })
        .where('comment_id', '=', commentId)
        .where('user_id', '=', userId)
        .where('value', '=', value === 1 ? -1 : 1)
        .returning('user_id')
        .executeTakeFirst();
      if (flipped !== undefined) previous = value === 1 ? -1 : 1;
      else {
        const inserted = await trx
          .insertInto('reactions')
          .values({ comment_id: commentId, user_id: userId, created_at: isoTime(), value })
          .onConflict((oc) => oc.columns(['comment_id', 'user_id']).doNothing())
          .returning('user_id')
          .executeTakeFirst();
        if (inserted !== undefined) previous = 0;
      }
    }
    if (previous === value) {
      const row = await trx
        .selectFrom('comments')
        .selectAll()
        .where('id', '=', commentId)
        .executeTakeFirstOrThrow();
      return { comment: toComment(row), changed: false };
    }
    const up = +(value === 1) - +(previous === 1);
    const down = +(value === -1) - +(previous === -1);
    return { comment: await moveVoteCounts(trx, commentId, up, down), changed: true };
  });
}

/** Adds `userId`'s Like, an up vote (idempotent); returns the comment's reaction count. */
export async function addReaction(
  db: Db,
  commentId: string,
  userId: string,
): Promise<{ reactionCount: number; changed: boolean }> {
  const { comment, changed } = await setVote(db, commentId, userId, 1);
  return { reactionCount: comment.reactionCount, changed };
}

/** Takes back `userId`'s vote, up or down (idempotent); returns the comment's reaction count. */
export async function removeReaction(
  db: Db,
  commentId: string,
  userId: string,
): Promise<{ reactionCount: number; changed: boolean }> {
  const { comment, changed } = await setVote(db, commentId, userId, 0);
  return { reactionCount: comment.reactionCount, changed };
}

/** `userId`'s votes on `commentIds` (for `viewerVote` and `viewerReacted`, batched). */
export async function votesOf(
  db: Db,
  userId: string,
  commentIds: readonly string[],
): Promise<Map<string, 1 | -1>> {
  if (commentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('reactions')
    .select(['comment_id', 'value'])
    .where('user_id', '=', userId)
    .where('comment_id', 'in', commentIds)
    .execute();
  return new Map(rows.map((r) => [r.comment_id, r.value]));
}

/** Which of `commentIds` `userId` liked (voted up). */
export async function reactedCommentIds(
  db: Db,
  userId: string,
  commentIds: readonly string[],
): Promise<Set<string>> {
  const votes = await votesOf(db, userId, commentIds);
  return new Set([...votes].filter(([, value]) => value === 1).map(([id]) => id));
}

/** A report to file. */
export interface ReportInput {
  commentId: string;
  userId: string;
  reason: ReportReason;
  details?: string | null;
  /**
   * How much it counts toward the automatic hold, in hundredths (moderation/reportWeight.ts).
   * @default 100 (one full report)
   */
  weight?: number;
}

/**
 * Files a report, once per user per comment (a second one is ignored, `created: false`); returns
 * the comment's report count and its reports' total weight (in reports), for the caller's
 * report-threshold check.
 */
export function addReport(
  db: Db,
  input: ReportInput,
): Promise<{ reportCount: number; reportWeight: number; created: boolean }> {
  return inTransaction(db, async (trx) => {
    const inserted = await trx
      .insertInto('reports')
      .values({
        id: newId(),
        comment_id: input.commentId,
        user_id: input.userId,
        reason: input.reason,
        details: input.details ?? null,
        created_at: isoTime(),
        weight: input.weight ?? 100,
      })
      .onConflict((oc) => oc.columns(['comment_id', 'user_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    const bumped = inserted === undefined ? undefined : await countReport(trx, input.commentId);
    const reportCount =
      bumped?.reportCount ?? (await currentCount(trx, input.commentId, 'report_count'));
    if (bumped !== undefined) {
      // The row is locked by the bump: before it, the same comment with one report fewer.
      await adjustStoryCounts(
        trx,
        reportedCountChange(
          bumped.storyId,
          { ...bumped, reportCount: bumped.reportCount - 1 },
          bumped,
        ),
      );
    }
    const { total } = await trx
      .selectFrom('reports')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('weight'), eb.lit(0)).as('total'))
      .where('comment_id', '=', input.commentId)
      .executeTakeFirstOrThrow();
    // PostgreSQL's SUM of integers is a bigint, which node-postgres hands over as a string.
    return { reportCount, reportWeight: Number(total) / 100, created: inserted !== undefined };
  });
}

/**
 * A reporter's record: how many of their past reports a moderator upheld (the comment is
 * rejected) and dismissed (approved, the moderator having seen every report so far).
 */
export async function reportRecord(
  db: Db,
  userId: string,
): Promise<{ upheld: number; dismissed: number }> {
  const row = await db
    .selectFrom('reports')
    .innerJoin('comments', 'comments.id', 'reports.comment_id')
    .select((eb) => [
      eb.fn
        .count<number | string>('reports.id')
        .filterWhere('comments.status', '=', 'REJECTED')
        .as('upheld'),
      eb.fn
        .count<number | string>('reports.id')
        .filterWhere((f) =>
          f.and([
            f('comments.status', '=', 'APPROVED'),
            f('comments.reviewed_report_count', '>=', f.ref('comments.report_count')),
          ]),
        )
        .as('dismissed'),
    ])
    .where('reports.user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { upheld: Number(row.upheld), dismissed: Number(row.dismissed) };
}

/** A report as stored. */
export type ReportRow = Selectable<ReportsTable>;

/** A comment's reports, oldest first (for moderators). */
export function listReports(db: Db, commentId: string): Promise<ReportRow[]> {
  return db
    .selectFrom('reports')
    .selectAll()
    .where('comment_id', '=', commentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
