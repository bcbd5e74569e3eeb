import { useClient } from '@urql/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { TransportError, toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { CommentFields } from './CommentView';
import type { CommentData } from './CommentView';
import { describeError } from './describeError';
import { useStreamEnv } from './StreamContext';
import type { MessagesPart } from './messages';
import { messages as en } from './messages/en/delete';

// A separate chunk: deleting is rare (CommentView imports it on first use).

/** The confirmation's text, added to the catalog before it opens (CommentView). */
export const messages: MessagesPart<keyof typeof en> = en;

/** Deletes the viewer's own comment. */
export const DELETE_COMMENT = graphql(
  `mutation DeleteComment($input:CommentIdInput!){deleteComment(input:$input){comment{...CommentFields}}}`,
  [CommentFields],
);

/** Props of {@link DeleteConfirm}. */
export interface DeleteConfirmProps {
  /** The viewer's own comment. */
  comment: CommentData;
  /** Called with the server's copy once deleted, with nothing when the reader keeps it. */
  onDone(deleted?: CommentData): void;
}

/**
 * "Delete your comment?" under the comment, inline (a frame's `confirm()` is blocked or ugly),
 * saying what deleting does. The comment stays on screen until the server has deleted it; a
 * refusal (rate limit, network) is shown here and nothing changes.
 */
export function DeleteConfirm({ comment, onDone }: DeleteConfirmProps) {
  const env = useStreamEnv();
  const { t } = env;
  const client = useClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<TransportError>();
  const keep = useRef<HTMLButtonElement>(null);
  // Keyboard users land on the safe choice.
  useEffect(() => keep.current?.focus(), []);

  const confirm = () => {
    setBusy(true);
    setError(undefined);
    void client
      .mutation(DELETE_COMMENT, { input: { commentId: comment.id } })
      .toPromise()
      .then((result) => {
        setBusy(false);
        const deleted = result.data?.deleteComment?.comment;
        if (!deleted) {
          return setError(
            result.error
              ? toTransportError(result.error)
              : new TransportError('BAD_RESPONSE', 'deleteComment answered without a comment'),
          );
        }
        env.bridge.send('event', { name: 'commentDeleted', data: { commentId: deleted.id } });
        onDone(deleted);
      });
  };

  return (
    <div
      class="parley-report"
      role="group"
      aria-labelledby={`parley-delete-${comment.id}`}
      onKeyDown={(event) => event.key === 'Escape' && !busy && onDone()}
    >
      <p id={`parley-delete-${comment.id}`}>
        <strong>{t('thread.delete.title')}</strong> {t('thread.delete.explain')}
      </p>
      <div class="parley-composer-foot">
        {/* Both wait for the answer: "Keep it" must not close what is being deleted. */}
        <button type="button" ref={keep} disabled={busy} onClick={() => onDone()}>
          {t('thread.delete.cancel')}
        </button>
        <button type="button" class="parley-primary" disabled={busy} onClick={confirm}>
          {t('thread.delete.confirm')}
        </button>
      </div>
      {error && (
        <span class="parley-error" role="alert">
          {describeError(env, error)}
        </span>
      )}
    </div>
  );
}
