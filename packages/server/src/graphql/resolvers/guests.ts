/**
 * Guest comments (store/guests.ts, guestAccess.ts), claiming them later, and the address-range
 * bans moderators put on guests (store/ipBans.ts).
 */
import { refuseHoneypot, requireBotCheck } from '../../auth/botCheck';
import { foldSpamLessonsLater } from './moderation/commentDecisions';
import { ParleyError } from '../../ParleyError';
import { inTransaction } from '../../db/inTransaction';
import {
  claimGuestComments,
  countClaimableComments,
  createGuest,
  isGuestNameFree,
  validateGuestName,
} from '../../db/store/guests';
import {
  createIpBan,
  isActiveBan,
  liftIpBan,
  listIpBans,
  normalizeRange,
  suggestedRange,
} from '../../db/store/ipBans';
import { getOrganization } from '../../db/store/organization';
import { deleteAccount } from '../../db/store/accountDeletion';
import { removeImageFiles } from '../../uploads/commentImages';
import { findUserById, updateUser } from '../../db/store/users';
import { validateEmail, validateLocale } from '../../validation/validateAccount';
import { audit } from '../audit';
import { ipKey } from '../context';
import { invalidateEveryRead } from '../events';
import { requireAddressNotBanned, requireGuestComments } from '../guestAccess';
import { hasRole, isOwnAccount, requireRole, requireViewer } from '../permissions';
import { authPayload, rememberLocale } from './auth';
import { deliverNotice } from './account/accountEmails';
import { freshConfirmationMessage } from './account/profileMutations';
import type { Resolvers } from './resolverTypes.generated';

/** Longest reason a moderator gives for a range ban. */
export const IP_BAN_REASON_MAX_LENGTH = 500;
/** Longest range ban, in hours (a year). */
export const IP_BAN_MAX_HOURS = 8760;

function banTarget(range: string, id: string) {
  return { type: 'ip_ban', id, label: range };
}

export const guestResolvers = {
  Query: {
    ipBans: (_root, args, ctx) => {
      requireRole(ctx, 'MODERATOR');
      return listIpBans(ctx.db, { first: args.first, after: args.after });
    },
  },

  Mutation: {
    startGuestSession: async (_root, { input }, ctx) => {
      if (!(await getOrganization(ctx.db))) {
        throw new ParleyError('NOT_INSTALLED', 'Parley is not installed yet.');
      }
      await requireGuestComments(ctx);
      await requireAddressNotBanned(ctx, { strict: true });
      // The form first (a typo costs nothing), then the limit, then whether the name is taken
      // (a question about members, which the limit keeps from being asked without end).
      const name = validateGuestName(input.name);
      const locale = validateLocale(input.locale);
      const typed = input.email?.trim() ?? '';
      const email = typed === '' ? null : validateEmail(typed);
      // Bots before content (auth/botCheck.ts): the trap, then the work, made for this address.
      refuseHoneypot(input);
      await requireBotCheck(ctx, `guest:${ipKey(ctx)}`, input);
      await ctx.rateLimiter.consume('guestSession', ipKey(ctx));
      if (!(await isGuestNameFree(ctx.db, name))) {
        throw new ParleyError(
          'GUEST_NAME_TAKEN',
          'That name is, or looks like, a member’s username. Choose another, or sign in.',
          { field: 'name' },
        );
      }
      // Each address gets a link: as few as a sign-up's, so nobody's inbox is a target.
      if (email !== null) await ctx.rateLimiter.consume('signUpPerEmail', `email:${email.key}`);
      const created = await createGuest(ctx.db, {
        name,
        email: email?.address ?? null,
        ip: ctx.ip ?? null,
        now: ctx.now(),
      });
      const guest = await rememberLocale(ctx, created, locale);
      if (email !== null) await deliverNotice(ctx, await freshConfirmationMessage(ctx, guest));
      return authPayload(ctx, guest);
    },

    claimGuestComments: async (_root, _args, ctx) => {
      const member = requireViewer(ctx);
      if (!member.emailVerified) {
        throw new ParleyError(
          'FORBIDDEN',
          'Confirm your email first: guests’ comments go to the account that confirmed their address.',
        );
      }
      const { claimed, storyIds } = await claimGuestComments(ctx.db, member);
      // Names changed on published comments, anywhere: cached answers would show the guest.
      if (storyIds.length > 0) invalidateEveryRead(ctx);
      return { claimed, user: member };
    },

    eraseGuest: async (_root, { input }, ctx) => {
      const admin = requireRole(ctx, 'ADMIN');
      const guest = await findUserById(ctx.db, input.userId);
      if (guest === undefined) {
        throw new ParleyError('NOT_FOUND', 'There is no such user.', { field: 'userId' });
      }
      if (!guest.guest) {
        throw new ParleyError(
          'INVALID_INPUT',
          'Only a guest is erased here: a member deletes their own account from their profile.',
          { field: 'userId' },
        );
      }
      const now = ctx.now();
      // As if they had asked and the grace period were over: the deletion job's one path.
      if (guest.deletionRequestedAt === null) {
        await updateUser(ctx.db, guest.id, { deletionRequestedAt: now.toISOString() });
      }
      const erased = await deleteAccount(ctx.db, guest.id, now, now, {
        id: admin.id,
        username: admin.username,
      });
      if (erased !== undefined) {
        await removeImageFiles(ctx, erased.imageNames);
        foldSpamLessonsLater(ctx);
        invalidateEveryRead(ctx);
      }
      return { user: await findUserById(ctx.db, guest.id) };
    },

    banIpRange: async (_root, { input }, ctx) => {
      const moderator = requireRole(ctx, 'MODERATOR');
      const range = normalizeRange(input.range);
      if (!Number.isInteger(input.hours) || input.hours < 1 || input.hours > IP_BAN_MAX_HOURS) {
        throw new ParleyError('INVALID_INPUT', `1 to ${IP_BAN_MAX_HOURS} hours.`, {
          field: 'hours',
        });
      }
      const reason = input.reason?.trim() ?? '';
      if ([...reason].length > IP_BAN_REASON_MAX_LENGTH) {
        throw new ParleyError('INVALID_INPUT', `At most ${IP_BAN_REASON_MAX_LENGTH} characters.`, {
          field: 'reason',
        });
      }
      const now = ctx.now();
      const ipBan = await inTransaction(ctx.db, async (trx) => {
        const ban = await createIpBan(trx, {
          range,
          reason,
          expiresAt: new Date(now.getTime() + input.hours * 3_600_000),
          createdBy: moderator.id,
          now,
        });
        await audit(ctx, trx, 'IP_BAN', banTarget(range, ban.id), [
          { field: 'expiresAt', before: null, after: ban.expiresAt },
          { field: 'reason', before: null, after: reason },
        ]);
        return ban;
      });
      return { ipBan };
    },

    liftIpBan: async (_root, { input }, ctx) => {
      requireRole(ctx, 'MODERATOR');
      const ipBan = await inTransaction(ctx.db, async (trx) => {
        const ban = await liftIpBan(trx, input.id, ctx.now());
        if (ban.liftedAt !== null) {
          await audit(ctx, trx, 'IP_BAN_LIFT', banTarget(ban.range, ban.id), [
            { field: 'liftedAt', before: null, after: ban.liftedAt },
          ]);
        }
        return ban;
      });
      return { ipBan };
    },
  },

  User: {
    isGuest: (user) => user.guest,
    // The address itself to admins only, as issue 19 has it: it is personal data. The network
    // to ban, which tells less, to moderators, who ban ranges (and see them in the list).
    ipAddress: (user, _args, ctx) => (hasRole(ctx.staff, 'ADMIN') ? user.ipAddress : null),
    suggestedBanRange: (user, _args, ctx) =>
      hasRole(ctx.staff, 'MODERATOR') && user.ipAddress !== null
        ? suggestedRange(user.ipAddress)
        : null,
    claimableGuestComments: (user, _args, ctx) =>
      isOwnAccount(ctx, user) ? countClaimableComments(ctx.db, user) : null,
  },

  IpBan: {
    createdBy: async (ban, _args, ctx) =>
      ban.createdBy === null ? null : ((await ctx.loaders.user.load(ban.createdBy)) ?? null),
    active: (ban, _args, ctx) => isActiveBan(ban, ctx.now()),
  },
} satisfies Resolvers;
