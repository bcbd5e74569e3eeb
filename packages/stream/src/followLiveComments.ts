import type { Client } from '@urql/core';
import type { LiveEvent } from './applyLiveEvent';
import type { ThreadStore } from './createThreadStore';
import { COMMENT_FIELDS } from './fragments';
import type { CommentData } from './types';

// A chunk of its own: useLiveComments imports it once the thread has rendered, so subscribing
// costs nothing before the first paint (and nothing at all where live updates are off).

const live = (field: string) =>
  `subscription ${field}($storyId:ID!){${field}(storyId:$storyId){${COMMENT_FIELDS}}}`;

/** Live: comments published on the story (replies included). */
export const COMMENT_CREATED_SUBSCRIPTION = live('commentCreated');

/** Live: edits, reaction counts and status changes of the story's comments. */
export const COMMENT_UPDATED_SUBSCRIPTION = live('commentUpdated');

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
  const follow = (query: string, field: string, type: 'created' | 'updated') =>
    client
      .subscription<Record<string, CommentData | undefined>>(query, { storyId })
      .subscribe(({ data }) => {
        const comment = data?.[field];
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
      });
  const subscriptions = [
    follow(COMMENT_CREATED_SUBSCRIPTION, 'commentCreated', 'created'),
    follow(COMMENT_UPDATED_SUBSCRIPTION, 'commentUpdated', 'updated'),
  ];
  return () => subscriptions.forEach((s) => s.unsubscribe());
}
