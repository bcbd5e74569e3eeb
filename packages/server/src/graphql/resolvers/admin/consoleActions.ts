/**
 * Admin actions the console needs beyond settings and sites: revoking one SSO key, a test email,
 * inviting a moderator; and the per-story queue counts of the Stories table.
 */
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../../auth/passwords';
import { USER_ACTIONS } from '../../../db/store/dashboardQueries';
import { findSiteById, listActiveSsoKeys, revokeSsoKey } from '../../../db/store/sites';
import type { Story } from '../../../db/store/stories';
import { moderateUser } from '../../../db/store/userModeration';
import { createUser, findUserByEmail } from '../../../db/store/users';
import type { User } from '../../../db/store/users';
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '../../../defaults';
import { isParleyError, ParleyError } from '../../../ParleyError';
import { validateEmail } from '../../../validation/validateAccount';
import type { ParleyContext } from '../../context';
import { isModerator, requireRole } from '../../permissions';
import { ACCOUNT_PATHS, deliverNotice, tokenLink } from '../account/accountEmails';
import { queueCounts } from '../moderation/queueQueries';

type Input<T> = { input: T };

/** Roles an invitation raises to moderator; a moderator or admin keeps their role. */
const BELOW_MODERATOR = new Set(['COMMENTER', 'STAFF']);

/** A free username from the address's local part: `ada.l@x` → `ada.l`, then `ada.l_4821`… */
async function createInvitedUser(ctx: ParleyContext, address: string): Promise<User> {
  const base = (address.split('@')[0] ?? '').replace(/[^\p{L}\p{N}_.]/gu, '');
  const stem = base.padEnd(USERNAME_MIN_LENGTH, '_').slice(0, USERNAME_MAX_LENGTH - 5);
  // An unusable random password: "forgot password" then works for the invitee once the
  // set-password link has expired (an account without a hash is treated as SSO-only).
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  for (let attempt = 0; ; attempt += 1) {
    const username = attempt === 0 ? stem : `${stem}_${randomBytes(2).readUInt16BE() % 10_000}`;
    try {
      return await createUser(ctx.db, {
        username,
        email: address,
        passwordHash,
        role: 'MODERATOR',
      });
    } catch (error) {
      if (attempt < 5 && isParleyError(error) && error.code === 'USERNAME_TAKEN') continue;
      throw error;
    }
  }
}

/** Resolvers of the console's extra admin actions. */
export const consoleActionResolvers = {
  Mutation: {
    revokeSsoKey: async (
      _root: unknown,
      { input }: Input<{ siteId: string; keyId: string }>,
      ctx: ParleyContext,
    ) => {
      requireRole(ctx, 'ADMIN');
      const site = await findSiteById(ctx.db, input.siteId);
      if (site === undefined) throw new ParleyError('NOT_FOUND', `No site ${input.siteId}.`);
      // Only a key of this site: a key id from another site must not be revocable through it.
      const keys = await listActiveSsoKeys(ctx.db, site.id, ctx.now().toISOString());
      if (!keys.some((key) => key.id === input.keyId)) {
        throw new ParleyError('NOT_FOUND', `No active key ${input.keyId} on this site.`, {
          field: 'keyId',
        });
      }
      await revokeSsoKey(ctx.db, input.keyId);
      return { site };
    },

    // Awaited, unlike account emails: the admin asked to see whether delivery works, so a
    // transport failure is the answer (INTERNAL, logged) rather than something to hide.
    sendTestEmail: async (_root: unknown, _args: unknown, ctx: ParleyContext) => {
      const admin = requireRole(ctx, 'ADMIN');
      const organization = await ctx.organization();
      try {
        await ctx.mailer.send({
          to: admin.email,
          subject: `${organization?.name ?? 'Parley'}: test email`,
          text: `Hello ${admin.username},\n\nthis is a test email from Parley. Delivery works.\n`,
        });
      } catch (error) {
        ctx.logger.error({ err: error }, 'Could not send a test email');
        throw new ParleyError('INTERNAL', 'The mail transport refused the message.');
      }
      return { ok: true };
    },

    inviteModerator: async (
      _root: unknown,
      { input }: Input<{ email: string }>,
      ctx: ParleyContext,
    ) => {
      const admin = requireRole(ctx, 'ADMIN');
      const { address } = validateEmail(input.email);
      const existing = await findUserByEmail(ctx.db, address);
      // An unverified account with the address may belong to anyone who signed up with it first:
      // it is not promoted as it is (its password would then open the console to them).
      if (existing !== undefined && !existing.emailVerified && BELOW_MODERATOR.has(existing.role)) {
        throw new ParleyError(
          'INVALID_INPUT',
          'An account with this address exists but its address is not confirmed; ask its owner to confirm it first.',
          { field: 'email' },
        );
      }
      if (existing !== undefined) {
        if (!BELOW_MODERATOR.has(existing.role)) return { user: existing };
        const user = await moderateUser(ctx.db, {
          userId: existing.id,
          actorId: admin.id,
          action: USER_ACTIONS.ROLE,
          role: 'MODERATOR',
          message: `${existing.role} → MODERATOR (invited)`,
        });
        await deliverNotice(ctx, {
          to: user.email,
          subject: 'You are now a moderator',
          text: `Hello ${user.username},\n\nyou can now moderate at ${ctx.publicUrl}/admin\n`,
        });
        return { user };
      }
      const user = await createInvitedUser(ctx, address);
      const link = await tokenLink(ctx, user, 'RESET_PASSWORD', ACCOUNT_PATHS.resetPassword);
      await deliverNotice(ctx, {
        to: user.email,
        subject: 'You are invited to moderate',
        text:
          `Hello,\n\n${admin.username} invited you to moderate as ${user.username}. Choose a ` +
          `password here:\n\n${link}\n\nIf the link has expired, use “Forgot password” at ` +
          `${ctx.publicUrl}/admin/login\n`,
      });
      return { user };
    },
  },

  Story: {
    moderationCounts: (story: Story, _args: unknown, ctx: ParleyContext) =>
      isModerator(ctx.viewer) ? queueCounts(ctx.db, { storyId: story.id }) : null,
  },
};
