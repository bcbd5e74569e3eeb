/**
 * Reactions and reports: one per user per comment, each keeping its comment's counter exact.
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

async function bump(
  trx: Db,
  commentId: string,
  column: 'reaction_count' | 'report_count',
  delta: 1 | -1,
): Promise<Comment> {
  let q = trx
    .updateTable('comments')
    .set((eb) => ({ [column]: eb(column, '+', delta) }))
    .where('id', '=', commentId);
  // A reaction or a report arriving after its comment was deleted: refused, and the caller's
  // transaction (its new row) rolled back. Taking one back stays possible.
  if (delta === 1) q = q.where('deleted_at', 'is', null);
  const row = await q.returningAll().executeTakeFirst();
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

/** Adds `userId`'s reaction (idempotent); returns the comment's reaction count. */
export function addReaction(
  db: Db,
  commentId: string,
  userId: string,
): Promise<{ reactionCount: number; changed: boolean }> {
  return inTransaction(db, async (trx) => {
    const inserted = await trx
      .insertInto('reactions')
      .values({ comment_id: commentId, user_id: userId, created_at: isoTime() })
      .onConflict((oc) => oc.columns(['comment_id', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (inserted === undefined) {
      return {
        reactionCount: await currentCount(trx, commentId, 'reaction_count'),
        changed: false,
      };
    }
    return {
      reactionCount: (await bump(trx, commentId, 'reaction_count', 1)).reactionCount,
      changed: true,
    };
  });
}

/** Removes `userId`'s reaction (idempotent); returns the comment's reaction count. */
export function removeReaction(
  db: Db,
  commentId: string,
  userId: string,
): Promise<{ reactionCount: number; changed: boolean }> {
  return inTransaction(db, async (trx) => {
    const deleted = await trx
      .deleteFrom('reactions')
      .where('comment_id', '=', commentId)
      .where('user_id', '=', userId)
      .returning('user_id')
      .executeTakeFirst();
    if (deleted === undefined) {
      return {
        reactionCount: await currentCount(trx, commentId, 'reaction_count'),
        changed: false,
      };
    }
    return {
      reactionCount: (await bump(trx, commentId, 'reaction_count', -1)).reactionCount,
      changed: true,
    };
  });
}

/** Which of `commentIds` `userId` reacted to (for `viewerReacted`, batched). */
export async function reactedCommentIds(
  db: Db,
  userId: string,
  commentIds: readonly string[],
): Promise<Set<string>> {
  if (commentIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('reactions')
    .select('comment_id')
    .where('user_id', '=', userId)
    .where('comment_id', 'in', commentIds)
    .execute();
  return new Set(rows.map((r) => r.comment_id));
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
    const bumped =
      inserted === undefined ? undefined : await bump(trx, input.commentId, 'report_count', 1);
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
