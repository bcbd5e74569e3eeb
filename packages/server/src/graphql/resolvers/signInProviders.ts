/**
 * Sign-in providers in the API: the buttons a site's popup shows, the popup redeeming what a
 * provider sign-in came to (auth/providers/providerSignIn.ts), a reader's connected providers,
 * and the admins' configuration (Configure › Authentication).
 */
import {
  callbackUrl,
  connectAndNotify,
  connectTicket,
  isJoinable,
  PROVIDERS_PREFIX,
} from '../../auth/providers/providerSignIn';
import { RATE_LIMITS } from '../../defaults';
import { inTransaction } from '../../db/inTransaction';
import type { SignInProviderKind } from '../../db/schema';
import { peekFlow, storeFlow, takeFlow } from '../../db/store/signInFlows';
import {
  createSignInProvider,
  deleteSignInProvider,
  disconnectIdentity,
  findSignInProvider,
  identitiesOf,
  listSignInProviders,
  providersForSite,
  siteIdOf,
  updateSignInProvider,
} from '../../db/store/signInProviders';
import type { SignInProvider } from '../../db/store/signInProviders';
import { findUserById, uniqueKey } from '../../db/store/users';
import { EMAIL_LOCALES, email, recipient } from '../../email/templates';
import { toLocale } from '@parley/contract';
import { ParleyError } from '../../ParleyError';
import { audit } from '../audit';
import type { ParleyContext } from '../context';
import { ipKey } from '../context';
import { isLoopback } from '../../auth/providers/providerClients';
import { hasRole, isOwnAccount, requireRole, requireViewer } from '../permissions';
import { spendSecondFactor } from './account/secondFactor';
import { authPayload, finishSignIn, passwordMatches, rememberLocale } from './auth';
import type { Resolvers } from './resolverTypes.generated';

/** Longest provider name ("Continue with …"), in characters. */
export const PROVIDER_NAME_MAX_LENGTH = 40;
/** Longest client id or secret, in characters. */
const CREDENTIAL_MAX_LENGTH = 500;

function expired(): ParleyError {
  return new ParleyError(
    'SIGN_IN_EXPIRED',
    'This sign-in expired or was finished already. Start again.',
    { field: 'code' },
  );
}

function text(value: string, field: string, max: number, what: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || [...trimmed].length > max) {
    throw new ParleyError('INVALID_INPUT', `Give ${what} of 1 to ${max} characters.`, {
      field,
      problem: 'LENGTH',
      max,
    });
  }
  return trimmed;
}

/**
 * An OIDC issuer: an absolute https URL (http only on this machine's loopback, for a provider in
 * development or tests), without query or fragment. Kept as typed: the issuer the discovery
 * document names must be exactly it.
 */
export function issuerUrlOf(kind: SignInProviderKind, value: string | null | undefined): string {
  if (kind !== 'OIDC') {
    if (value) {
      throw new ParleyError('INVALID_INPUT', 'Only an OpenID Connect provider takes an issuer.', {
        field: 'issuerUrl',
        problem: 'ISSUER_NOT_OIDC',
      });
    }
    return '';
  }
  const invalid = () =>
    new ParleyError(
      'INVALID_INPUT',
      'The issuer is the https address whose /.well-known/openid-configuration describes the provider.',
      { field: 'issuerUrl', problem: 'ISSUER_INVALID' },
    );
  let url: URL;
  try {
    url = new URL((value ?? '').trim());
  } catch {
    throw invalid();
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url));
  if (
    !secure ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== '' ||
    url.password !== '' ||
    // openid-client would take such a URL as the discovery document's, and skip the issuer check.
    url.pathname.includes('/.well-known/')
  ) {
    throw invalid();
  }
  return (value ?? '').trim();
}

function providerTarget(provider: SignInProvider) {
  return { type: 'sign_in_provider', id: provider.id, label: provider.name };
}

/** Redeemed flows answer the user they signed in, or a second step for two-factor accounts. */
async function signInAs(ctx: ParleyContext, userId: string, popupLocale: string) {
  const user = await findUserById(ctx.db, userId);
  // Erased since the flow began (erasure keeps the row, anonymized): nobody to sign in as.
  if (user === undefined || !isJoinable(user)) throw expired();
  // The popup's language, as a password sign-in keeps it (with a second factor: at that step).
  const locale = toLocale(popupLocale, EMAIL_LOCALES) ?? null;
  return finishSignIn(ctx, user.twoFactorEnabled ? user : await rememberLocale(ctx, user, locale));
}

export const signInProviderResolvers = {
  Query: {
    signInProviders: async (_root, args, ctx) => {
      const siteId = await siteIdOf(ctx.db, args);
      return siteId === undefined ? [] : providersForSite(ctx.db, siteId);
    },
    configuredSignInProviders: (_root, _args, ctx) => {
      requireRole(ctx, 'ADMIN');
      return listSignInProviders(ctx.db);
    },
  },

  Mutation: {
    // No rate limit: a code is 32 random bytes (nothing to guess), made by a flow that was
    // limited when it started (providerSignIn, per address).
    redeemProviderSignIn: async (_root, { input }, ctx) => {
      const flow = await peekFlow(ctx.db, 'finished', input.code, ctx.now());
      const result = flow?.result;
      if (flow === undefined || result == null) throw expired();
      const provider = await findSignInProvider(ctx.db, flow.providerId);
      if (provider === undefined) throw expired();
      if (result.kind === 'linkRequired') {
        throw new ParleyError(
          'SIGN_IN_LINK_REQUIRED',
          `An account here uses ${result.email}: enter its password, or have a link emailed, to connect ${provider.name} to it.`,
          { email: result.email, provider: provider.name, hasPassword: result.hasPassword },
        );
      }
      // A connection asked from the profile: only that user's own session completes it (the
      // code reached this frame from the popup it opened), never the popup or anyone else.
      if (
        result.kind === 'connect' &&
        (ctx.viewer?.id !== result.userId || ctx.apiToken !== null)
      ) {
        throw new ParleyError(
          'FORBIDDEN',
          'Only the account that asked for this connection can finish it: sign in to it first.',
        );
      }
      if ((await takeFlow(ctx.db, 'finished', input.code, ctx.now())) === undefined) {
        throw expired();
      }
      if (result.kind === 'connect') {
        await connectAndNotify(ctx, {
          userId: result.userId,
          providerId: flow.providerId,
          subject: result.subject,
          email: result.email,
        });
        return { token: null, user: ctx.viewer, connectedProvider: provider.name };
      }
      const { token, user } = await signInAs(ctx, result.userId, flow.popup.locale);
      return { token, user, connectedProvider: null };
    },

    connectProviderWithPassword: async (_root, { input }, ctx) => {
      await ctx.rateLimiter.consume('signIn', ipKey(ctx));
      const flow = await peekFlow(ctx.db, 'finished', input.code, ctx.now());
      const result = flow?.result;
      if (flow === undefined || result?.kind !== 'linkRequired') throw expired();
      const user = await findUserById(ctx.db, result.userId);
      if (user === undefined) throw expired();
      // As a password sign-in: failures count against the account, and past the free ones the
      // password sign-in's proof of work applies there; here, the emailed link is the way on.
      const account = `account:${uniqueKey(user.email)}`;
      if (
        (await ctx.rateLimiter.count('signInFailures', account)) >= RATE_LIMITS.signInFailures.limit
      ) {
        throw new ParleyError(
          'RATE_LIMITED',
          'Too many wrong passwords for this account: have a link emailed instead.',
          { retryAfterSeconds: RATE_LIMITS.signInFailures.windowSeconds },
        );
      }
      if (!(await passwordMatches(user, input.password))) {
        await ctx.rateLimiter.record('signInFailures', account);
        throw new ParleyError('INVALID_CREDENTIALS', 'That password is not right.', {
          field: 'password',
        });
      }
      // Two-factor accounts: the code too, before anything is connected (else a guessed
      // password alone would tie the guesser's provider account to this one).
      if (user.twoFactorEnabled) {
        if (!input.secondFactorCode) {
          throw new ParleyError(
            'TWO_FACTOR_CODE_REQUIRED',
            'Enter the code from your authenticator app, or a recovery code, with the password.',
            { field: 'secondFactorCode' },
          );
        }
        await spendSecondFactor(ctx, user, input.secondFactorCode, 'appOrRecovery');
      }
      if ((await takeFlow(ctx.db, 'finished', input.code, ctx.now())) === undefined) {
        throw expired();
      }
      await connectAndNotify(ctx, {
        userId: user.id,
        providerId: flow.providerId,
        subject: result.subject,
        email: result.email,
      });
      return authPayload(ctx, user, user.twoFactorEnabled);
    },

    emailProviderLink: async (_root, { input }, ctx) => {
      await ctx.rateLimiter.consume('providerLinkEmail', ipKey(ctx));
      // Looked at before it is taken: a code of another kind stays good for what it is.
      const peeked = await peekFlow(ctx.db, 'finished', input.code, ctx.now());
      if (peeked?.result?.kind !== 'linkRequired') throw expired();
      const flow = await takeFlow(ctx.db, 'finished', input.code, ctx.now());
      const result = flow?.result;
      if (flow === undefined || result?.kind !== 'linkRequired') throw expired();
      const [user, provider] = await Promise.all([
        findUserById(ctx.db, result.userId),
        findSignInProvider(ctx.db, flow.providerId),
      ]);
      if (user === undefined || provider === undefined) throw expired();
      const key = await storeFlow(ctx.db, 'emailed', flow, ctx.now());
      const link = `${ctx.publicUrl.replace(/\/$/, '')}${PROVIDERS_PREFIX}link?key=${encodeURIComponent(key)}`;
      await ctx.mailer.send(
        email('connectProvider', recipient(user.email, user, await ctx.organization()), {
          username: user.username,
          provider: provider.name,
          link,
        }),
      );
      return { email: user.email };
    },

    startProviderConnection: async (_root, { input }, ctx) => {
      const viewer = requireViewer(ctx);
      if (viewer.ssoSiteId !== null) {
        throw new ParleyError(
          'FORBIDDEN',
          'Your site signs you in (SSO): other ways to sign in are not connected to this account.',
        );
      }
      const siteId = await siteIdOf(ctx.db, input);
      const offered = siteId === undefined ? [] : await providersForSite(ctx.db, siteId);
      if (!offered.some((provider) => provider.id === input.providerId)) {
        throw new ParleyError(
          'SIGN_IN_PROVIDER_DISABLED',
          'That way of signing in is not available on this site.',
          { field: 'providerId' },
        );
      }
      const ticket = await connectTicket(ctx.tokens, viewer, input.providerId);
      const query = new URLSearchParams({ site: siteId ?? '', connect: ticket });
      return {
        url: `${ctx.publicUrl.replace(/\/$/, '')}${PROVIDERS_PREFIX}${encodeURIComponent(input.providerId)}/start?${query}`,
      };
    },

    disconnectProvider: async (_root, { input }, ctx) => {
      const viewer = requireViewer(ctx);
      await disconnectIdentity(ctx.db, {
        userId: viewer.id,
        identityId: input.identityId,
        hasPassword: viewer.passwordHash !== null,
      });
      return { user: viewer, token: null };
    },

    createSignInProvider: async (_root, { input }, ctx) => {
      requireRole(ctx, 'ADMIN');
      const values = {
        kind: input.kind,
        name: text(input.name, 'name', PROVIDER_NAME_MAX_LENGTH, 'the provider a name'),
        issuerUrl: issuerUrlOf(input.kind, input.issuerUrl),
        clientId: text(input.clientId, 'clientId', CREDENTIAL_MAX_LENGTH, 'a client id'),
        clientSecret: text(
          input.clientSecret,
          'clientSecret',
          CREDENTIAL_MAX_LENGTH,
          'a client secret',
        ),
        siteIds: [...input.siteIds],
      };
      const provider = await inTransaction(ctx.db, async (trx) => {
        const created = await createSignInProvider(trx, ctx.box, values);
        await audit(ctx, trx, 'SIGN_IN_PROVIDER_CREATE', providerTarget(created), [
          { field: 'kind', before: null, after: created.kind },
          { field: 'clientId', before: null, after: created.clientId },
          { field: 'siteIds', before: null, after: created.siteIds },
        ]);
        return created;
      });
      return { signInProvider: provider };
    },

    updateSignInProvider: async (_root, { input }, ctx) => {
      requireRole(ctx, 'ADMIN');
      const provider = await inTransaction(ctx.db, async (trx) => {
        const before = await findSignInProvider(trx, input.id);
        if (before === undefined) {
          throw new ParleyError('NOT_FOUND', 'There is no such sign-in provider.', { field: 'id' });
        }
        const after = await updateSignInProvider(trx, ctx.box, input.id, {
          ...(input.name == null
            ? {}
            : { name: text(input.name, 'name', PROVIDER_NAME_MAX_LENGTH, 'the provider a name') }),
          ...(input.issuerUrl == null
            ? {}
            : { issuerUrl: issuerUrlOf(before.kind, input.issuerUrl) }),
          ...(input.clientId == null
            ? {}
            : { clientId: text(input.clientId, 'clientId', CREDENTIAL_MAX_LENGTH, 'a client id') }),
          ...(input.clientSecret == null || input.clientSecret === ''
            ? {}
            : {
                clientSecret: text(
                  input.clientSecret,
                  'clientSecret',
                  CREDENTIAL_MAX_LENGTH,
                  'a client secret',
                ),
              }),
          ...(input.siteIds == null ? {} : { siteIds: [...input.siteIds] }),
        });
        const changes: { field: string; before: unknown; after: unknown }[] = (
          ['name', 'issuerUrl', 'clientId', 'siteIds'] as const
        )
          .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
          .map((field) => ({ field, before: before[field], after: after[field] }));
        if (input.clientSecret) {
          changes.push({ field: 'clientSecret', before: '[redacted]', after: '[redacted]' });
        }
        await audit(ctx, trx, 'SIGN_IN_PROVIDER_UPDATE', providerTarget(after), changes);
        return after;
      });
      return { signInProvider: provider };
    },

    deleteSignInProvider: async (_root, { input }, ctx) => {
      requireRole(ctx, 'ADMIN');
      await inTransaction(ctx.db, async (trx) => {
        const before = await findSignInProvider(trx, input.id);
        await deleteSignInProvider(trx, input.id);
        if (before !== undefined) {
          await audit(ctx, trx, 'SIGN_IN_PROVIDER_DELETE', providerTarget(before));
        }
      });
      return { ok: true };
    },
  },

  SignInProvider: {
    issuerUrl: (provider, _args, ctx) => (hasRole(ctx.staff, 'ADMIN') ? provider.issuerUrl : null),
    clientId: (provider, _args, ctx) => (hasRole(ctx.staff, 'ADMIN') ? provider.clientId : null),
    clientSecretSet: (provider, _args, ctx) =>
      hasRole(ctx.staff, 'ADMIN') ? provider.clientSecretSet : null,
    siteIds: (provider, _args, ctx) => (hasRole(ctx.staff, 'ADMIN') ? provider.siteIds : null),
    callbackUrl: (provider, _args, ctx) =>
      hasRole(ctx.staff, 'ADMIN') ? callbackUrl(ctx.publicUrl, provider.id) : null,
  },

  UserIdentity: {
    provider: async (identity, _args, ctx) => {
      const provider = await findSignInProvider(ctx.db, identity.providerId);
      if (provider === undefined) throw new ParleyError('NOT_FOUND', 'That provider was removed.');
      return provider;
    },
  },

  User: {
    identities: (user, _args, ctx) =>
      isOwnAccount(ctx, user) ? identitiesOf(ctx.db, user.id) : null,
    hasPassword: (user, _args, ctx) =>
      isOwnAccount(ctx, user) ? user.passwordHash !== null : null,
  },
} satisfies Resolvers;
