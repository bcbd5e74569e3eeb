/** A comment's moderation status (DESIGN.md "Comment"). */
export type CommentStatus = 'NONE' | 'APPROVED' | 'REJECTED' | 'PREMOD' | 'SYSTEM_WITHHELD';

/**
 * The status a comment takes after a report brings its reports' weight to `reportWeight` (in
 * reports: the sum of each report's weight, see reportWeight.ts; a trusted reporter's report is 1).
 *
 * Only a published, unmoderated comment (`NONE`) is withheld (`SYSTEM_WITHHELD`) once
 * `reportWeight >= threshold`. An `APPROVED` comment keeps its status: a moderator has already read
 * it and decided, and letting a handful of reports undo that decision would hand the thread to
 * whoever organises a pile-on; its reports still put it in the REPORTED queue for a second look.
 * `PREMOD`, `REJECTED` and `SYSTEM_WITHHELD` comments are not visible, so reports change nothing.
 * A threshold below 1 turns automatic withholding off (a threshold of 0 would otherwise withhold
 * every comment before anyone reported it).
 */
export function statusAfterReport(
  status: CommentStatus,
  reportWeight: number,
  threshold: number,
): CommentStatus {
  if (status !== 'NONE' || threshold < 1) return status;
  return reportWeight >= threshold ? 'SYSTEM_WITHHELD' : status;
}
