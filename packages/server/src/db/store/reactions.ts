/**
 * Reactions and reports: one per user per comment, each keeping its comment's counter exact.
 * The insert or delete and the counter change share a transaction, and the counter moves only
 * when a row was really added or removed — so repeated or concurrent clicks cannot drift it.
 */
import type { Selectable } from 'kysely';
import { inTransaction, isoTime, newId } from '../inTransaction';
import type { Db } from '../inTransaction';
import type { ReportReason, ReportsTable } from '../schema';

async function bump(
  trx: Db,
  commentId: string,
  column: 'reaction_count' | 'report_count',
  delta: 1 | -1,
): Promise<number> {
  const row = await trx
    .updateTable('comments')
    .set((eb) => ({ [column]: eb(column, '+', delta) }))
    .where('id', '=', commentId)
    .returning(column)
    .executeTakeFirstOrThrow();
  return row[column];
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
    return { reactionCount: await bump(trx, commentId, 'reaction_count', 1), changed: true };
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
    return { reactionCount: await bump(trx, commentId, 'reaction_count', -1), changed: true };
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
}

/**
 * Files a report, once per user per comment (a second one is ignored, `created: false`); returns
 * the comment's report count, for the caller's report-threshold check.
 */
export function addReport(
  db: Db,
  input: ReportInput,
): Promise<{ reportCount: number; created: boolean }> {
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
      })
      .onConflict((oc) => oc.columns(['comment_id', 'user_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted === undefined) {
      return {
        reportCount: await currentCount(trx, input.commentId, 'report_count'),
        created: false,
      };
    }
    return { reportCount: await bump(trx, input.commentId, 'report_count', 1), created: true };
  });
}

/** A comment's reports, oldest first (for moderators). */
export function listReports(db: Db, commentId: string): Promise<Selectable<ReportsTable>[]> {
  return db
    .selectFrom('reports')
    .selectAll()
    .where('comment_id', '=', commentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
