/**
 * Admin actions the console needs beyond settings and sites: revoking one SSO key, a test email,
 * inviting a moderator; and the per-story queue counts of the Stories table.
 */
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../../auth/passwords';
import { findSiteById, listActiveSsoKeys, revokeSsoKey } from '../../../db/store/sites';
import { createToken } from '../../../db/store/tokens';
import { createUser, findUserByEmail } from '../../../db/store/users';
import type { User } from '../../../db/store/users';
import {
  MODERATOR_INVITE_TOKEN_TTL_SECONDS,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from '../../../defaults';
import { isParleyError, ParleyError } from '../../../ParleyError';
import { validateEmail } from '../../../validation/validateAccount';
import type { ParleyContext } from '../../context';
import { isModerator, requireRole } from '../../permissions';
import { ACCOUNT_PATHS, deliverNotice } from '../account/accountEmails';
import { queueCounts } from '../moderation/queueQueries';
import type { Resolvers } from '../resolverTypes.generated';
import { inTransaction } from '../../../db/inTransaction';
import { audit, userTarget } from '../../audit';
import { siteTarget } from './siteAdmin';
import { email, recipient } from '../../../email/templates';

/** Roles an invitation raises to moderator; a moderator or admin keeps their role. */
export const BELOW_MODERATOR = new Set(['COMMENTER', 'STAFF']);

/**
 * A commenter account for an invited address that has none, so the invitation has an account to
 * name; it becomes a moderator when the link is opened. Its username comes from the address's
 * local part: `ada.l@x` → `ada.l`, then `ada.l_4821`…
 */
async function createInvitedUser(ctx: ParleyContext, address: string): Promise<User> {
  const base = (address.split('@')[0] ?? '').replace(/[^\p{L}\p{N}_.]/gu, '');
  const stem = base.padEnd(USERNAME_MIN_LENGTH, '_').slice(0, USERNAME_MAX_LENGTH - 5);
  // An unusable random password: "forgot password" then works for the invitee (an account
  // without a hash is treated as SSO-only).
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  for (let attempt = 0; ; attempt += 1) {
    const username = attempt === 0 ? stem : `${stem}_${randomBytes(2).readUInt16BE() % 10_000}`;
    try {
      return await createUser(ctx.db, {
        username,
        email: address,
        passwordHash,
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
    revokeSsoKey: async (_root, { input }, ctx) => {
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
      await inTransaction(ctx.db, async (trx) => {
        await revokeSsoKey(trx, input.keyId);
        await audit(ctx, trx, 'SSO_KEY_REVOKE', siteTarget(site), [
          { field: 'revokedKeyIds', before: null, after: [input.keyId] },
        ]);
      });
      return { site };
    },

    // Awaited, unlike account emails: the admin asked to see whether delivery works, so a
    // transport failure is the answer (INTERNAL, logged) rather than something to hide.
    sendTestEmail: async (_root, _args, ctx) => {
      const admin = requireRole(ctx, 'ADMIN');
      const organization = await ctx.organization();
      try {
        // Not queued: the admin asks whether delivery works now, and a failure is the answer.
        await ctx.mailer.send(
          email('testEmail', recipient(admin.email, admin, organization), {
            username: admin.username,
            organization: organization?.name ?? 'Parley',
          }),
          { retry: false },
        );
      } catch (error) {
        ctx.logger.error({ err: error }, 'Could not send a test email');
        throw new ParleyError('INTERNAL', 'The mail transport refused the message.');
      }
      return { ok: true };
    },

    // The role is granted only when the addressee opens the emailed link and chooses a password
    // (acceptModeratorInvite): an address stored on an account proves nothing by itself. An
    // unconfirmed one may be anyone's sign-up; an SSO account's was asserted by a site's key,
    // which the owner of another site on this install controls, and could so take the role.
    // Choosing the password ends every other session of the account, so whoever knew the old one
    // is out.
    inviteModerator: async (_root, { input }, ctx) => {
      const admin = requireRole(ctx, 'ADMIN');
      const { address } = validateEmail(input.email);
      const existing = await findUserByEmail(ctx.db, address);
      if (existing !== undefined && existing.ssoSiteId !== null) {
        throw new ParleyError(
          'INVALID_INPUT',
          'This address belongs to an account a site signs in through single sign-on: a site ' +
            'vouches for its own readers, not for who owns the address. Invite another address.',
          { field: 'email' },
        );
      }
      if (existing !== undefined && !BELOW_MODERATOR.has(existing.role)) return { user: existing };
      const user = existing ?? (await createInvitedUser(ctx, address));
      const { token } = await inTransaction(ctx.db, async (trx) => {
        const created = await createToken(trx, {
          purpose: 'MODERATOR_INVITE',
          userId: user.id,
          ttlSeconds: MODERATOR_INVITE_TOKEN_TTL_SECONDS,
          createdBy: admin.id,
        });
        await audit(ctx, trx, 'USER_INVITE', userTarget(user), [
          { field: 'invitedAs', before: user.role, after: 'MODERATOR' },
        ]);
        return created;
      });
      await deliverNotice(
        ctx,
        // The invitee's language when known, else the site's (README, "Emails").
        email('moderatorInvite', recipient(user.email, user, await ctx.organization()), {
          admin: admin.username,
          username: user.username,
          link: `${ctx.publicUrl}${ACCOUNT_PATHS.acceptInvite}#token=${token}`,
        }),
      );
      return { user };
    },
  },

  Story: {
    moderationCounts: (story, _args, ctx) =>
      isModerator(ctx.staff) ? queueCounts(ctx.db, { storyId: story.id }) : null,
  },
} satisfies Resolvers;
