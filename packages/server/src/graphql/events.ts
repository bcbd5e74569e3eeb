import type { Comment } from '../db/store/comments';
import type { ParleyContext } from './context';

/**
 * Live-update events. Payloads carry ids only (they may cross Redis as JSON); subscribers load
 * the comment fresh, so each reader sees it with their own permissions.
 */

/** A published comment appeared (top-level or reply). */
export function publishCommentCreated(ctx: ParleyContext, comment: Comment): void {
  ctx.pubsub.publish('commentCreated', comment.storyId, {
    commentId: comment.id,
    storyId: comment.storyId,
  });
}

/** A comment changed: edit, reaction count, status, tags. */
export function publishCommentUpdated(ctx: ParleyContext, comment: Comment): void {
  ctx.pubsub.publish('commentUpdated', comment.storyId, {
    commentId: comment.id,
    storyId: comment.storyId,
  });
}

/** A comment entered or left a moderation queue. */
export async function publishQueueUpdated(ctx: ParleyContext, comment: Comment): Promise<void> {
  const story = await ctx.loaders.story.load(comment.storyId);
  if (story)
    ctx.pubsub.publish('moderationQueueUpdated', { commentId: comment.id, siteId: story.siteId });
}
