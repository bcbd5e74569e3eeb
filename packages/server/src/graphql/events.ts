import type { Comment } from '../db/store/comments';
import { EVERY_READ } from '../readCache/createReadCache';
import type { ParleyContext } from './context';

/**
 * Drops the cached reads that show `comment`: its story's (the thread, its pages, the counts in
 * them), its own (a permalink) and its ancestors' (their reply pages). The mutation's answer
 * waits for it (useReadCache), so the change is in every next read when the mutation returns.
 */
function invalidateCommentReads(ctx: ParleyContext, comment: Comment): void {
  void ctx.readCache?.invalidate(
    (async () => {
      const entities = [
        { typename: 'Story', id: comment.storyId },
        { typename: 'Comment', id: comment.id },
      ];
      for (let parentId = comment.parentId; parentId !== null;) {
        entities.push({ typename: 'Comment', id: parentId });
        parentId = (await ctx.loaders.comment.load(parentId))?.parentId ?? null;
      }
      return entities;
    })(),
  );
}

/** Drops every cached read: the settings or the sites changed, which any view may reflect. */
export function invalidateEveryRead(ctx: Pick<ParleyContext, 'readCache'>): void {
  void ctx.readCache?.invalidate(EVERY_READ);
}

/**
 * The organization's row changed (settings, webhooks' events, the spam model): this process's
 * kept copy is dropped at once, so the caller's next request reads the change, and every other
 * process is told (runtime/organizationCache.ts). Call it once the change is committed.
 */
export function organizationChanged(
  ctx: Pick<ParleyContext, 'organizationCache' | 'pubsub'>,
): void {
  ctx.organizationCache?.invalidate();
  ctx.pubsub.publish('organizationChanged', {});
}

/**
 * Live-update events. Payloads carry ids only (they may cross Redis as JSON); subscribers load
 * the comment fresh, so each reader sees it with their own permissions.
 */

/** A published comment appeared (top-level or reply). */
export function publishCommentCreated(ctx: ParleyContext, comment: Comment): void {
  invalidateCommentReads(ctx, comment);
  ctx.pubsub.publish('commentCreated', comment.storyId, {
    commentId: comment.id,
    storyId: comment.storyId,
  });
}

/** A comment changed: edit, reaction count, status, tags. */
export function publishCommentUpdated(ctx: ParleyContext, comment: Comment): void {
  invalidateCommentReads(ctx, comment);
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
