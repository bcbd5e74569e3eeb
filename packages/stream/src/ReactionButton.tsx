import { useClient } from '@urql/preact';
import type { CombinedError } from '@urql/core';
import { useContext, useState } from 'preact/hooks';
import { ThreadContext } from './applyLiveEvent';
import { openAuthPopup } from './auth/openAuthPopup';
import { ErrorNote } from './ErrorNote';
import { useStreamData, useStreamEnv } from './StreamContext';
import { graphql } from '@parley/transport/graphql';
import type { CommentData } from './CommentView';

// Both answer as `reaction`, so one code path reads either.

/** Adds the viewer's reaction. */
export const CREATE_REACTION = graphql(
  `mutation createReaction($input:CommentIdInput!){reaction:createReaction(input:$input){comment{id reactionCount viewerReacted}}}`,
);

/** Takes back the viewer's reaction. */
export const REMOVE_REACTION = graphql(
  `mutation removeReaction($input:CommentIdInput!){reaction:removeReaction(input:$input){comment{id reactionCount viewerReacted}}}`,
);

/**
 * "Like" with the count. The count moves at once (optimistic) and settles on the server's answer;
 * a failure puts it back and says why, next to the button.
 */
export function ReactionButton({ comment }: { comment: CommentData }) {
  const env = useStreamEnv();
  const { t } = env;
  const { viewer, settings } = useStreamData();
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
    void client
      .mutation(next ? CREATE_REACTION : REMOVE_REACTION, { input: { commentId: comment.id } })
      .toPromise()
      .then(({ data, error: failed }) => {
        const answer = data?.reaction.comment;
        if (answer) dispatch({ type: 'updated', comment: answer });
        else if (failed) setError(failed);
        setPending(undefined);
      });
  };

  return (
    <span class="parley-react">
      <button type="button" aria-pressed={reacted} onClick={toggle}>
        {settings.reactionLabel || t(reacted ? 'thread.liked' : 'thread.like')} <span>{count}</span>
      </button>
      {error && <ErrorNote error={error} />}
    </span>
  );
}
