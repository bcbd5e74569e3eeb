import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useI18n } from '../../i18n';
import { highlightWords } from './highlightWords';

/** What {@link HeldReasons} reads of a comment (ModerationCard's fragment spreads it). */
export const HeldReasonsFields = graphql(`
  fragment HeldReasonsFields on Comment {
    bodySource heldBecause spamScore
    reports { id reason details reporter { id username } createdAt }
  }
`);

type HeldComment = ResultOf<typeof HeldReasonsFields>;

/** Why a reader reported a comment (`ReportReason`). */
type ReportReason = NonNullable<HeldComment['reports']>[number]['reason'];

// The text of each held reason is `console.moderate.why.reason.<HeldReason>`, of each report
// reason `console.moderate.why.report.<ReportReason>`: a value without its text fails to compile.

/** The organization's word lists, to find which word held a comment. */
export interface WordLists {
  banned: readonly string[];
  suspect: readonly string[];
}

/** Why a comment is in the queue: held reasons, the matched words in context, the reports. */
export function HeldReasons({ comment, words }: { comment: HeldComment; words: WordLists }) {
  const reasons = comment.heldBecause ?? [];
  const reports = comment.reports ?? [];
  const { locale, t } = useI18n();
  if (reasons.length === 0 && reports.length === 0) return null;
  const reportText = (reason: ReportReason) => t(`console.moderate.why.report.${reason}`);
  const wordy = reasons.includes('BANNED_WORD') || reasons.includes('SUSPECT_WORD');
  const counts = new Map<ReportReason, number>();
  for (const report of reports) counts.set(report.reason, (counts.get(report.reason) ?? 0) + 1);
  return (
    <section className="mod-why" aria-label={t('console.moderate.why.label')}>
      {reasons.length > 0 && (
        <ul className="mod-reasons">
          {reasons.map((reason) => (
            <li key={reason} className={`reason-${reason.toLowerCase()}`}>
              {reason === 'SPAM' && comment.spamScore !== null
                ? t('console.moderate.why.spamScore', {
                    score: new Intl.NumberFormat(locale, {
                      minimumFractionDigits: 2,
                      maximumFractionDigits: 2,
                    }).format(comment.spamScore),
                  })
                : t(`console.moderate.why.reason.${reason}`)}
            </li>
          ))}
        </ul>
      )}
      {wordy && comment.bodySource !== null && (
        <p className="mod-source">
          {highlightWords(comment.bodySource, words.banned, words.suspect).map((run, i) =>
            run.kind ? (
              <mark key={i} className={run.kind} title={t(`console.moderate.why.word.${run.kind}`)}>
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
            {t('console.moderate.why.reports', {
              count: reports.length,
              reasons: new Intl.ListFormat(locale, { type: 'unit', style: 'short' }).format(
                [...counts].map(([reason, n]) =>
                  t('console.moderate.why.reportCount', { reason: reportText(reason), n }),
                ),
              ),
            })}
          </p>
          <ul>
            {reports
              .filter((r) => r.details)
              .map((r) => (
                <li key={r.id}>
                  {t('console.moderate.why.reportDetails', {
                    details: r.details ?? '',
                    reporter: r.reporter?.username ?? t('console.moderate.why.aReader'),
                    reason: reportText(r.reason),
                  })}
                </li>
              ))}
          </ul>
        </div>
      )}
    </section>
  );
}
