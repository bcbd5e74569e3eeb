import type { Client } from '@urql/core';
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

/**
 * Follows `commentCreated` and `commentUpdated` of `storyId`, handing each to `dispatch`, and
 * skips the reader's own new comments (on screen already, from the composer's answer) — but
 * marks a held one of them posted when it arrives (approved). Returns the function that stops
 * following.
 */
export function followLiveComments(
  client: Client,
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
  return () => subscriptions.forEach((s) => s.unsubscribe());
}
