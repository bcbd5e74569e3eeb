/**
 * Two-factor sign-in for moderators and admins (enrol, recovery codes, turn off) and the signed-in
 * devices of every account (list, end one). The sign-in's own second step is `signInSecondFactor`
 * (resolvers/auth.ts); what a session without it may do is `StaffAccess` (graphql/context.ts).
 *
 * Decisions: two-factor sign-in is for staff (what it protects is moderation and configuration);
 * commenters keep their password and emailed links. Enrolment needs a password account — the
 * second step follows a password — and that password (a session alone is not enough); its
 * confirmation ends every other session, as a password change does. SSO staff are signed in by
 * their site, which answers for their second factor: nothing is asked of them here. Turning it off takes a code (a recovery code too: the app may be
 * what was lost) and is refused while the organization requires it; an admin who loses both the
 * app and the recovery codes is reset with `parley reset-password`'s sibling in the CLI.
 */
import { totpEnrolment } from '../../../auth/twoFactor';
import {
  confirmEnrolment,
  disableTwoFactor,
  replaceRecoveryCodes,
  startEnrolment,
  twoFactorState,
} from '../../../db/store/twoFactor';
import { endSession, listSessions } from '../../../db/store/sessions';
import { findUserById } from '../../../db/store/users';
import type { User } from '../../../db/store/users';
import { ParleyError } from '../../../ParleyError';
import type { ParleyContext } from '../../context';
import { isModerator, isOwnAccount, requireViewer } from '../../permissions';
import { authPayload } from '../auth';
import type { Resolvers } from '../resolverTypes.generated';
import { spendSecondFactor } from './secondFactor';
import { inTransaction } from '../../../db/inTransaction';
import { audit, userTarget } from '../../audit';
import { REDACTED } from '../../../db/store/auditLog';
import { checkPassword } from './profileMutations';

/** The signed-in moderator or admin with a password; else a coded error. */
function requireStaffWithPassword(ctx: ParleyContext): User {
  const viewer = requireViewer(ctx);
  if (!isModerator(viewer)) {
    throw new ParleyError('FORBIDDEN', 'Two-factor sign-in is for moderators and admins.');
  }
  if (viewer.ssoSiteId !== null) {
    throw new ParleyError(
      'FORBIDDEN',
      'This account signs in through its site (SSO): its second factor is the site’s to ask.',
    );
  }
  if (viewer.passwordHash === null) {
    // Signed in with a provider (GitHub, OIDC): enrolment is confirmed with a password.
    throw new ParleyError(
      'FORBIDDEN',
      'Set a password first (“Forgot your password?” on the sign-in page), then set up two-factor sign-in.',
    );
  }
  return viewer;
}

/** The viewer, fresh from the database (after a change to their two-factor state). */
async function reloaded(ctx: ParleyContext, user: User): Promise<User> {
  const fresh = await findUserById(ctx.db, user.id);
  if (!fresh) throw new ParleyError('NOT_FOUND', 'There is no such user.');
  ctx.viewer = fresh;
  return fresh;
}

function alreadyOn(): ParleyError {
  return new ParleyError(
    'INVALID_INPUT',
    'Two-factor sign-in is on already: turn it off first to move it to another app.',
  );
}

function notOn(): ParleyError {
  return new ParleyError('INVALID_INPUT', 'Two-factor sign-in is not on for this account.');
}

export const twoFactorResolvers = {
  Mutation: {
    // The password, not only a session: someone holding a stolen token must not be able to put
    // their own app on the account (and lock its owner out with it).
    startTwoFactorEnrolment: async (_root, { input }, ctx) => {
      const viewer = requireStaffWithPassword(ctx);
      if (viewer.twoFactorEnabled) throw alreadyOn();
      await checkPassword(ctx, viewer, input.password, 'password');
      const secret = await startEnrolment(ctx.db, ctx.box, viewer.id);
      const issuer = (await ctx.organization())?.name || 'Parley';
      return totpEnrolment(secret, viewer.email, issuer);
    },

    // The first code proves the app holds the secret. The session goes on with a token that
    // passed the second factor: this request proved it.
    confirmTwoFactorEnrolment: async (_root, { input }, ctx) => {
      const viewer = requireStaffWithPassword(ctx);
      if (viewer.twoFactorEnabled) throw alreadyOn();
      const spent = await spendSecondFactor(ctx, viewer, input.code, 'app', { pending: true });
      const recoveryCodes = await inTransaction(ctx.db, async (trx) => {
        const codes =
          spent.kind === 'app'
            ? await confirmEnrolment(trx, viewer.id, spent.sealed, ctx.now())
            : undefined;
        if (codes === undefined) {
          throw new ParleyError(
            'TWO_FACTOR_CODE_INVALID',
            'This set-up was replaced by a newer one (another tab?): start again.',
            { field: 'code' },
          );
        }
        await audit(ctx, trx, 'TWO_FACTOR_ENABLE', userTarget(viewer), [
          { field: 'twoFactorEnabled', before: false, after: true },
        ]);
        return codes;
      });
      const user = await reloaded(ctx, viewer);
      const { token } = await authPayload(ctx, user, true);
      return { recoveryCodes, user, token };
    },

    regenerateRecoveryCodes: async (_root, { input }, ctx) => {
      const viewer = requireStaffWithPassword(ctx);
      if (!viewer.twoFactorEnabled) throw notOn();
      await spendSecondFactor(ctx, viewer, input.code, 'app');
      const recoveryCodes = await inTransaction(ctx.db, async (trx) => {
        const codes = await replaceRecoveryCodes(trx, viewer.id, ctx.now());
        await audit(ctx, trx, 'RECOVERY_CODES_REGENERATE', userTarget(viewer), [
          { field: 'recoveryCodes', before: REDACTED, after: REDACTED },
        ]);
        return codes;
      });
      return { recoveryCodes, user: viewer, token: null };
    },

    disableTwoFactor: async (_root, { input }, ctx) => {
      const viewer = requireViewer(ctx);
      if (!viewer.twoFactorEnabled) throw notOn();
      if (isModerator(viewer) && (await ctx.settings()).requireStaffTwoFactor) {
        throw new ParleyError(
          'FORBIDDEN',
          'Your organization requires two-factor sign-in of staff: it cannot be turned off.',
        );
      }
      const spent = await spendSecondFactor(ctx, viewer, input.code, 'appOrRecovery');
      await inTransaction(ctx.db, async (trx) => {
        await disableTwoFactor(trx, viewer.id);
        await audit(ctx, trx, 'TWO_FACTOR_DISABLE', userTarget(viewer), [
          { field: 'twoFactorEnabled', before: true, after: false },
          {
            field: 'confirmedWith',
            before: null,
            after: spent.kind === 'app' ? 'app' : 'recovery code',
          },
        ]);
      });
      return { user: await reloaded(ctx, viewer) };
    },

    endSession: async (_root, { input }, ctx) => {
      const viewer = requireViewer(ctx);
      if (!(await endSession(ctx.db, viewer.id, input.id, ctx.now()))) {
        throw new ParleyError('NOT_FOUND', 'There is no such session (it may have ended).', {
          field: 'id',
        });
      }
      return { ok: true };
    },
  },

  User: {
    twoFactorEnabled: (user, _args, ctx) =>
      ctx.viewer?.id === user.id || ctx.staff?.role === 'ADMIN' ? user.twoFactorEnabled : null,
    recoveryCodesLeft: async (user, _args, ctx) =>
      isOwnAccount(ctx, user) ? (await twoFactorState(ctx.db, user.id)).recoveryCodesLeft : null,
    staffAccess: (user, _args, ctx) => (ctx.viewer?.id === user.id ? ctx.staffAccess : null),
    sessions: async (user, _args, ctx) => {
      if (!isOwnAccount(ctx, user)) return null;
      const sessions = await listSessions(ctx.db, user, ctx.now());
      return sessions.map((session) => ({
        ...session,
        current: session.id === ctx.session?.tokenId,
      }));
    },
  },
} satisfies Resolvers;
