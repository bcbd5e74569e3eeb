/**
 * Moderators' decisions on one comment: approve, reject, feature, unfeature.
 *
 * Every status change goes through `setCommentStatus`, which records the decision (who, when) and
 * keeps the parent's reply count right in the same transaction; then two events go out: readers
 * of the story get `commentUpdated` (a rejected comment leaves their thread), moderators get
 * `moderationQueueUpdated` (it left a queue, counts changed).
 */
import {
  deletedComment,
  isVisibleStatus,
  pinComment,
  requireComment,
  unpinComment,
  setCommentStatus,
  setCommentTags,
  teachSpamDecision,
} from '../../../db/store/comments';
import type { Comment } from '../../../db/store/comments';
import type { CommentStatus, CommentTag } from '../../../db/schema';
import { foldSpamLessonsSoon } from '../../../db/store/spamModel';
import { claimAkismetReport, findAkismetCheck } from '../../../db/store/akismetChecks';
import { akismetComment } from '../../../moderation/akismet';
import type { ParleyContext } from '../../context';
import {
  organizationChanged,
  publishCommentCreated,
  publishCommentUpdated,
  publishQueueUpdated,
} from '../../events';
import { actorData, commentData, emitWebhookEvent } from '../../webhookEvents';
import { requireRole } from '../../permissions';
import { ParleyError } from '../../../ParleyError';
import { releaseImagesOfComment } from '../../../db/store/commentImages';
import { removeImageFiles } from '../../../uploads/commentImages';
import { inBackground, notifyFeatured, notifyReply } from '../notifications';
import type { RejectionReason, Resolvers } from '../resolverTypes.generated';
import { isRemoved } from '../types';

/** The tag that puts a comment in the story's featured tab. */
const FEATURED: CommentTag = 'FEATURED';

/**
 * Tells Akismet (when configured) of a decision it judged otherwise: an approval of what it
 * called spam, a rejection as spam of what it let through. In the background; the report is
 * claimed first (claimAkismetReport), so it is sent once, and a reversed decision again; a
 * report that fails gives its claim back (and is logged).
 */
function reportToAkismet(
  ctx: ParleyContext,
  comment: Comment,
  status: CommentStatus,
  reason: RejectionReason | null,
): void {
  const akismet = ctx.akismet;
  if (akismet === undefined) return;
  const work = async () => {
    const check = await findAkismetCheck(ctx.db, comment.id);
    if (check === undefined) return;
    const kind =
      status === 'APPROVED' && check.verdict !== 'ham'
        ? 'ham'
        : status === 'REJECTED' && reason === 'SPAM' && check.verdict === 'ham'
          ? 'spam'
          : undefined;
    if (kind === undefined) return;
    const [author, story] = await Promise.all([
      ctx.loaders.user.load(comment.authorId),
      ctx.loaders.story.load(comment.storyId),
    ]);
    if (!author || !story) return;
    if (!(await claimAkismetReport(ctx.db, comment.id, check.verdict, kind))) return;
    try {
      await akismet.submit(
        kind,
        akismetComment(
          author,
          story.url,
          comment.bodySource,
          comment.parentId,
          check.user_ip,
          check.user_agent,
          new Date(comment.createdAt),
        ),
      );
    } catch (error) {
      await claimAkismetReport(ctx.db, comment.id, kind, check.verdict);
      throw error;
    }
  };
  inBackground(ctx, work(), 'Reporting a decision to Akismet failed');
}

/** Folds the decisions' lessons into the spam model, in the background (store/spamModel.ts). */
export function foldSpamLessonsLater(ctx: ParleyContext): void {
  void foldSpamLessonsSoon(ctx.db, (error) =>
    ctx.logger.error({ err: error }, 'Folding spam lessons failed; the hourly sweep retries'),
  ).then(() => organizationChanged(ctx)); // its new stamp: the new model, on every instance
}

/**
 * Moves a comment to `status` as the viewer's decision (`reason`: why it was rejected). Deciding
 * what is already so (a double click, two moderators on one card) changes nothing and records
 * nothing, so the decision history and the dashboard's rejection rate count each judgement once —
 * but a rejected comment rejected again as spam still teaches the spam filter so.
 */
export async function decide(
  ctx: ParleyContext,
  commentId: string,
  status: CommentStatus,
  reason: RejectionReason | null = null,
) {
  const moderator = requireRole(ctx, 'MODERATOR');
  const current = await requireComment(ctx.db, commentId);
  // Deleted by its author (a stale card in the console): nothing left to judge.
  if (current.deletedAt !== null) throw deletedComment(commentId);
  // Deciding again what was decided is a no-op — unless reports came since: approving an
  // approved comment from the REPORTED queue records the review and clears it from there.
  if (current.status === status && current.reportCount <= current.reviewedReportCount) {
    // Reported only when the decision was taken here: a stale click on a comment decided
    // otherwise since tells neither the model nor Akismet anything.
    if (await teachSpamDecision(ctx.db, commentId, { status, reason })) {
      foldSpamLessonsLater(ctx);
      reportToAkismet(ctx, current, status, reason);
    }
    return current;
  }
  const { comment, previousStatus } = await setCommentStatus(ctx.db, {
    commentId,
    status,
    moderatorId: moderator.id,
    reason,
    teachSpam: true,
  });
  foldSpamLessonsLater(ctx);
  reportToAkismet(ctx, comment, status, reason);
  // A held comment that becomes visible is new to readers: it arrives like any new comment.
  if (!isVisibleStatus(previousStatus) && isVisibleStatus(comment.status)) {
    publishCommentCreated(ctx, comment);
    // A reply held at posting reaches its parent's author when readers can see it. One withheld
    // later (reports) was already announced when it was posted: no second email.
    if (previousStatus === 'PREMOD') inBackground(ctx, notifyReply(ctx, comment));
  }
  await unpinHidden(ctx, comment);
  // A rejected comment's images stop being served at once (an image is what a moderator most
  // needs gone); approving it later brings its text back, not its images.
  if (status === 'REJECTED') {
    await removeImageFiles(ctx, await releaseImagesOfComment(ctx.db, comment.id, comment.authorId));
  }
  publishCommentUpdated(ctx, comment);
  await publishQueueUpdated(ctx, comment);
  // Told once per change: two moderators approving at once, or a review of reports on an
  // approved comment, leave the status as it was.
  if (previousStatus !== comment.status && (status === 'APPROVED' || status === 'REJECTED')) {
    await emitWebhookEvent(
      ctx,
      status === 'APPROVED' ? 'comment.approved' : 'comment.rejected',
      async () => {
        const data = await commentData(ctx, comment);
        return (
          data && {
            ...data,
            moderator: actorData(ctx),
            ...(status === 'REJECTED' ? { reason } : {}),
          }
        );
      },
    );
  }
  return comment;
}

async function setFeatured(ctx: ParleyContext, commentId: string, featured: boolean) {
  requireRole(ctx, 'MODERATOR');
  let comment: Comment = await requireComment(ctx.db, commentId);
  if (comment.deletedAt !== null) throw deletedComment(commentId);
  // Featuring is the strongest "this is good": it approves the comment too (also one that is
  // held or rejected), because a featured comment readers cannot see would be an empty promise,
  // and in the console `f` on a pending card should not need an `a` first.
  if (featured && comment.status !== 'APPROVED') {
    comment = await decide(ctx, commentId, 'APPROVED');
  }
  const has = comment.tags.includes(FEATURED);
  if (has === featured) return comment;
  const tags = featured ? [...comment.tags, FEATURED] : comment.tags.filter((t) => t !== FEATURED);
  const updated = await setCommentTags(ctx.db, commentId, tags);
  publishCommentUpdated(ctx, updated);
  if (featured) {
    inBackground(ctx, notifyFeatured(ctx, updated));
    await emitWebhookEvent(ctx, 'comment.featured', async () => {
      const data = await commentData(ctx, updated);
      return data && { ...data, moderator: actorData(ctx) };
    });
  }
  return updated;
}

/**
 * Pins a top-level comment above its story's thread (approving it first, as featuring does:
 * a pinned comment readers cannot see would pin nothing), or unpins it. Readers see the comment
 * that lost its pin go back to its place, live, as the new one rises.
 */
async function setPinned(ctx: ParleyContext, commentId: string, pinned: boolean) {
  requireRole(ctx, 'MODERATOR');
  let comment: Comment = await requireComment(ctx.db, commentId);
  if (comment.deletedAt !== null) throw deletedComment(commentId);
  if (pinned && comment.parentId !== null) {
    throw new ParleyError('INVALID_INPUT', 'Only a top-level comment can be pinned.', {
      field: 'commentId',
    });
  }
  if (pinned && comment.status !== 'APPROVED') comment = await decide(ctx, commentId, 'APPROVED');
  let previous: string | null = null;
  let changed: boolean;
  if (pinned) ({ changed, previous } = await pinComment(ctx.db, comment.storyId, commentId));
  else changed = await unpinComment(ctx.db, comment.storyId, commentId);
  if (!changed) return comment;
  // The story's pointer is what Comment.tags reads: this request's copy is stale now.
  ctx.loaders.story.clear(comment.storyId);
  const displaced = previous === null ? undefined : await ctx.loaders.comment.load(previous);
  if (displaced) publishCommentUpdated(ctx, displaced);
  publishCommentUpdated(ctx, comment);
  return comment;
}

/**
 * A pinned comment that readers can no longer see (rejected, withheld, deleted) loses its pin:
 * approving it again later does not pin it again behind anyone's back.
 */
export async function unpinHidden(ctx: ParleyContext, comment: Comment): Promise<void> {
  if (!isRemoved(comment)) return;
  if (await unpinComment(ctx.db, comment.storyId, comment.id)) {
    ctx.loaders.story.clear(comment.storyId);
  }
}

/** Resolvers of approve/reject/feature/unfeature/pin/unpin (MODERATOR and above). */
export const commentDecisionResolvers = {
  Mutation: {
    approveComment: async (_root, { input }, ctx) => ({
      comment: await decide(ctx, input.commentId, 'APPROVED'),
    }),
    rejectComment: async (_root, { input }, ctx) => ({
      comment: await decide(ctx, input.commentId, 'REJECTED', input.reason ?? null),
    }),
    featureComment: async (_root, { input }, ctx) => ({
      comment: await setFeatured(ctx, input.commentId, true),
    }),
    unfeatureComment: async (_root, { input }, ctx) => ({
      comment: await setFeatured(ctx, input.commentId, false),
    }),
    pinComment: async (_root, { input }, ctx) => ({
      comment: await setPinned(ctx, input.commentId, true),
    }),
    unpinComment: async (_root, { input }, ctx) => ({
      comment: await setPinned(ctx, input.commentId, false),
    }),
  },
} satisfies Resolvers;
