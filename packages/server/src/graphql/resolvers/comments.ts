import { characterCount, commentBodyProblem } from '@parley/contract';
import { sql } from 'kysely';
import {
  createComment,
  deleteOwnComment,
  deletedComment,
  editComment,
  findCommentByClientMutationId,
  isVisibleStatus,
  requireComment,
  setCommentStatus,
} from '../../db/store/comments';
import type { Comment } from '../../db/store/comments';
import { addReport, reportRecord, setVote } from '../../db/store/reactions';
import type { VoteValue } from '../../db/store/reactions';
import type { User } from '../../db/store/users';
import { IDEMPOTENCY_KEY_MAX_LENGTH, REPORT_DETAILS_MAX_LENGTH } from '../../defaults';
import { evaluateComment, withSpamScore } from '../../moderation/evaluateComment';
import type { CommentModerationResult } from '../../moderation/evaluateComment';
import { statusAfterReport } from '../../moderation/reportThreshold';
import { reportWeight } from '../../moderation/reportWeight';
import { neutralizeBidi } from '../../validation/lookalikes';
import { recordGuestAddress } from '../../db/store/guests';
import { scoreComment } from '../../db/store/spamModel';
import { AKISMET_WEIGHTS } from '../../moderation/spam';
import { akismetComment } from '../../moderation/akismet';
import type { AkismetJudgement } from '../../moderation/akismet';
import { requireAddressNotBanned, requireGuestComments } from '../guestAccess';
import { ParleyError } from '../../ParleyError';
import type { ParleyContext } from '../context';
import { publishCommentCreated, publishCommentUpdated, publishQueueUpdated } from '../events';
import { commentData, emitWebhookEvent } from '../webhookEvents';
import { alertModerators } from '../../moderation/moderationAlerts';
import { waitingQueue } from '../../db/store/storyCounts';
import { inBackground, notifyReply } from './notifications';
import { hasRole, requireActiveUser, requireHomeSite, requireViewer } from '../permissions';
import type { CreateCommentInput, Resolvers } from './resolverTypes.generated';
import { effectiveStoryStatus } from './stories';
import { renderCommentBody } from './commentImages';
import { foldSpamLessonsLater, unpinHidden } from './moderation/commentDecisions';
import { attachCommentImages, releaseImagesOfComment } from '../../db/store/commentImages';
import { removeImageFiles } from '../../uploads/commentImages';
import { canSeeComment, editableUntil } from './types';
import { ipKey } from '../context';

/**
 * Runs the moderation rules for `author` writing `body` on the comment's story, then takes its
 * spam score (of commenters while the filter is on: staff speak for the site). A score that fails
 * (the database, a model that cannot be read) is logged and the comment goes on without one: the
 * filter must never stop a reader from posting.
 */
async function moderate(
  ctx: ParleyContext,
  author: User,
  storyId: string,
  body: string,
  /** A new comment (Akismet is asked of new comments only): its parent, if a reply. */
  created?: { parentId: string | null },
): Promise<
  CommentModerationResult & {
    spam: { score: number; fingerprint: string | null } | null;
    akismet: AkismetJudgement | undefined;
  }
> {
  const story = await ctx.loaders.story.load(storyId);
  if (!story) throw new ParleyError('NOT_FOUND', 'There is no such story.', { field: 'storyId' });
  requireHomeSite(author, story);
  const settings = await ctx.settings();
  const now = ctx.now();
  // Counted only where the "new commenters" rule applies: elsewhere it is a query per post for
  // nothing (the rule is the only reader).
  const newCommenterRule = (story.premod ?? settings.premod) === 'NEW_COMMENTERS';
  const verdict = evaluateComment({
    body,
    settings,
    story: { status: effectiveStoryStatus(story, settings, now), premod: story.premod },
    author: {
      banned: author.banned,
      suspendedUntil: author.suspendedUntil ? new Date(author.suspendedUntil) : null,
      premod: author.premod,
      approvedCount: newCommenterRule ? await approvedCount(ctx, author.id) : 0,
      role: author.role,
      guest: author.guest,
    },
    now,
  });
  if (!settings.spamFilter || author.role !== 'COMMENTER') {
    return { ...verdict, spam: null, akismet: undefined };
  }
  // Akismet first (a new comment, when configured): its verdict is evidence the local score
  // weighs with the rest.
  const akismet = created && (await askAkismet(ctx, author, story.url, body, created.parentId));
  try {
    const spam = await scoreComment(ctx.db, {
      source: body,
      storyId,
      authorCreatedAt: author.createdAt,
      modelStamp: (await ctx.organization())?.spamModelStamp ?? '',
      now,
      extraLogOdds: akismet === undefined ? 0 : AKISMET_WEIGHTS[akismet.verdict],
      threshold: settings.spamThreshold / 100,
    });
    return { ...withSpamScore(verdict, spam.score, settings), spam, akismet };
  } catch (error) {
    ctx.logger.error({ err: error, storyId }, 'Spam scoring failed; the comment goes on unscored');
    return { ...verdict, spam: null, akismet };
  }
}

/**
 * Akismet's verdict on a new comment, when it is configured and the caller's address is known
 * (Akismet requires it); undefined otherwise, and when Akismet fails or is slow (logged: the
 * local score stands alone then).
 */
async function askAkismet(
  ctx: ParleyContext,
  author: User,
  permalink: string,
  body: string,
  parentId: string | null,
): Promise<AkismetJudgement | undefined> {
  if (ctx.akismet === undefined || ctx.ip === undefined) return undefined;
  const userAgent = ctx.userAgent ?? '';
  try {
    const verdict = await ctx.akismet.check(
      akismetComment(author, permalink, body, parentId, ctx.ip, userAgent, ctx.now()),
    );
    return { verdict, userIp: ctx.ip, userAgent };
  } catch (error) {
    ctx.logger.warn({ err: error }, 'Akismet did not answer; the local spam score stands alone');
    return undefined;
  }
}

/** How many of the author's comments moderators approved (the "new commenter" rule). */
async function approvedCount(ctx: ParleyContext, authorId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('comments')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('author_id', '=', authorId)
    .where('status', '=', 'APPROVED')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A comment `user` may react to or report: one they can see, on their home site's story. */
async function actionableComment(ctx: ParleyContext, user: User, commentId: string) {
  const comment = await visibleComment(ctx, commentId);
  // A moderator still sees a deleted comment; nobody reacts to, reports or answers it.
  if (comment.deletedAt !== null) throw deletedComment(comment.id);
  const story = await ctx.loaders.story.load(comment.storyId);
  if (story) requireHomeSite(user, story);
  return comment;
}

/** A comment the viewer may see, or NOT_FOUND (a hidden comment does not exist for them). */
async function visibleComment(ctx: ParleyContext, commentId: string): Promise<Comment> {
  const comment = await ctx.loaders.comment.load(commentId);
  if (!comment || !canSeeComment(comment, ctx)) {
    throw new ParleyError('NOT_FOUND', 'There is no such comment.', { field: 'commentId' });
  }
  return comment;
}

/**
 * A comment body as stored, previewed and moderated: without the bidirectional controls that could
 * reorder it on screen, trimmed.
 */
function commentSource(body: string): string {
  return neutralizeBidi(body).trim();
}

/**
 * Stores `input` as `author`'s comment, through the doors and the rules; `created` is false for
 * a retry that found the comment its first attempt stored. Refuses with the door's or rule's error.
 */
async function storeComment(
  ctx: ParleyContext,
  author: User,
  input: CreateCommentInput,
  clientMutationId: string | null,
): Promise<{ comment: Comment; created: boolean; imageNames: string[] }> {
  if (author.guest) {
    // Switched off or banned since the guest's session began: their next post says so.
    await requireGuestComments(ctx);
    await requireAddressNotBanned(ctx, { strict: true });
  }
  await ctx.rateLimiter.consume('post', `user:${author.id}`);
  await ctx.rateLimiter.consume('postPerIp', ipKey(ctx));
  if (author.guest) await ctx.rateLimiter.consume('guestPostPerIp', ipKey(ctx));
  if (input.parentId) {
    const parent = await visibleComment(ctx, input.parentId);
    if (parent.deletedAt !== null) throw deletedComment(parent.id);
    if (parent.storyId !== input.storyId) {
      throw new ParleyError('INVALID_INPUT', 'A reply belongs to its parent’s story.', {
        field: 'parentId',
      });
    }
  }
  const body = commentSource(input.body);
  const verdict = await moderate(ctx, author, input.storyId, body, {
    parentId: input.parentId ?? null,
  });
  const rendered = await renderCommentBody(ctx, author.id, body);
  const { comment, created } = await createComment(ctx.db, {
    storyId: input.storyId,
    authorId: author.id,
    parentId: input.parentId ?? null,
    bodySource: body,
    bodyHtml: rendered.html,
    status: verdict.status,
    heldBecause: verdict.heldBecause.length ? verdict.heldBecause : null,
    spam: verdict.spam ?? undefined,
    ...(verdict.akismet === undefined ? {} : { akismet: verdict.akismet }),
    tags: hasRole(author, 'STAFF') ? ['STAFF'] : [],
    clientMutationId,
    createdAt: ctx.now().toISOString(),
  });
  return { comment, created, imageNames: rendered.imageNames };
}

/** What follows a new comment: its images and address kept, then everyone who hears of it. */
async function announceComment(
  ctx: ParleyContext,
  author: User,
  comment: Comment,
  imageNames: string[],
): Promise<void> {
  await recordGuestAddress(ctx.db, author, ctx.ip);
  await attachCommentImages(ctx.db, author.id, comment.id, imageNames);
  if (comment.status === 'NONE') publishCommentCreated(ctx, comment);
  await publishQueueUpdated(ctx, comment);
  inBackground(ctx, notifyReply(ctx, comment));
  // Held, or in Reported for a suspect word: the moderators who asked to hear of each one do
  // (moderation/moderationAlerts.ts).
  const queue = waitingQueue(comment);
  if (queue !== null) {
    inBackground(ctx, alertModerators(ctx, comment, queue), 'A moderation alert failed');
  }
  await emitWebhookEvent(ctx, 'comment.created', () => commentData(ctx, comment));
}

export const commentsResolvers = {
  Query: {
    // The stream never parses Markdown (its size budget, and one renderer means the preview is
    // exactly what will be posted). Open to signed-out readers, who may write before signing in;
    // the length cap keeps one request's work as bounded as a post's.
    renderMarkdown: async (_root, { body }, ctx) => {
      const source = commentSource(body);
      const { maxCommentLength } = await ctx.settings();
      if (commentBodyProblem(source, maxCommentLength) === 'COMMENT_TOO_LONG') {
        throw new ParleyError(
          'COMMENT_TOO_LONG',
          `A comment can be at most ${maxCommentLength} characters; this one has ${characterCount(source)}.`,
          { field: 'body' },
        );
      }
      return (await renderCommentBody(ctx, ctx.viewer?.id, source)).html;
    },
  },

  Mutation: {
    createComment: async (_root, { input }, ctx) => {
      const author = requireViewer(ctx);
      const clientMutationId = input.clientMutationId ?? ctx.idempotencyKey ?? null;
      if (clientMutationId !== null && clientMutationId.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
        throw new ParleyError(
          'INVALID_INPUT',
          `An idempotency key can be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`,
          { field: 'clientMutationId' },
        );
      }
      let stored;
      try {
        stored = await storeComment(ctx, author, input, clientMutationId);
      } catch (error) {
        // A retry of a post that went through is answered with that comment, whatever refuses
        // it now: the rate limit, which the first attempt already paid, or a rule or a parent
        // changed since. Looked for only when something refuses: the insert finds a retry that
        // passes by its conflict, and a first attempt (nearly every post) has nothing to find,
        // so a post no longer pays a read for it (bench:scale, section 5). A retry that passes
        // spends one more of the rate limit and asks Akismet again.
        const earlier =
          clientMutationId &&
          (await findCommentByClientMutationId(ctx.db, author.id, clientMutationId));
        if (earlier) return { comment: earlier };
        throw error;
      }
      const { comment, created, imageNames } = stored;
      if (created) await announceComment(ctx, author, comment, imageNames);
      return { comment };
    },

    editComment: async (_root, { input }, ctx) => {
      const author = requireViewer(ctx);
      const comment = await visibleComment(ctx, input.commentId);
      if (comment.authorId !== author.id) {
        throw new ParleyError('FORBIDDEN', 'Only its author can edit a comment.');
      }
      if (ctx.now() > editableUntil(comment, await ctx.settings())) {
        throw new ParleyError('EDIT_WINDOW_EXPIRED', 'The time to edit this comment has passed.');
      }
      // A guest's edit meets the same doors as their post.
      if (author.guest) {
        await requireGuestComments(ctx);
        await requireAddressNotBanned(ctx, { strict: true });
      }
      await ctx.rateLimiter.consume('edit', `user:${author.id}`);
      const body = commentSource(input.body);
      const verdict = await moderate(ctx, author, comment.storyId, body);
      // An edit can put a published comment on hold (a link added under link pre-moderation),
      // never release a held one: that stays a moderator's decision. A guest's approved comment
      // goes back too: what a moderator approved is not what it says now.
      const hold =
        verdict.status === 'PREMOD' &&
        (comment.status === 'NONE' || (author.guest && comment.status === 'APPROVED'));
      const rendered = await renderCommentBody(ctx, author.id, body);
      const edited = await editComment(ctx.db, {
        commentId: comment.id,
        bodySource: body,
        bodyHtml: rendered.html,
        spam: verdict.spam,
        ...(hold ? { status: 'PREMOD' as const, heldBecause: verdict.heldBecause } : {}),
        ...(!hold && verdict.reported ? { heldBecause: verdict.heldBecause } : {}),
      });
      await attachCommentImages(ctx.db, author.id, comment.id, rendered.imageNames);
      // What the old text taught the spam filter is out of the model at once, not within the hour.
      foldSpamLessonsLater(ctx);
      // Readers hear of an edit only to a comment they could see: a held comment's edits (its
      // author, status, parent) are for moderators, through the queue.
      if (isVisibleStatus(comment.status) || isVisibleStatus(edited.status)) {
        publishCommentUpdated(ctx, edited);
      }
      if (hold || verdict.reported || !isVisibleStatus(edited.status)) {
        await publishQueueUpdated(ctx, edited);
      }
      // An edit that puts it in a queue (a link added, a suspect word) is told as a post would be.
      const queue = waitingQueue(edited);
      if (waitingQueue(comment) === null && queue !== null) {
        inBackground(ctx, alertModerators(ctx, edited, queue), 'A moderation alert failed');
      }
      return { comment: edited };
    },

    deleteComment: async (_root, { input }, ctx) => {
      // Signed in is enough: a banned or suspended author may still take their words back.
      const author = requireViewer(ctx);
      const comment = await ctx.loaders.comment.load(input.commentId);
      // The author's own comment is found even once deleted (a retried delete answers with it).
      if (!comment || (comment.authorId !== author.id && !canSeeComment(comment, ctx))) {
        throw new ParleyError('NOT_FOUND', 'There is no such comment.', { field: 'commentId' });
      }
      if (comment.authorId !== author.id) {
        throw new ParleyError('FORBIDDEN', 'Only its author can delete a comment.');
      }
      if (comment.deletedAt !== null) return { comment };
      await ctx.rateLimiter.consume('delete', `user:${author.id}`);
      const { comment: deleted, deleted: changed } = await deleteOwnComment(
        ctx.db,
        comment.id,
        author.id,
        ctx.now(),
      );
      if (changed) {
        // Gone means gone: the images it showed go with its text, and its pin.
        await removeImageFiles(ctx, await releaseImagesOfComment(ctx.db, comment.id, author.id));
        await unpinHidden(ctx, deleted);
        foldSpamLessonsLater(ctx);
        // Readers who could see it watch it go; a held one was only ever in the queues.
        if (isVisibleStatus(deleted.status)) publishCommentUpdated(ctx, deleted);
        await publishQueueUpdated(ctx, deleted);
      }
      return { comment: deleted };
    },

    createReaction: (_root, { input }, ctx) => vote(ctx, input.commentId, 1),

    removeReaction: (_root, { input }, ctx) => vote(ctx, input.commentId, 0),

    vote: (_root, { input }, ctx) =>
      vote(ctx, input.commentId, input.vote === 'UP' ? 1 : input.vote === 'DOWN' ? -1 : 0),

    reportComment: async (_root, { input }, ctx) => {
      const reporter = requireActiveUser(ctx);
      const comment = await actionableComment(ctx, reporter, input.commentId);
      if (comment.authorId === reporter.id) {
        throw new ParleyError('INVALID_INPUT', 'You cannot report your own comment.');
      }
      const details = input.details?.trim() ?? '';
      if ([...details].length > REPORT_DETAILS_MAX_LENGTH) {
        throw new ParleyError(
          'INVALID_INPUT',
          `Details can be at most ${REPORT_DETAILS_MAX_LENGTH} characters.`,
          { field: 'details' },
        );
      }
      await ctx.rateLimiter.consume('report', `user:${reporter.id}`);
      await ctx.rateLimiter.consume('reportPerIp', ipKey(ctx));
      const weight = reportWeight({
        emailVerified: reporter.emailVerified,
        createdAt: reporter.createdAt,
        ...(await reportRecord(ctx.db, reporter.id)),
      });
      const { reportWeight: weightSoFar, created } = await addReport(ctx.db, {
        commentId: comment.id,
        userId: reporter.id,
        reason: input.reason,
        details: details || null,
        weight,
      });
      if (!created) return { comment };
      const { reportThreshold } = await ctx.settings();
      let current = await requireComment(ctx.db, comment.id);
      if (statusAfterReport(current.status, weightSoFar, reportThreshold) !== current.status) {
        ({ comment: current } = await setCommentStatus(ctx.db, {
          commentId: comment.id,
          status: 'SYSTEM_WITHHELD',
          moderatorId: null,
          expectedStatus: current.status,
          heldBecause: ['REPORTS'],
        }));
        publishCommentUpdated(ctx, current);
      }
      await publishQueueUpdated(ctx, current);
      // Told when this report puts it in a queue, not at every report of a comment waiting there.
      if (waitingQueue(comment) === null && waitingQueue(current) !== null) {
        inBackground(ctx, alertModerators(ctx, current, 'REPORTED'), 'A moderation alert failed');
      }
      await emitWebhookEvent(ctx, 'comment.reported', async () => {
        const data = await commentData(ctx, current);
        return data && { ...data, report: { reason: input.reason, details: details || null } };
      });
      return { comment: current };
    },
  },
} satisfies Resolvers;

/**
 * Sets the viewer's vote (a Like is an up vote); the counts change (and go live) only when it
 * did. A down vote needs the UP_DOWN setting.
 */
async function vote(
  ctx: ParleyContext,
  commentId: string,
  value: VoteValue,
): Promise<{ comment: Comment }> {
  const viewer = requireActiveUser(ctx);
  const comment = await actionableComment(ctx, viewer, commentId);
  if (value === -1 && (await ctx.settings()).voting !== 'UP_DOWN') {
    throw new ParleyError('FORBIDDEN', 'This site counts likes only: there are no down votes.', {
      field: 'vote',
    });
  }
  await ctx.rateLimiter.consume('react', `user:${viewer.id}`);
  await ctx.rateLimiter.consume('reactPerIp', ipKey(ctx));
  const { comment: fresh, changed } = await setVote(ctx.db, comment.id, viewer.id, value);
  if (changed) publishCommentUpdated(ctx, fresh);
  // The answer's viewerVote reads the vote just cast, not the one loaded before it.
  ctx.loaders.viewerVote.clear(comment.id);
  return { comment: fresh };
}
