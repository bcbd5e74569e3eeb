import { listComments, listReplies } from '../../db/store/commentQueries';
import { isVisibleStatus, listRevisions } from '../../db/store/comments';
import type { Comment } from '../../db/store/comments';
import type { Settings } from '../../db/store/organization';
import { listReports } from '../../db/store/reactions';
import { findSiteById, listActiveSsoKeys } from '../../db/store/sites';
import { countStoryComments } from '../../db/store/stories';
import type { User } from '../../db/store/users';
import { repliesFeedUrl } from '../../feeds/atomFeeds';
import { pageSize } from '../../db/store/paginate';
import { renderComment } from '../../markdown/renderComment';
import { DEFAULT_NOTIFICATIONS } from '../../defaults';
import { listIgnoredIds } from '../../db/store/userModeration';
import { ParleyError } from '../../ParleyError';
import type { ParleyContext } from '../context';
import { hasRole, isModerator, isOwnAccount } from '../permissions';
import type { Resolvers, UserStatus } from './resolverTypes.generated';
import { smallAvatarOf } from '../../uploads/storeAvatar';

/** `Comment.viewerVote` of a stored vote. */
const VOTES = { 1: 'UP', [-1]: 'DOWN', 0: null } as const;

/** An SMTP setting as admins see it; null for everyone else (it names the mail server). */
const adminOnly =
  <T>(read: (settings: Settings, ctx: ParleyContext) => T) =>
  (settings: Settings, _args: unknown, ctx: ParleyContext): T | null =>
    hasRole(ctx.staff, 'ADMIN') ? read(settings, ctx) : null;

// No `smtpPassword` resolver and no such field in the schema: the password is write-only.
const smtpResolvers = {
  smtpHost: adminOnly((s) => s.smtpHost),
  smtpPort: adminOnly((s) => s.smtpPort),
  smtpSecure: adminOnly((s) => s.smtpSecure),
  smtpUser: adminOnly((s) => s.smtpUser),
  smtpPasswordSet: adminOnly((s) => s.smtpPassword !== ''),
  smtpFrom: adminOnly((s) => s.smtpFrom),
  smtpFromEnvironment: adminOnly((_s, ctx) => ctx.mailer.smtpFromEnvironment),
  // Not secrets, but how the install guards itself: an admin's business.
  requireStaffTwoFactor: adminOnly((s) => s.requireStaffTwoFactor),
  auditRetentionDays: adminOnly((s) => s.auditRetentionDays),
  ipRetentionDays: adminOnly((s) => s.ipRetentionDays),
  webhooksAllowPrivateAddresses: adminOnly((s) => s.webhooksAllowPrivateAddresses),
};

/** A user's status as the API shows it; a suspension in the past is over. */
export function userStatus(user: User, now: Date): UserStatus {
  if (user.banned) return 'BANNED';
  if (user.suspendedUntil && new Date(user.suspendedUntil) > now) return 'SUSPENDED';
  if (user.premod) return 'PREMOD';
  return 'ACTIVE';
}

/** The user themself, moderators and admins see private fields; others get null. */
const privately =
  <T>(read: (user: User, ctx: ParleyContext) => T) =>
  (user: User, _args: unknown, ctx: ParleyContext): T | null =>
    ctx.viewer && (ctx.viewer.id === user.id || isModerator(ctx.staff)) ? read(user, ctx) : null;

/** Moderators only; null for everyone else. */
const forModerators =
  <T>(read: (comment: Comment, ctx: ParleyContext) => T) =>
  (comment: Comment, _args: unknown, ctx: ParleyContext): T | null =>
    isModerator(ctx.staff) ? read(comment, ctx) : null;

/** Whether the viewer may see a comment that readers may not (held, rejected). */
export function canSeeComment(comment: Comment, ctx: ParleyContext): boolean {
  // An erased comment (its author's account deleted) is gone for everyone but moderators.
  if (comment.deletedAt !== null) return isModerator(ctx.staff);
  return (
    comment.status === 'NONE' ||
    comment.status === 'APPROVED' ||
    ctx.viewer?.id === comment.authorId ||
    isModerator(ctx.staff)
  );
}

/** Rejected, withheld, pending or erased: in a reader's thread only as a tombstone. */
export function isRemoved(comment: Comment): boolean {
  return !isVisibleStatus(comment.status) || comment.deletedAt !== null;
}

/** The end of a comment's edit window. */
export function editableUntil(comment: Comment, settings: Settings): Date {
  return new Date(new Date(comment.createdAt).getTime() + settings.editWindowSeconds * 1000);
}

/** The HTML snippet a site owner pastes. */
export function embedSnippet(publicUrl: string): string {
  return `<div id="parley-thread"></div>\n<script src="${publicUrl}/embed.js" async></script>`;
}

/** The HTML snippet that lists a site's latest comments (recent.js). */
export function recentSnippet(publicUrl: string, siteId: string): string {
  return `<div class="parley-recent" data-site="${siteId}" data-count="5"></div>\n<script src="${publicUrl}/recent.js" async></script>`;
}

/** Field resolvers of the object types. */
export const typeResolvers = {
  User: {
    avatarUrl: (user, { size }) =>
      user.avatarUrl === null || size === 'LARGE'
        ? user.avatarUrl
        : (smallAvatarOf(user.avatarUrl) ?? user.avatarUrl),
    // The host's SSO badges, and STAFF for staff (the widget shows both beside the name).
    badges: (user) => [...new Set([...user.badges, ...(user.role === 'STAFF' ? ['STAFF'] : [])])],
    email: privately((user) => user.email),
    emailVerified: privately((user) => user.emailVerified),
    status: privately((user, ctx) => userStatus(user, ctx.now())),
    suspendedUntil: privately((user, ctx) =>
      userStatus(user, ctx.now()) === 'SUSPENDED' ? user.suspendedUntil : null,
    ),
    deletionRequestedAt: privately((user) => user.deletionRequestedAt),
    notificationSettings: (user, _args, ctx) =>
      isOwnAccount(ctx, user) ? { ...DEFAULT_NOTIFICATIONS, ...user.notificationPrefs } : null,
    // Never to a request made with an API token (isOwnAccount): the link reads as the user,
    // outside the token's scope and revocation.
    repliesFeedUrl: (user, _args, ctx) =>
      isOwnAccount(ctx, user) && user.repliesFeedKey !== null
        ? repliesFeedUrl(ctx.publicUrl, user.repliesFeedKey)
        : null,
    ignoredUsers: async (user, _args, ctx) => {
      if (!isOwnAccount(ctx, user)) return null;
      const ids = await listIgnoredIds(ctx.db, user.id);
      return (await ctx.loaders.user.loadMany(ids)).filter(
        (ignored): ignored is User => ignored !== undefined && !(ignored instanceof Error),
      );
    },
  },

  Story: {
    title: (story) => story.title || null,
    commentCount: async (story, _args, ctx) =>
      (await countStoryComments(ctx.db, [story.id])).get(story.id) ?? 0,
    // `orderBy` has a default, yet a client's explicit null arrives as null: listComments then
    // applies the same default.
    comments: (story, args, ctx) =>
      listComments(ctx.db, { storyId: story.id, parentId: null, orderBy: args.orderBy }, args),
    featuredComments: (story, args, ctx) =>
      listComments(ctx.db, { storyId: story.id, featured: true }, args),
    // Above the thread only while readers can see it (a pinned comment rejected since is not).
    pinnedComment: async (story, _args, ctx) => {
      if (story.pinnedCommentId === null) return null;
      const comment = await ctx.loaders.comment.load(story.pinnedCommentId);
      return comment && comment.storyId === story.id && !isRemoved(comment) ? comment : null;
    },
    settings: async (story, _args, ctx) => {
      const settings = await ctx.settings();
      return {
        premod: story.premod,
        liveUpdates: story.liveUpdates ?? settings.liveUpdates,
        effectivePremod: story.premod ?? settings.premod,
      };
    },
    site: async (story, _args, ctx) => {
      const site = await findSiteById(ctx.db, story.siteId);
      if (!site) throw new ParleyError('NOT_FOUND', 'The story’s site no longer exists.');
      return site;
    },
  },

  Comment: {
    // A reader told of a removal (commentUpdated), or shown a tombstone, learns only that it was
    // removed: no body, no author.
    body: (comment, _args, ctx) => (canSeeComment(comment, ctx) ? comment.bodyHtml : ''),
    author: (comment, _args, ctx) =>
      (isRemoved(comment) && !isModerator(ctx.staff)) || comment.deletedAt !== null
        ? null
        : ctx.loaders.user.load(comment.authorId),
    removed: (comment) => isRemoved(comment),
    // Like the status: why a tombstone is one (its author deleted it, or a moderator removed it)
    // is for its author and the moderators.
    deletedAt: (comment, _args, ctx) =>
      ctx.viewer?.id === comment.authorId || isModerator(ctx.staff) ? comment.deletedAt : null,
    // Why a comment left the thread (rejected, withheld, pending) is for its author and the
    // moderators; anyone else sees a removed comment as NONE, with `removed` set.
    status: (comment, _args, ctx) =>
      isRemoved(comment) && ctx.viewer?.id !== comment.authorId && !isModerator(ctx.staff)
        ? 'NONE'
        : comment.status,
    parent: async (comment, _args, ctx) => {
      if (!comment.parentId) return null;
      const parent = await ctx.loaders.comment.load(comment.parentId);
      return parent && canSeeComment(parent, ctx) ? parent : null;
    },
    // The first page of every comment's replies comes from one batched query; later pages
    // (with a cursor) page through listReplies.
    replies: (comment, args, ctx) =>
      args.after
        ? listReplies(ctx.db, comment.id, args)
        : ctx.loaders.firstReplies.load(`${pageSize(args.first)}:${comment.id}`),
    editableUntil: async (comment, _args, ctx) => editableUntil(comment, await ctx.settings()),
    // PINNED is the story's word (stories.pinned_comment_id), never stored with the tags; a
    // removed comment (a tombstone) is pinned for nobody.
    tags: async (comment, _args, ctx) => {
      const tags = comment.tags.filter((tag) => tag !== 'PINNED');
      if (comment.parentId !== null || isRemoved(comment)) return tags;
      const story = await ctx.loaders.story.load(comment.storyId);
      return story?.pinnedCommentId === comment.id ? [...tags, 'PINNED' as const] : tags;
    },
    viewerReacted: async (comment, _args, ctx) =>
      (await ctx.loaders.viewerVote.load(comment.id)) === 1,
    viewerVote: async (comment, _args, ctx) => VOTES[await ctx.loaders.viewerVote.load(comment.id)],
    score: (comment) => comment.reactionCount - comment.downvoteCount,
    story: async (comment, _args, ctx) => {
      const story = await ctx.loaders.story.load(comment.storyId);
      if (!story) throw new ParleyError('NOT_FOUND', 'The comment’s story no longer exists.');
      return story;
    },
    // The author needs the source to edit; moderators to judge.
    bodySource: (comment, _args, ctx) =>
      ctx.viewer?.id === comment.authorId || isModerator(ctx.staff) ? comment.bodySource : null,
    heldBecause: forModerators((comment) => comment.heldBecause ?? []),
    spamScore: forModerators((comment) => comment.spamScore),
    reports: forModerators((comment, ctx) => listReports(ctx.db, comment.id)),
    revisions: forModerators(async (comment, ctx) =>
      (await listRevisions(ctx.db, comment.id)).map((revision) => ({
        bodySource: revision.body_source,
        body: revision.body_html,
        createdAt: revision.created_at,
      })),
    ),
  },

  Report: {
    reporter: (report, _args, ctx) => ctx.loaders.user.load(report.user_id),
    createdAt: (report) => report.created_at,
  },

  Site: {
    embedSnippet: (_site, _args, ctx) => embedSnippet(ctx.publicUrl),
    recentSnippet: (site, _args, ctx) => recentSnippet(ctx.publicUrl, site.id),
    ssoKeys: async (site, _args, ctx) =>
      hasRole(ctx.staff, 'ADMIN')
        ? (await listActiveSsoKeys(ctx.db, site.id, ctx.now().toISOString())).map((key) => ({
            id: key.id,
            createdAt: key.createdAt,
            expiresAt: key.expiresAt,
            revoked: key.revoked,
            secret: null, // shown once, when created or rotated
          }))
        : null,
  },

  Settings: {
    guidelinesHtml: (settings) => (settings.guidelines ? renderComment(settings.guidelines) : ''),
    bannedWords: (settings, _args, ctx) => (isModerator(ctx.staff) ? settings.bannedWords : null),
    suspectWords: (settings, _args, ctx) => (isModerator(ctx.staff) ? settings.suspectWords : null),
    spamFilter: (settings, _args, ctx) => (isModerator(ctx.staff) ? settings.spamFilter : null),
    spamThreshold: (settings, _args, ctx) =>
      isModerator(ctx.staff) ? settings.spamThreshold : null,
    ...smtpResolvers,
  },
} satisfies Resolvers;
