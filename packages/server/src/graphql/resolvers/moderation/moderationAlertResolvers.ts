/**
 * Moderators' email alerts in the API (moderation/moderationAlerts.ts): the viewer's choice per
 * site, and the emails' one-time Approve / Reject links, read by their page and used by its button.
 */
import { waitingQueue } from '../../../db/store/storyCounts';
import {
  findModerationLink,
  alertsOf,
  setAlert,
  spendModerationLink,
} from '../../../db/store/moderationAlerts';
import type { StoredModerationLink } from '../../../db/store/moderationAlerts';
import { findCommentById } from '../../../db/store/comments';
import { findSiteById, listSites } from '../../../db/store/sites';
import { findUserById } from '../../../db/store/users';
import { linkHolderValid, moderationLinkView } from '../../../moderation/moderationAlerts';
import type { ModerationLinkView } from '../../../moderation/moderationAlerts';
import { ParleyError } from '../../../ParleyError';
import type { ParleyContext } from '../../context';
import { hasRole, requireRole } from '../../permissions';
import type { Resolvers } from '../resolverTypes.generated';
import { decide } from './commentDecisions';

/** The link `token` opens, live: `TOKEN_INVALID` when unknown, `TOKEN_EXPIRED` when late. */
async function requireLink(ctx: ParleyContext, token: string): Promise<StoredModerationLink> {
  const link = token.length > 200 ? undefined : await findModerationLink(ctx.db, token);
  if (!link) {
    throw new ParleyError('TOKEN_INVALID', 'This link is not one Parley sent, or was replaced.');
  }
  if (link.expiresAt <= ctx.now().toISOString()) {
    throw new ParleyError('TOKEN_EXPIRED', 'This link has expired: decide in the console.');
  }
  return link;
}

async function viewOf(ctx: ParleyContext, link: StoredModerationLink): Promise<ModerationLinkView> {
  const view = await moderationLinkView(ctx.db, link, ctx.now());
  if (!view) throw new ParleyError('TOKEN_INVALID', 'The comment of this link is gone.');
  return view;
}

/** The emails' links: authorized by their token, not a session (merged beside the account area's). */
export const moderationLinkResolvers = {
  Query: {
    moderationLink: async (_root, { token }, ctx) => viewOf(ctx, await requireLink(ctx, token)),
  },

  Mutation: {
    // Needs no session: the link is the moderator's authority for this one comment. It acts once,
    // while the comment waits and its moderator may moderate; otherwise it answers what stands.
    useModerationLink: async (_root, { input }, ctx) => {
      const link = await requireLink(ctx, input.token);
      const moderator = await findUserById(ctx.db, link.userId);
      const now = ctx.now();
      if (!moderator || !(await linkHolderValid(ctx.db, link, moderator, now))) {
        throw new ParleyError(
          'TOKEN_INVALID',
          'This link no longer works: its moderator signed out everywhere or may not moderate now.',
        );
      }
      const comment = await findCommentById(ctx.db, link.commentId);
      if (
        comment &&
        waitingQueue(comment) !== null &&
        (await spendModerationLink(ctx.db, link, now))
      ) {
        // As the moderator the link was made for: their decision, in their history.
        const asModerator: ParleyContext = {
          ...ctx,
          viewer: moderator,
          staff: moderator,
          staffAccess: 'GRANTED',
          session: null,
          apiToken: null,
        };
        await decide(asModerator, comment.id, link.action === 'APPROVE' ? 'APPROVED' : 'REJECTED');
      }
      return { link: await viewOf(ctx, (await findModerationLink(ctx.db, input.token)) ?? link) };
    },
  },
} satisfies Resolvers;

/** The viewer's alerts (moderators). */
export const moderationAlertResolvers = {
  Mutation: {
    setModerationAlert: async (_root, { input }, ctx) => {
      const moderator = requireRole(ctx, 'MODERATOR');
      if (!(await findSiteById(ctx.db, input.siteId))) {
        throw new ParleyError('NOT_FOUND', 'No such site.', { field: 'siteId' });
      }
      const alert = await setAlert(
        ctx.db,
        { userId: moderator.id, siteId: input.siteId, frequency: input.frequency },
        ctx.now(),
      );
      return { alert };
    },
  },

  User: {
    moderationAlerts: async (user, _args, ctx) => {
      if (ctx.viewer?.id !== user.id || !hasRole(ctx.staff, 'MODERATOR')) return null;
      const [sites, alerts] = await Promise.all([listSites(ctx.db), alertsOf(ctx.db, user.id)]);
      return sites.map(
        (site) =>
          alerts.find((a) => a.siteId === site.id) ?? {
            userId: user.id,
            siteId: site.id,
            frequency: 'OFF' as const,
            lastDigestAt: null,
          },
      );
    },
  },

  ModerationAlert: {
    site: async (alert, _args, ctx) => {
      const site = await findSiteById(ctx.db, alert.siteId);
      if (!site) throw new ParleyError('NOT_FOUND', 'No such site.');
      return site;
    },
  },
} satisfies Resolvers;
