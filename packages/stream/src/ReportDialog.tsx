import { useClient } from '@urql/preact';
import type { CombinedError } from '@urql/core';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNote } from './ErrorNote';
import { useStreamEnv } from './StreamContext';
import type { MessagesPart } from './messages';
import { messages as en } from './messages/en/report';
import { REPORT_DETAILS_MAX_LENGTH } from '@parley/contract';
import { graphql } from '@parley/transport/graphql';
import type { VariablesOf } from '@parley/transport/graphql';
import type { CommentData } from './CommentView';

/** The report form's text, added to the catalog before the form opens (CommentView). */
export const messages: MessagesPart<keyof typeof en> = en;

// A separate chunk: most readers never report anything (CommentView imports it on first use).

/** Reports a comment to the moderators. */
export const REPORT_COMMENT_MUTATION = graphql(
  `mutation ReportComment($input:ReportCommentInput!){reportComment(input:$input){comment{id}}}`,
);

/** Why a reader reports a comment. */
export type ReportReason = VariablesOf<typeof REPORT_COMMENT_MUTATION>['input']['reason'];

/** The reasons, in the order the form offers them. */
export const REPORT_REASONS: readonly ReportReason[] = ['OFFENSIVE', 'ABUSIVE', 'SPAM', 'OTHER'];

/** The report form under a comment: a reason, optional details, send or cancel. */
export function ReportDialog({ comment, onClose }: { comment: CommentData; onClose(): void }) {
  const { t } = useStreamEnv();
  const client = useClient();
  const [reason, setReason] = useState<ReportReason>();
  const [details, setDetails] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<CombinedError>();
  const form = useRef<HTMLFormElement>(null);
  // Keyboard users land in the form they opened.
  useEffect(() => form.current?.querySelector('input')?.focus(), []);

  const submit = (event: Event) => {
    event.preventDefault();
    if (!reason) return;
    setBusy(true);
    setError(undefined);
    void client
      .mutation(REPORT_COMMENT_MUTATION, {
        input: { commentId: comment.id, reason, details: details.trim() || null },
      })
      .toPromise()
      .then((result) => {
        setBusy(false);
        if (result.error) setError(result.error);
        else setSent(true);
      });
  };

  if (sent) {
    return (
      <p class="parley-report" role="status">
        {t('thread.report.sent')}{' '}
        <button type="button" onClick={onClose}>
          {t('thread.report.close')}
        </button>
      </p>
    );
  }
  return (
    <form
      ref={form}
      class="parley-report"
      aria-label={t('thread.report.title')}
      onSubmit={submit}
      onKeyDown={(event) => event.key === 'Escape' && onClose()}
    >
      <fieldset>
        <legend>{t('thread.report.title')}</legend>
        {REPORT_REASONS.map((value) => (
          <label key={value}>
            <input
              type="radio"
              name={`parley-report-${comment.id}`}
              value={value}
              checked={reason === value}
              onChange={() => setReason(value)}
            />{' '}
            {t(`thread.report.${value}`)}
          </label>
        ))}
      </fieldset>
      <label>
        {t('thread.report.details')}
        <textarea
          value={details}
          maxLength={REPORT_DETAILS_MAX_LENGTH}
          rows={3}
          onInput={(event) => setDetails(event.currentTarget.value)}
        />
      </label>
      <button type="submit" class="parley-primary" disabled={!reason || busy}>
        {t('thread.report.send')}
      </button>{' '}
      <button type="button" onClick={onClose}>
        {t('thread.report.cancel')}
      </button>
      {error && <ErrorNote error={error} />}
    </form>
  );
}
