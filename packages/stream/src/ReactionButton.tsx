import { useClient } from '@urql/preact';
import type { CombinedError } from '@urql/core';
import { useContext, useState } from 'preact/hooks';
import { ThreadContext } from './applyLiveEvent';
import { openAuthPopup } from './auth/openAuthPopup';
import { ErrorNote } from './ErrorNote';
import { useStreamData, useStreamEnv } from './StreamContext';
import { graphql } from '@parley/transport/graphql';
import type { VariablesOf } from '@parley/transport/graphql';
import type { CommentData } from './CommentView';

/** Casts, changes or takes back (null) the viewer's vote; a Like is an up vote. */
export const VOTE = graphql(
  `mutation Vote($input:VoteInput!){vote(input:$input){comment{id reactionCount downvoteCount viewerVote}}}`,
);

/** A vote as the API spells it; null for none. */
type Vote = VariablesOf<typeof VOTE>['input']['vote'];

/**
 * "Like" with the count, or — with the site's UP_DOWN voting — up and down buttons around the
 * score. Counts move at once (optimistic) and settle on the server's answer; a failure puts them
 * back and says why, next to the buttons.
 */
export function ReactionButton({ comment }: { comment: CommentData }) {
  const env = useStreamEnv();
  const { t } = env;
  const { viewer, settings } = useStreamData();
  const { dispatch } = useContext(ThreadContext);
  const client = useClient();
  // undefined: nothing in flight; null: taking the vote back.
  const [pending, setPending] = useState<Vote>();
  const [error, setError] = useState<CombinedError>();
  const was = comment.viewerVote ?? null;
  const vote = pending === undefined ? was : pending;
  // The optimistic counts are derived, so live counts that arrive meanwhile are not overwritten.
  const up = comment.reactionCount + +(vote === 'UP') - +(was === 'UP');
  const down = comment.downvoteCount + +(vote === 'DOWN') - +(was === 'DOWN');

  const cast = (choice: 'UP' | 'DOWN') => {
    if (!viewer || viewer.isGuest) return void openAuthPopup(env, 'signin');
    if (pending !== undefined) return;
    const next = vote === choice ? null : choice;
    setPending(next);
    setError(undefined);
    void client
      .mutation(VOTE, { input: { commentId: comment.id, vote: next } })
      .toPromise()
      .then(({ data, error: failed }) => {
        const answer = data?.vote.comment;
        if (answer) dispatch({ type: 'updated', comment: answer });
        else if (failed) setError(failed);
        setPending(undefined);
      });
  };

  return (
    <span class="parley-react">
      {settings.voting === 'UP_DOWN' ? (
        <>
          <button
            type="button"
            aria-pressed={vote === 'UP'}
            aria-label={t('thread.up')}
            onClick={() => cast('UP')}
          >
            ▲
          </button>
          <span>{up - down}</span>
          <button
            type="button"
            aria-pressed={vote === 'DOWN'}
            aria-label={t('thread.down')}
            onClick={() => cast('DOWN')}
          >
            ▼
          </button>
        </>
      ) : (
        <button type="button" aria-pressed={vote === 'UP'} onClick={() => cast('UP')}>
          {settings.reactionLabel || t(vote === 'UP' ? 'thread.liked' : 'thread.like')}{' '}
          <span>{up}</span>
        </button>
      )}
      {error && <ErrorNote error={error} />}
    </span>
  );
}
