/**
 * Moderators' email alerts: per moderator and site (store/moderationAlerts.ts), an email for each
 * comment entering the Pending or Reported queue, or an hourly or daily digest of them. Each
 * comment in an email has a "Moderate" link to it in the console, and one-time "Approve" and
 * "Reject" links that act only from the page they open, on a button (`/account/moderate`: a mail
 * scanner that follows links decides nothing), as the moderator they were made for.
 *
 * A link works once (it and every other link of its comment), for MODERATION_LINK_TTL_MS, while
 * its comment still waits in a queue, while its moderator may still moderate, and until they sign
 * out everywhere or change their password (their session epoch). A link is authority without the
 * second factor: so a moderator with two-factor sign-in, or anyone in an organization that
 * requires it of staff, gets no Approve / Reject links (the Moderate link only), and such links
 * made before stop working.
 *
 * Emails go to moderators and admins whose email is confirmed and who are neither banned nor
 * suspended. The emails' unsubscribe link ends their alerts with every other notification
 * (tokenMutations.ts), as it says. Each comment's emails are capped per moderator
 * (RATE_LIMITS.moderationAlert): a spam wave past it is not mailed comment by comment.
 */
import { ACCOUNT_PATHS } from '@parley/contract';
import type { Db } from '../db/inTransaction';
import type { CommentStatus } from '../db/schema';
import type { Comment } from '../db/store/comments';
import { findCommentById } from '../db/store/comments';
import {
  alertedModerators,
  claimDigest,
  createModerationLink,
  digestItems,
  dueDigests,
  roleChangedSince,
} from '../db/store/moderationAlerts';
import type { DigestItem, StoredModerationLink } from '../db/store/moderationAlerts';
import { findSiteById } from '../db/store/sites';
import { findStoryById } from '../db/store/stories';
import type { Story } from '../db/store/stories';
import { waitingQueue } from '../db/store/storyCounts';
import { findUserById } from '../db/store/users';
import type { User } from '../db/store/users';
import { email, recipient } from '../email/templates';
import type { Mailer } from '../email/createMailer';
import { queueCounts } from '../graphql/resolvers/moderation/queueQueries';
import { tokenLink } from '../graphql/resolvers/account/accountEmails';
import type { Logger } from '../runtime/createLogger';
import type { RateLimiter } from '../rateLimit/createRateLimiter';
import { getOrganization, getSettings } from '../db/store/organization';
import { DEFAULT_SETTINGS } from '../defaults';

/** How long an email's Approve / Reject link works: three days (a digest is read late). */
export const MODERATION_LINK_TTL_MS = 3 * 86_400_000;
/** Most comments a digest lists (it counts them all). */
export const DIGEST_MAX_ITEMS = 20;
/** How often each process looks for digests due. */
export const DIGEST_TICK_MS = 300_000;
/** Longest excerpt of a comment in an email or on the link's page, in characters. */
const EXCERPT_CHARS = 2_000;

/** What sending needs: the server's dependencies, or a request's context. */
export interface AlertDeps {
  db: Db;
  mailer: Mailer;
  logger: Pick<Logger, 'error' | 'info'>;
  publicUrl: string;
  now: () => Date;
  /** Caps each moderator's emails of each comment (not the digests). */
  rateLimiter?: Pick<RateLimiter, 'consume'>;
}

/**
 * How long a digest waits for what was still being written when it looked: a comment stamped
 * before its row committed, or on an instance whose clock is a little behind, falls in the next
 * digest instead of in none.
 */
export const DIGEST_GRACE_MS = 60_000;

/** Whether `user` may be alerted now (see the file comment). */
export function mayBeAlerted(user: User, now: Date): boolean {
  return (
    (user.role === 'MODERATOR' || user.role === 'ADMIN') &&
    !user.banned &&
    (user.suspendedUntil === null || new Date(user.suspendedUntil) <= now) &&
    user.emailVerified
  );
}

/**
 * Whether `moderator` may be sent Approve / Reject links (see the file comment), under the
 * organization's `requireStaffTwoFactor`.
 */
export function mayUseLinks(moderator: User, requireStaffTwoFactor: boolean): boolean {
  return !moderator.twoFactorEnabled && !requireStaffTwoFactor;
}

/** The organization's rule on staff's second factor, read once per email sent or link used. */
const staffTwoFactorRule = async (db: Db) => (await getSettings(db)).requireStaffTwoFactor;

const excerptOf = (text: string) => {
  const flat = text.trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS - 1)}…` : flat;
};

/** The links of one comment in one moderator's email. */
async function commentLinks(
  deps: AlertDeps,
  moderator: User,
  comment: Comment,
  withDecisions: boolean,
) {
  const at = deps.now();
  // To the queue it waits in now: a comment withheld by reports is in Pending.
  const where = waitingQueue(comment) === 'PENDING' ? 'pending' : 'reported';
  const link = async (action: 'APPROVE' | 'REJECT') => {
    const token = await createModerationLink(
      deps.db,
      { moderator, commentId: comment.id, action, ttlMs: MODERATION_LINK_TTL_MS },
      at,
    );
    return `${deps.publicUrl}${ACCOUNT_PATHS.moderate}#token=${token}`;
  };
  const moderate = `${deps.publicUrl}/admin/moderate/${where}?comment=${encodeURIComponent(comment.id)}`;
  if (!withDecisions) return { moderate };
  return { moderate, approve: await link('APPROVE'), reject: await link('REJECT') };
}

/** The footer links every alert carries. */
async function footerLinks(deps: AlertDeps, moderator: User) {
  return {
    alerts: `${deps.publicUrl}/admin/alerts`,
    unsubscribe: await tokenLink(deps, moderator, 'UNSUBSCRIBE', ACCOUNT_PATHS.unsubscribe),
    linkSeconds: MODERATION_LINK_TTL_MS / 1000,
  };
}

const storyName = (story: Story) => story.title || story.url;

/** The author's name; null for an account gone since (the email says so in its language). */
async function authorName(db: Db, comment: Comment): Promise<string | null> {
  return (await findUserById(db, comment.authorId))?.username ?? null;
}

/**
 * Emails the moderators alerted of each comment on `comment`'s site that it entered `queue`;
 * failures are logged, per moderator, never thrown.
 */
export async function alertModerators(
  deps: AlertDeps,
  comment: Comment,
  queue: 'PENDING' | 'REPORTED',
): Promise<void> {
  const story = await findStoryById(deps.db, comment.storyId);
  if (!story) return;
  const now = deps.now();
  const moderators = (await alertedModerators(deps.db, story.siteId, 'EACH', now))
    .map((row) => row.user)
    .filter((user) => user.id !== comment.authorId && mayBeAlerted(user, now));
  if (moderators.length === 0) return;
  // One read: the staff two-factor rule and the emails' language.
  const organization = await getOrganization(deps.db);
  const requireStaffTwoFactor = (organization?.settings ?? DEFAULT_SETTINGS).requireStaffTwoFactor;
  const [site, author] = await Promise.all([
    findSiteById(deps.db, story.siteId),
    authorName(deps.db, comment),
  ]);
  for (const moderator of moderators) {
    try {
      try {
        await deps.rateLimiter?.consume('moderationAlert', `user:${moderator.id}`);
      } catch {
        continue; // over the hour's cap: the console's counts tell the rest
      }
      await deps.mailer.send(
        email('moderationAlert', recipient(moderator.email, moderator, organization), {
          username: moderator.username,
          site: site?.name ?? null,
          queue,
          author,
          story: storyName(story),
          excerpt: excerptOf(comment.bodySource),
          ...(await commentLinks(
            deps,
            moderator,
            comment,
            mayUseLinks(moderator, requireStaffTwoFactor),
          )),
          ...(await footerLinks(deps, moderator)),
        }),
      );
    } catch (error) {
      deps.logger.error({ err: error, userId: moderator.id }, 'A moderation alert failed');
    }
  }
}

/**
 * Sends every digest due now (each claimed first, so several processes send it once); resolves
 * how many emails went. A digest with nothing in it is claimed and not sent.
 */
export async function sendDueDigests(deps: AlertDeps): Promise<number> {
  let sent = 0;
  const dueNow = await dueDigests(deps.db, deps.now());
  if (dueNow.length === 0) return 0;
  // One read: the staff two-factor rule and the emails' language.
  const organization = await getOrganization(deps.db);
  const requireStaffTwoFactor = (organization?.settings ?? DEFAULT_SETTINGS).requireStaffTwoFactor;
  for (const due of dueNow) {
    try {
      const now = deps.now();
      const until = new Date(now.getTime() - DIGEST_GRACE_MS);
      const since = due.lastDigestAt ?? until.toISOString();
      if (since >= until.toISOString()) continue;
      if (!(await claimDigest(deps.db, due, until))) continue;
      const moderator = await findUserById(deps.db, due.userId);
      if (!moderator || !mayBeAlerted(moderator, now)) continue;
      const found = await digestItems(
        deps.db,
        due.siteId,
        since,
        until.toISOString(),
        DIGEST_MAX_ITEMS + 1,
      );
      // Not their own comments (a moderator's held comment is someone else's to judge).
      const items = found.items.filter((item) => item.comment.authorId !== moderator.id);
      const total = found.total - (found.items.length - items.length);
      if (total <= 0) continue;
      const withDecisions = mayUseLinks(moderator, requireStaffTwoFactor);
      const [site, waiting] = await Promise.all([
        findSiteById(deps.db, due.siteId),
        queueCounts(deps.db, { siteId: due.siteId }),
      ]);
      const listed = [];
      for (const item of items.slice(0, DIGEST_MAX_ITEMS)) {
        listed.push(await digestLine(deps, moderator, item, withDecisions));
      }
      await deps.mailer.send(
        email('moderationDigest', recipient(moderator.email, moderator, organization), {
          username: moderator.username,
          site: site?.name ?? null,
          period: due.frequency === 'DAILY' ? 'day' : 'hour',
          total,
          items: listed,
          waiting: { pending: waiting.pending, reported: waiting.reported },
          queues: `${deps.publicUrl}/admin/moderate?site=${encodeURIComponent(due.siteId)}`,
          ...(await footerLinks(deps, moderator)),
        }),
      );
      sent += 1;
    } catch (error) {
      deps.logger.error(
        { err: error, userId: due.userId, siteId: due.siteId },
        'A moderation digest failed; what it held goes in the next one only if still new',
      );
    }
  }
  return sent;
}

async function digestLine(
  deps: AlertDeps,
  moderator: User,
  item: DigestItem,
  withDecisions: boolean,
) {
  const story = await findStoryById(deps.db, item.comment.storyId);
  return {
    queue: item.queue,
    author: await authorName(deps.db, item.comment),
    // A story gone since is no title in any language.
    story: story ? storyName(story) : '—',
    excerpt: excerptOf(item.comment.bodySource),
    ...(await commentLinks(deps, moderator, item.comment, withDecisions)),
  };
}

/** The digests' timer of one process. */
export interface DigestTimer {
  stop(): Promise<void>;
}

/** Looks for digests due every `tickMs` (and once at start); stop() waits for a look in progress. */
export function startModerationDigests(deps: AlertDeps, tickMs = DIGEST_TICK_MS): DigestTimer {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    running ??= sendDueDigests(deps)
      .catch((error: unknown) => deps.logger.error({ err: error }, 'Moderation digests failed'))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(tick, tickMs);
  timer.unref();
  // Cleared too: a server stopped as soon as it started (a command that only reads) had its
  // database closed under this first look.
  const first = setImmediate(tick);
  return {
    async stop() {
      clearInterval(timer);
      clearImmediate(first);
      await running;
    },
  };
}

/** A link as its confirmation page shows it (the API's `ModerationLink`). */
export interface ModerationLinkView {
  action: StoredModerationLink['action'];
  moderator: string;
  commentId: string;
  author: string;
  excerpt: string;
  storyTitle: string;
  storyUrl: string;
  status: CommentStatus;
  decidable: boolean;
  expiresAt: string;
}

/**
 * Whether a link's moderator may still use it: staff in good standing, the same session epoch,
 * no role change since it was made (demoted and promoted again, their old links stay dead), and
 * links allowed them (no second factor).
 */
export async function linkHolderValid(
  db: Db,
  link: StoredModerationLink,
  moderator: User | undefined,
  now: Date,
): Promise<boolean> {
  return (
    moderator !== undefined &&
    moderator.sessionEpoch === link.epoch &&
    (moderator.role === 'MODERATOR' || moderator.role === 'ADMIN') &&
    !moderator.banned &&
    (moderator.suspendedUntil === null || new Date(moderator.suspendedUntil) <= now) &&
    !(await roleChangedSince(db, moderator.id, link.createdAt)) &&
    mayUseLinks(moderator, await staffTwoFactorRule(db))
  );
}

/**
 * The view of a stored link: undefined when its comment is gone. The comment's text is shown only
 * while the link could decide: a used link, or one whose moderator lost the right, is no way to
 * read held or rejected text later.
 */
export async function moderationLinkView(
  db: Db,
  link: StoredModerationLink,
  now: Date,
): Promise<ModerationLinkView | undefined> {
  const comment = await findCommentById(db, link.commentId);
  if (!comment) return undefined;
  const [story, moderator, author] = await Promise.all([
    findStoryById(db, comment.storyId),
    findUserById(db, link.userId),
    authorName(db, comment),
  ]);
  const live =
    link.usedAt === null &&
    link.expiresAt > now.toISOString() &&
    (await linkHolderValid(db, link, moderator, now));
  return {
    action: link.action,
    moderator: moderator?.username ?? '',
    commentId: comment.id,
    // Empty for an account deleted since: the page says so in its language.
    author: author ?? '',
    excerpt: live ? excerptOf(comment.bodySource) : '',
    storyTitle: story?.title ?? '',
    storyUrl: story?.url ?? '',
    status: comment.status,
    decidable: live && waitingQueue(comment) !== null,
    expiresAt: link.expiresAt,
  };
}
