import { hashPassword, verifyPassword } from '../../auth/passwords';
import { getOrganization, install } from '../../db/store/organization';
import { normalizeOrigin } from '../../db/store/sites';
import { createUser, findUserByEmail } from '../../db/store/users';
import type { User } from '../../db/store/users';
import { ParleyError } from '../../ParleyError';
import {
  validateEmail,
  validatePassword,
  validateUsername,
} from '../../validation/validateAccount';
import type { ParleyContext } from '../context';
import { ipKey } from '../context';
import { revokeSession } from '../../db/store/sessionRevocation';
import { requireViewer } from '../permissions';

type Input<T> = { input: T };

/**
 * What every successful sign-in answers: a session token and the user. The rest of the operation
 * runs as that user (mutations run one at a time), so the payload shows them their own private
 * fields (email, status) rather than what an anonymous caller sees.
 */
export async function authPayload(ctx: ParleyContext, user: User) {
  const { sessionSeconds } = await ctx.settings();
  const token = await ctx.tokens.sign(
    { userId: user.id, role: user.role, epoch: user.sessionEpoch },
    sessionSeconds,
  );
  ctx.viewer = user;
  return { token, user };
}

/**
 * A hash of a random password, compared against when an email is unknown, so that a wrong email
 * takes as long as a wrong password and sign-in does not reveal who has an account.
 */
let dummyHash: Promise<string> | undefined;

export const authResolvers = {
  Query: {
    viewer: (_root: unknown, _args: unknown, ctx: ParleyContext) => ctx.viewer,
    settings: async (_root: unknown, _args: unknown, ctx: ParleyContext) => ({
      ...(await ctx.settings()),
      organization: await ctx.organization(),
      installed: (await ctx.organization()) !== undefined,
    }),
  },

  Mutation: {
    install: async (
      _root: unknown,
      {
        input,
      }: Input<{
        organization: { name: string; contactEmail: string; url: string; locale?: string | null };
        site: { name: string; url: string; allowedOrigins: string[] };
        admin: { email: string; username: string; password: string };
      }>,
      ctx: ParleyContext,
    ) => {
      // Checked before any validation: after install, the wizard's answer is the same whatever
      // was typed.
      if (await getOrganization(ctx.db)) {
        throw new ParleyError('ALREADY_INSTALLED', 'Parley is already installed.');
      }
      const { organization, site, admin } = input;
      const name = required(organization.name, 'organization.name');
      const contactEmail = validateEmail(organization.contactEmail, 'organization.contactEmail');
      const orgUrl = httpUrl(organization.url, 'organization.url');
      const siteName = required(site.name, 'site.name');
      const siteUrl = httpUrl(site.url, 'site.url');
      const allowedOrigins = origins(site.allowedOrigins, siteUrl);
      const email = validateEmail(admin.email, 'admin.email');
      const username = validateUsername(admin.username, 'admin.username');
      validatePassword(admin.password, 'admin.password');
      const result = await install(ctx.db, {
        organization: {
          name,
          contactEmail: contactEmail.address,
          url: orgUrl,
          locale: organization.locale ?? undefined,
        },
        site: { name: siteName, url: siteUrl, allowedOrigins },
        admin: { email: email.address, username, passwordHash: await hashPassword(admin.password) },
      });
      return authPayload(ctx, result.admin);
    },

    signUp: async (
      _root: unknown,
      { input }: Input<{ email: string; username: string; password: string }>,
      ctx: ParleyContext,
    ) => {
      const settings = await ctx.settings();
      if (!(await ctx.organization())) {
        throw new ParleyError('NOT_INSTALLED', 'Parley is not installed yet.');
      }
      if (!settings.signUpOpen) throw new ParleyError('FORBIDDEN', 'Sign-up is closed.');
      await ctx.rateLimiter.consume('signUp', ipKey(ctx));
      const email = validateEmail(input.email);
      const username = validateUsername(input.username);
      validatePassword(input.password);
      const user = await createUser(ctx.db, {
        email: email.address,
        username,
        passwordHash: await hashPassword(input.password),
      });
      return authPayload(ctx, user);
    },

    signIn: async (
      _root: unknown,
      { input }: Input<{ email: string; password: string }>,
      ctx: ParleyContext,
    ) => {
      const email = validateEmail(input.email);
      // Both limits: many accounts from one address, and one account from many addresses. The
      // address first, so a blocked address cannot even add account counters.
      await ctx.rateLimiter.consume('signIn', ipKey(ctx));
      await ctx.rateLimiter.consume('signIn', `account:${email.key}`);
      const user = await findUserByEmail(ctx.db, email.address);
      dummyHash ??= hashPassword(crypto.randomUUID());
      const matches = await verifyPassword(input.password, user?.passwordHash ?? (await dummyHash));
      if (!user || !user.passwordHash || !matches) {
        throw new ParleyError('INVALID_CREDENTIALS', 'That email and password do not match.');
      }
      return authPayload(ctx, user);
    },

    // Ends this session on the server too (its token id is remembered until it would have
    // expired): a copy of the token — another tab's storage, a shared computer — stops working.
    // Signed out already, or never signed in: nothing to end, and no error.
    signOut: async (_root: unknown, _args: unknown, ctx: ParleyContext) => {
      if (ctx.session !== null) {
        await revokeSession(
          ctx.db,
          ctx.session.tokenId,
          new Date(ctx.session.expiresAt * 1000),
          ctx.now(),
        );
      }
      return { ok: true };
    },

    // Every session of the account, on every device: its epoch moves on, so every token signed
    // before is refused. The one way out for SSO accounts, which have no password to change.
    signOutEverywhere: async (_root: unknown, _args: unknown, ctx: ParleyContext) => {
      const viewer = requireViewer(ctx);
      await ctx.db
        .updateTable('users')
        .set((eb) => ({ session_epoch: eb('session_epoch', '+', 1) }))
        .where('id', '=', viewer.id)
        .execute();
      return { ok: true };
    },
  },
};

function required(value: string, field: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new ParleyError('INVALID_INPUT', 'This field is required.', { field });
  return trimmed;
}

function httpUrl(value: string, field: string): string {
  try {
    const url = new URL(value.trim());
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // fall through to the coded error
  }
  throw new ParleyError('INVALID_INPUT', 'Expected an http(s) URL.', { field });
}

/** The permitted origins, normalized; the site's own origin is always one of them. */
function origins(values: readonly string[], siteUrl: string): string[] {
  const list = [...values, siteUrl].map((value, i) => {
    try {
      return normalizeOrigin(value.trim());
    } catch {
      throw new ParleyError('INVALID_INPUT', `“${value}” is not an origin.`, {
        field: `site.allowedOrigins.${i}`,
      });
    }
  });
  return [...new Set(list)];
}
