import type { Client } from '@urql/core';
import type { Transport } from '@parley/transport';
import type { LiveEvent } from './applyLiveEvent';
import type { ThreadStore } from './createThreadStore';
import { graphql } from '@parley/transport/graphql';
import { CommentFields } from './CommentView';
import type { CommentData } from './CommentView';

// A chunk of its own: useLiveComments imports it once the thread has rendered, so subscribing
// costs nothing before the first paint (and nothing at all where live updates are off).

/** Live: comments published on the story (replies included). */
export const COMMENT_CREATED_SUBSCRIPTION = graphql(
  `subscription commentCreated($storyId:ID!){commentCreated(storyId:$storyId){...CommentFields}}`,
  [CommentFields],
);

/** Live: edits, reaction counts and status changes of the story's comments. */
export const COMMENT_UPDATED_SUBSCRIPTION = graphql(
  `subscription commentUpdated($storyId:ID!){commentUpdated(storyId:$storyId){...CommentFields}}`,
  [CommentFields],
);

/** Comments published since a time of the server's clock (what a dropped socket missed). */
export const COMMENTS_SINCE_QUERY = graphql(
  `query CommentsSince($storyId:ID!,$since:DateTime!){commentsSince(storyId:$storyId,since:$since){...CommentFields}}`,
  [CommentFields],
);

/**
 * How far before the last word heard from the server the catch-up starts: the clock estimate is
 * off by one trip, and an event may have been on its way when the link dropped. What arrives
 * twice is shown once.
 */
export const CATCH_UP_MARGIN_MS = 5_000;
/** How long after reconnecting the catch-up is asked: the subscriptions are running again by then. */
export const CATCH_UP_DELAY_MS = 1_000;
/** How long after a catch-up that failed (no answer) it is asked again, while connected. */
export const CATCH_UP_RETRY_MS = 10_000;

/**
 * Follows `commentCreated` and `commentUpdated` of `storyId`, handing each to `dispatch`, and
 * skips the reader's own new comments (on screen already, from the composer's answer) — but
 * marks a held one of them posted when it arrives (approved). When the socket comes back after a
 * drop, the comments published meanwhile are fetched and handed over as if they had come live.
 * Returns the function that stops following.
 */
export function followLiveComments(
  client: Client,
  transport: Pick<Transport, 'onStatusChange' | 'lastHeard'>,
  thread: ThreadStore,
  storyId: string,
  dispatch: (event: LiveEvent) => void,
): () => void {
  const receive = (type: 'created' | 'updated', comment: CommentData | undefined) => {
    if (!comment) return;
    const own =
      type === 'created' ? thread.list().find((l) => l.comment?.id === comment.id) : undefined;
    if (own) {
      // Held for review, now approved: published, as if it had been posted so (the note
      // "will appear after review" would otherwise stay until a reload).
      if (own.state === 'held') thread.upsert({ ...own, state: 'posted', comment });
      return;
    }
    dispatch({ type, comment });
  };
  const subscriptions = [
    client
      .subscription(COMMENT_CREATED_SUBSCRIPTION, { storyId })
      .subscribe(({ data }) => receive('created', data?.commentCreated)),
    client
      .subscription(COMMENT_UPDATED_SUBSCRIPTION, { storyId })
      .subscribe(({ data }) => receive('updated', data?.commentUpdated)),
  ];
  // From when (the server's time of the last word heard before a drop) comments may have been
  // missed: the earliest of the drops not caught up yet (the link may flap before an answer
  // comes), kept until a catch-up answers.
  let missedFrom: number | undefined;
  let catchUp: ReturnType<typeof setTimeout> | undefined;
  const ask = () => {
    const from = missedFrom;
    if (from === undefined) return;
    const since = new Date(from - CATCH_UP_MARGIN_MS).toISOString();
    void client
      .query(COMMENTS_SINCE_QUERY, { storyId, since }, { requestPolicy: 'network-only' })
      .toPromise()
      .then(({ data }) => {
        if (!data) {
          catchUp = setTimeout(ask, CATCH_UP_RETRY_MS);
          return;
        }
        if (missedFrom === from) missedFrom = undefined;
        data.commentsSince.forEach((c) => receive('created', c));
      });
  };
  const stopWatching = transport.onStatusChange((status) => {
    clearTimeout(catchUp);
    if (status !== 'connected') {
      const heard = transport.lastHeard();
      if (heard !== undefined) missedFrom = Math.min(missedFrom ?? heard, heard);
      return;
    }
    if (missedFrom !== undefined) catchUp = setTimeout(ask, CATCH_UP_DELAY_MS);
  });
  return () => {
    stopWatching();
    clearTimeout(catchUp);
    subscriptions.forEach((s) => s.unsubscribe());
  };
}
