import { useClient } from '@urql/preact';
import type { CombinedError } from '@urql/core';
import { useContext, useState } from 'preact/hooks';
import { ThreadContext } from './applyLiveEvent';
import { openAuthPopup } from './auth/openAuthPopup';
import { ErrorNote } from './ErrorNote';
import { useStreamData, useStreamEnv } from './StreamContext';
import type { CommentData } from './types';

/** Adds (`createReaction`) or takes back (`removeReaction`) the viewer's reaction. */
export const reactionMutation = (field: 'createReaction' | 'removeReaction') =>
  `mutation ${field}($input:CommentIdInput!){${field}(input:$input){comment{id reactionCount viewerReacted}}}`;

type ReactionResult = Record<string, { comment: Pick<CommentData, 'id'> } | undefined>;

/**
 * "Like" with the count. The count moves at once (optimistic) and settles on the server's answer;
 * a failure puts it back and says why, next to the button.
 */
export function ReactionButton({ comment }: { comment: CommentData }) {
  const env = useStreamEnv();
  const { t } = env;
  const { viewer } = useStreamData();
  const { dispatch } = useContext(ThreadContext);
  const client = useClient();
  const [pending, setPending] = useState<boolean>();
  const [error, setError] = useState<CombinedError>();
  const reacted = pending ?? comment.viewerReacted;
  // The optimistic count is derived, so a live count that arrives meanwhile is not overwritten.
  const count =
    comment.reactionCount + (pending === undefined ? 0 : +pending - +comment.viewerReacted);

  const toggle = () => {
    if (!viewer) return void openAuthPopup(env, 'signin');
    if (pending !== undefined) return;
    const next = !reacted;
    setPending(next);
    setError(undefined);
    const field = next ? 'createReaction' : 'removeReaction';
    void client
      .mutation<ReactionResult>(reactionMutation(field), {
        input: { commentId: comment.id },
      })
      .toPromise()
      .then(({ data, error: failed }) => {
        const answer = data?.[field]?.comment;
        if (answer) dispatch({ type: 'updated', comment: answer });
        else if (failed) setError(failed);
        setPending(undefined);
      });
  };

  return (
    <span class="parley-react">
      <button type="button" aria-pressed={reacted} onClick={toggle}>
        {t(reacted ? 'thread.liked' : 'thread.like')} <span>{count}</span>
      </button>
      {error && <ErrorNote error={error} />}
    </span>
  );
}
