/**
 * What Akismet said of comments (moderation/akismet.ts), kept to report a moderator's different
 * decision back to it with the address and browser it judged. Erased with the comment's text (an
 * edit, a deletion, an erased account) and `ipRetentionDays` after the check.
 */
import { daysBefore } from '../inTransaction';
import type { Db } from '../inTransaction';
import type { AkismetChecksTable } from '../schema';
import { commentIdsOf, isEmptyScope } from './commentScope';
import type { CommentScope } from './commentScope';

/** One check, as stored. */
export type AkismetCheck = AkismetChecksTable;

/** The check of a comment, if one is kept. */
export function findAkismetCheck(db: Db, commentId: string): Promise<AkismetCheck | undefined> {
  return db
    .selectFrom('akismet_checks')
    .selectAll()
    .where('comment_id', '=', commentId)
    .executeTakeFirst();
}

/** Forgets the checks of comments whose text is going: `commentIds`, or every one by `authorId`. */
export async function forgetAkismetChecks(trx: Db, which: CommentScope): Promise<void> {
  if (isEmptyScope(which)) return;
  await trx
    .deleteFrom('akismet_checks')
    .where('comment_id', 'in', commentIdsOf(trx, which))
    .execute();
}

/** Forgets the checks older than `retentionDays` (hourly housekeeping); returns how many. */
export async function forgetOldAkismetChecks(
  db: Db,
  now: Date,
  retentionDays: number,
): Promise<number> {
  const cutoff = daysBefore(now, retentionDays);
  const result = await db
    .deleteFrom('akismet_checks')
    .where('created_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Claims the report of a decision before it is sent: the check's verdict moves from `from` to
 * `to` only if it still says `from`, so of two processes (or a double click) one reports, and a
 * decision reversed since is reported again. Returns whether this caller won the claim.
 */
export async function claimAkismetReport(
  db: Db,
  commentId: string,
  from: AkismetCheck['verdict'],
  to: AkismetCheck['verdict'],
): Promise<boolean> {
  const result = await db
    .updateTable('akismet_checks')
    .set({ verdict: to })
    .where('comment_id', '=', commentId)
    .where('verdict', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
