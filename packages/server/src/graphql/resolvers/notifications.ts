/**
 * Notification emails: a reply to your comment, your comment featured. Sent only to a verified
 * address (an address nobody confirmed could be someone else's, and these mails are unsolicited
 * otherwise), only when the user's switch is on (`notificationSettings`, on by default), never
 * for one's own action, and each with a one-click unsubscribe link (`/account/unsubscribe`).
 *
 * They go out after the change is saved and without holding up the answer: a slow or failing mail
 * server must not slow down or fail a post (failures are logged by `deliverNotice`).
 */
import { listIgnoredIds } from '../../db/store/userModeration';
import { findUserById } from '../../db/store/users';
import type { User } from '../../db/store/users';
import type { Comment } from '../../db/store/comments';
import { findCommentById, isVisibleStatus } from '../../db/store/comments';
import { DEFAULT_NOTIFICATIONS } from '../../defaults';
import type { MailMessage } from '../../email/createMailer';
import type { ParleyContext } from '../context';
import { ACCOUNT_PATHS, deliverNotice, tokenLink } from './account/accountEmails';
import { email, recipient as addressOf } from '../../email/templates';
import type { Recipient } from '../../email/templates';

/** Longest excerpt of a comment quoted in an email. */
export const NOTIFICATION_EXCERPT_CHARS = 500;

/** Query parameter of a comment permalink on the host page (what embed.js reads). */
export const PERMALINK_PARAM = 'commentID';

type Switch = keyof typeof DEFAULT_NOTIFICATIONS;

/** The host page's link to `comment` (the story URL with `?commentID=`). */
export function permalink(storyUrl: string, commentId: string): string {
  const url = new URL(storyUrl);
  url.searchParams.set(PERMALINK_PARAM, commentId);
  return url.href;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > NOTIFICATION_EXCERPT_CHARS
    ? `${flat.slice(0, NOTIFICATION_EXCERPT_CHARS - 1)}…`
    : flat;
}

async function recipient(
  ctx: ParleyContext,
  userId: string,
  kind: Switch,
): Promise<User | undefined> {
  const user = await findUserById(ctx.db, userId);
  if (!user || !user.emailVerified) return undefined;
  const prefs = { ...DEFAULT_NOTIFICATIONS, ...user.notificationPrefs };
  return prefs[kind] === true ? user : undefined;
}

async function send(
  ctx: ParleyContext,
  user: User,
  compose: (unsubscribe: string, to: Recipient) => MailMessage,
): Promise<void> {
  const unsubscribe = await tokenLink(ctx, user, 'UNSUBSCRIBE', ACCOUNT_PATHS.unsubscribe);
  await deliverNotice(
    ctx,
    compose(unsubscribe, addressOf(user.email, user, await ctx.organization())),
  );
}

/** Tells a comment's author that someone replied (a visible reply, not their own). */
export async function notifyReply(ctx: ParleyContext, reply: Comment): Promise<void> {
  if (reply.parentId === null || !isVisibleStatus(reply.status)) return;
  // Read now, not from the request's loader: a delete since the reply was checked counts.
  const parent = await findCommentById(ctx.db, reply.parentId);
  // A parent its author deleted (or erased with the account) has nobody left to tell.
  if (!parent || parent.deletedAt !== null || parent.authorId === reply.authorId) return;
  const to = await recipient(ctx, parent.authorId, 'onReply');
  const [replier, story] = await Promise.all([
    ctx.loaders.user.load(reply.authorId),
    ctx.loaders.story.load(reply.storyId),
  ]);
  if (!to || !replier || !story) return;
  // Someone the author ignores is hidden from them in threads; not in their mailbox either.
  if ((await listIgnoredIds(ctx.db, to.id)).includes(replier.id)) return;
  await send(ctx, to, (unsubscribe, address) =>
    email('reply', address, {
      username: to.username,
      replier: replier.username,
      story: story.title || story.url,
      excerpt: excerpt(reply.bodySource),
      permalink: permalink(story.url, reply.id),
      unsubscribe,
    }),
  );
}

/** Tells an author their comment was featured (not when they featured it themselves). */
export async function notifyFeatured(ctx: ParleyContext, comment: Comment): Promise<void> {
  if (ctx.viewer?.id === comment.authorId) return;
  const to = await recipient(ctx, comment.authorId, 'onFeatured');
  const story = await ctx.loaders.story.load(comment.storyId);
  if (!to || !story) return;
  await send(ctx, to, (unsubscribe, address) =>
    email('featured', address, {
      username: to.username,
      story: story.title || story.url,
      excerpt: excerpt(comment.bodySource),
      permalink: permalink(story.url, comment.id),
      unsubscribe,
    }),
  );
}

/**
 * Runs work (a notification, by default) without holding up the caller; anything unexpected is
 * logged as `failed`.
 */
export function inBackground(
  ctx: ParleyContext,
  work: Promise<void>,
  failed = 'A notification failed',
): void {
  work.catch((error: unknown) => ctx.logger.error({ err: error }, failed));
}
