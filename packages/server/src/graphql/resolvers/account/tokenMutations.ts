import { hashPassword } from '../../../auth/passwords';
import { clearAlerts } from '../../../db/store/moderationAlerts';
import { SsoKeyMismatchError, verifySsoToken } from '../../../auth/verifySsoToken';
import type { SsoPayload } from '../../../auth/verifySsoToken';
import type { TokenPurpose } from '../../../db/schema';
import { listUsableSsoKeysBySite, withdrawTokens } from '../../../db/store/accountQueries';
import { consumeToken } from '../../../db/store/tokens';
import { recordSsoTokenUse } from '../../../db/store/sessionRevocation';
import { findSiteById } from '../../../db/store/sites';
import { SSO_TOKEN_MAX_LIFETIME_SECONDS } from '../../../defaults';
import { recordAudit } from '../../../db/store/auditLog';
import { inTransaction } from '../../../db/inTransaction';
import { USER_ACTIONS } from '../../../db/store/dashboardQueries';
import { moderateUser } from '../../../db/store/userModeration';
import {
  findUserByEmail,
  findUserById,
  requireUser,
  updateUser,
  upsertSsoUser,
  isPlaceholderAddress,
} from '../../../db/store/users';
import { ParleyError } from '../../../ParleyError';
import {
  validateEmail,
  validateLocale,
  validatePassword,
  validateUsername,
} from '../../../validation/validateAccount';
import type { ParleyContext } from '../../context';
import { authPayload, rememberLocale } from '../auth';
import { BELOW_MODERATOR } from '../admin/consoleActions';
import { ACCOUNT_PATHS, resetPasswordMessage, tokenLink } from './accountEmails';
import { NOTIFICATION_KEYS } from './profileMutations';
import { exportUserComments } from '../../../db/store/accountQueries';
import { ipKey } from '../../context';
import type { MutationResolvers } from '../resolverTypes.generated';

/**
 * Finds the site whose keys signed `token` and returns it with the verified payload.
 *
 * The token names no site (the documented payload is `{ user, iat, exp }`), so every site's usable
 * keys are tried, loaded in one query. An install has a handful of sites with one or two keys
 * each, so this is a few HMACs — cheaper than asking hosts to add a claim they would get wrong.
 * HMAC keys are random 256-bit secrets, so two sites cannot both verify one token.
 */
async function verifyForSomeSite(
  ctx: ParleyContext,
  token: string,
): Promise<{ siteId: string; payload: SsoPayload }> {
  const now = ctx.now();
  const keysBySite = await listUsableSsoKeysBySite(ctx.db, ctx.box, now.toISOString(), (siteId) =>
    ctx.logger.warn(
      { siteId },
      'An SSO key opens with no key of this process (PARLEY_SECRET differs from the one it was sealed with): skipped',
    ),
  );
  for (const [siteId, keys] of keysBySite) {
    try {
      const payload = await verifySsoToken(
        token,
        keys.map((key) => ({
          secret: key.secret,
          expiresAt: key.expiresAt === null ? null : new Date(key.expiresAt),
          revoked: false, // the query left revoked keys out
        })),
        now,
      );
      return { siteId, payload };
    } catch (error) {
      // A key mismatch only means "not this site's key"; every other refusal comes after a
      // good signature, so this site signed it: answer with that.
      if (error instanceof SsoKeyMismatchError) continue;
      throw error;
    }
  }
  throw new ParleyError('TOKEN_INVALID', 'The sign-in token is not valid for any site.', {
    field: 'token',
  });
}

/**
 * Uses an emailed token once; its failure becomes the API error the client shows. Answers its
 * user and who made the token (an invitation's admin), if not its user.
 */
async function useTokenOf(ctx: ParleyContext, purpose: TokenPurpose, token: string) {
  const result = await consumeToken(ctx.db, purpose, token.trim(), ctx.now().toISOString());
  if (!result.ok) {
    throw new ParleyError(
      result.code,
      result.code === 'TOKEN_EXPIRED'
        ? 'This link has expired; ask for a new one.'
        : 'This link is not valid, or was already used.',
      { field: 'token' },
    );
  }
  // The token row cascades with its user, so a consumed token always names one.
  return { user: await requireUser(ctx.db, result.userId), createdBy: result.createdBy };
}

/** Uses an emailed token once and answers its user (see {@link useTokenOf}). */
async function useToken(ctx: ParleyContext, purpose: TokenPurpose, token: string) {
  return (await useTokenOf(ctx, purpose, token)).user;
}

/**
 * The mutations that work signed out, because something else is the credential: the host's SSO
 * token, or an emailed single-use token (the person has forgotten their password, or opens the
 * link on another device).
 */
export const tokenMutations = {
  // A host's signed token in, a Parley session out.
  signInWithSso: async (_root, { input }, ctx) => {
    const token = input.token.trim();
    const locale = validateLocale(input.locale);
    if (token === '') {
      throw new ParleyError('INVALID_INPUT', 'The sign-in token is required.', { field: 'token' });
    }
    const { siteId, payload } = await verifyForSomeSite(ctx, token);
    const site = await findSiteById(ctx.db, siteId);
    const maxLifetime = site?.ssoTokenMaxLifetimeSeconds ?? SSO_TOKEN_MAX_LIFETIME_SECONDS;
    if (payload.exp - payload.iat > maxLifetime) {
      throw new ParleyError(
        'TOKEN_INVALID',
        `The sign-in token lives ${payload.exp - payload.iat} s (exp - iat); this site accepts at ` +
          `most ${maxLifetime} s. Sign tokens for a shorter time, or allow more in the site's settings.`,
        { field: 'token' },
      );
    }
    // One exchange per token: a token lifted from a page, a cache or a log signs nobody in. The
    // transport's retry of the same request (same Idempotency-Key) is not a replay.
    const use = await recordSsoTokenUse(ctx.db, {
      token,
      expiresAt: new Date(payload.exp * 1000),
      idempotencyKey: ctx.idempotencyKey,
      now: ctx.now(),
    });
    if (use === 'replay') {
      throw new ParleyError(
        'TOKEN_INVALID',
        'This sign-in token was already used. The host site must sign a new token for each page view.',
        { field: 'token' },
      );
    }
    // The host's values go through the same rules as a sign-up: a host bug must not store a
    // username the widget cannot show or an address mail cannot reach.
    const email = validateEmail(payload.user.email, 'token');
    const username = validateUsername(payload.user.username, 'token');
    const user = await upsertSsoUser(ctx.db, {
      siteId,
      ssoId: payload.user.id,
      email: email.address,
      username,
      badges: ssoBadges(payload.user.badges),
    });
    // The frame's language: the host's page, or its site's setting (emails follow it).
    return authPayload(ctx, await rememberLocale(ctx, user, locale));
  },

  requestPasswordReset: async (_root, { input }, ctx) => {
    const email = validateEmail(input.email);
    // Counted whether or not the account exists, so the limit reveals nothing. The per-address
    // count stops someone flooding a victim's inbox from many IPs. Keys of their own, so resets
    // do not eat into the sign-in attempts of the same person.
    await ctx.rateLimiter.consume('signIn', `reset:${ipKey(ctx)}`);
    await ctx.rateLimiter.consume('signIn', `reset:account:${email.key}`);
    const user = await findUserByEmail(ctx.db, email.address);
    // SSO users have no Parley password: their host site handles theirs. An imported author
    // without one (portability/importSite.ts) claims the account this way: the link proves the
    // mailbox. Placeholder addresses (`.invalid`: erased or imported without email) reach nobody.
    if (
      user !== undefined &&
      user.ssoSiteId === null &&
      user.ssoId === null &&
      !isPlaceholderAddress(user.email)
    ) {
      const link = await tokenLink(ctx, user, 'RESET_PASSWORD', ACCOUNT_PATHS.resetPassword);
      // Not awaited: an SMTP round trip only for existing accounts would let response times
      // tell who has one. Failures are logged; the person can ask again.
      ctx.mailer
        .send(resetPasswordMessage(user, link, await ctx.organization()))
        .catch((error: unknown) => {
          ctx.logger.error({ err: error }, 'Could not send a password-reset email');
        });
    }
    // The same answer for every address: the form must not tell who has an account.
    return { ok: true };
  },

  resetPassword: async (_root, { input }, ctx) => {
    // Checked before the token is used, so a too-short password does not burn the link.
    validatePassword(input.password);
    const found = await useToken(ctx, 'RESET_PASSWORD', input.token);
    // Opening the link proves the person reads that mailbox: the address is verified too.
    const user = await updateUser(ctx.db, found.id, {
      passwordHash: await hashPassword(input.password),
      emailVerified: true,
    });
    // Older reset links still lying in the inbox die with this reset.
    await withdrawTokens(ctx.db, user.id, 'RESET_PASSWORD', ctx.now().toISOString());
    return authPayload(ctx, user);
  },

  // An admin's invitation, opened by whoever reads the invited mailbox: the one proof that the
  // address's owner wants the role. Choosing the password here is what makes the account theirs
  // (it ends every other session, so someone who signed up with their address first is out).
  acceptModeratorInvite: async (_root, { input }, ctx) => {
    validatePassword(input.password);
    const { user: invitee, createdBy } = await useTokenOf(ctx, 'MODERATOR_INVITE', input.token);
    const admin = createdBy === null ? undefined : await findUserById(ctx.db, createdBy);
    // An invitation is the admin's word: void if they are no longer an admin. An SSO account
    // never takes a role by email (inviteModerator refuses them; an account cannot become one).
    if (admin?.role !== 'ADMIN' || invitee.ssoSiteId !== null) {
      throw new ParleyError('TOKEN_INVALID', 'This invitation was withdrawn.', { field: 'token' });
    }
    const passwordHash = await hashPassword(input.password);
    const user = await inTransaction(ctx.db, async (trx) => {
      const updated = await updateUser(trx, invitee.id, { passwordHash, emailVerified: true });
      if (!BELOW_MODERATOR.has(updated.role)) return updated;
      const promoted = await moderateUser(trx, {
        userId: updated.id,
        actorId: admin.id,
        action: USER_ACTIONS.ROLE,
        role: 'MODERATOR',
        message: `${updated.role} → MODERATOR (invitation accepted)`,
      });
      // The admin's word, taken up now: the role is theirs to answer for.
      await recordAudit(
        trx,
        {
          actor: { id: admin.id, username: admin.username },
          action: 'USER_ROLE',
          target: { type: 'user', id: promoted.id, label: promoted.username },
          changes: [
            { field: 'role', before: updated.role, after: promoted.role },
            { field: 'invitationAccepted', before: null, after: true },
          ],
          ip: ctx.ip,
        },
        ctx.now(),
      );
      return promoted;
    });
    return authPayload(ctx, user);
  },

  // The emailed token is the credential (the link may open signed out, on another device).
  downloadCommentsData: async (_root, { input }, ctx) => {
    const user = await useToken(ctx, 'DOWNLOAD', input.token);
    return {
      username: user.username,
      generatedAt: ctx.now().toISOString(),
      comments: await exportUserComments(ctx.db, user.id),
    };
  },

  confirmEmail: async (_root, { input }, ctx) => {
    const found = await useToken(ctx, 'CONFIRM_EMAIL', input.token);
    return { user: await updateUser(ctx.db, found.id, { emailVerified: true }) };
  },

  // The link of a notification email (`ACCOUNT_PATHS.unsubscribe`): one click stops them all,
  // signed out, as mail clients' "unsubscribe" expects. Account emails are not notifications.
  unsubscribe: async (_root, { input }, ctx) => {
    const found = await useToken(ctx, 'UNSUBSCRIBE', input.token);
    const notificationPrefs = {
      ...found.notificationPrefs,
      ...Object.fromEntries(NOTIFICATION_KEYS.map((key) => [key, false])),
    };
    // A moderator's alerts are notifications too (moderation/moderationAlerts.ts): all of them.
    await clearAlerts(ctx.db, found.id);
    return { user: await updateUser(ctx.db, found.id, { notificationPrefs }) };
  },
} satisfies MutationResolvers;

/** Most badges, and longest badge, kept from a host's token: labels, not content. */
const SSO_BADGES_MAX = 5;
const SSO_BADGE_MAX_LENGTH = 30;

/** The host's badges, trimmed, deduplicated and bounded (they are shown next to every comment). */
function ssoBadges(badges: readonly string[]): string[] {
  const kept = badges.map((badge) => badge.trim().slice(0, SSO_BADGE_MAX_LENGTH)).filter(Boolean);
  return [...new Set(kept)].slice(0, SSO_BADGES_MAX);
}
