import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { highlightWords } from './highlightWords';

/** What {@link HeldReasons} reads of a comment (ModerationCard's fragment spreads it). */
export const HeldReasonsFields = graphql(`
  fragment HeldReasonsFields on Comment {
    bodySource heldBecause spamScore
    reports { id reason details reporter { id username } createdAt }
  }
`);

type HeldComment = ResultOf<typeof HeldReasonsFields>;

/** Why a comment is held (`HeldReason`). */
type HeldReason = NonNullable<HeldComment['heldBecause']>[number];

/** Why a reader reported a comment (`ReportReason`). */
type ReportReason = NonNullable<HeldComment['reports']>[number]['reason'];

const REASON_TEXT: Record<HeldReason, string> = {
  BANNED_WORD: 'Banned word',
  SUSPECT_WORD: 'Suspect word',
  LINK: 'Contains a link',
  NEW_COMMENTER: 'New commenter',
  PREMOD_USER: 'Author is pre-moderated',
  GUEST: 'Written by a guest',
  SPAM: 'Likely spam',
  PREMOD_ALL: 'All comments are pre-moderated',
  REPORTS: 'Reported by readers',
};

const REPORT_TEXT: Record<ReportReason, string> = {
  OFFENSIVE: 'Offensive',
  ABUSIVE: 'Abusive',
  SPAM: 'Spam',
  OTHER: 'Other',
};

/** The organization's word lists, to find which word held a comment. */
export interface WordLists {
  banned: readonly string[];
  suspect: readonly string[];
}

/** Why a comment is in the queue: held reasons, the matched words in context, the reports. */
export function HeldReasons({ comment, words }: { comment: HeldComment; words: WordLists }) {
  const reasons = comment.heldBecause ?? [];
  const reports = comment.reports ?? [];
  if (reasons.length === 0 && reports.length === 0) return null;
  const wordy = reasons.includes('BANNED_WORD') || reasons.includes('SUSPECT_WORD');
  const counts = new Map<ReportReason, number>();
  for (const report of reports) counts.set(report.reason, (counts.get(report.reason) ?? 0) + 1);
  return (
    <section className="mod-why" aria-label="Why it is here">
      {reasons.length > 0 && (
        <ul className="mod-reasons">
          {reasons.map((reason) => (
            <li key={reason} className={`reason-${reason.toLowerCase()}`}>
              {REASON_TEXT[reason]}
              {reason === 'SPAM' && comment.spamScore !== null && (
                <> (score {comment.spamScore.toFixed(2)})</>
              )}
            </li>
          ))}
        </ul>
      )}
      {wordy && comment.bodySource !== null && (
        <p className="mod-source">
          {highlightWords(comment.bodySource, words.banned, words.suspect).map((run, i) =>
            run.kind ? (
              <mark key={i} className={run.kind} title={`${run.kind} word`}>
                {run.text}
              </mark>
            ) : (
              <span key={i}>{run.text}</span>
            ),
          )}
        </p>
      )}
      {reports.length > 0 && (
        <div className="mod-reports">
          <p>
            {reports.length} {reports.length === 1 ? 'report' : 'reports'}:{' '}
            {[...counts].map(([reason, n]) => `${REPORT_TEXT[reason]} ×${n}`).join(', ')}
          </p>
          <ul>
            {reports
              .filter((r) => r.details)
              .map((r) => (
                <li key={r.id}>
                  “{r.details}” — {r.reporter?.username ?? 'a reader'} ({REPORT_TEXT[r.reason]})
                </li>
              ))}
          </ul>
        </div>
      )}
    </section>
  );
}
