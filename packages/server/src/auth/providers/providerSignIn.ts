/**
 * Signing in with a provider, from the popup's click to the account: the flow is started (state,
 * nonce and PKCE verifier stored, the state also in the popup's cookie), the provider's answer
 * checked by its client (providerClients.ts), and the person matched to a Parley account:
 *
 * - a provider account connected before signs in as its user;
 * - a signed-in user connecting a provider (from the profile) gets it connected when their frame,
 *   signed in as them, redeems the code (the popup alone never connects anything);
 * - a provider address that is verified and already a confirmed account's here is never joined
 *   to it silently: its owner proves the account (its password, or a link emailed to the
 *   address); an address typed into an account and never confirmed goes to the provider's
 *   person, whose mailbox it is (an account nobody can sign in to, an imported author's, is
 *   claimed by the emailed link);
 * - anyone else gets a new account (if sign-up is open): username from the provider, made
 *   unique; the provider's verified address, or a placeholder that cannot receive mail.
 *
 * The popup then redeems a one-time code for a session (resolvers/providerSignIn.ts).
 */
import { refuseBanned } from '../../db/store/ipBans';
import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import type { Logger } from 'pino';
import type { SecretBox } from '../secretBox';
import type { TokenService } from '../tokens';
import { ParleyError } from '../../ParleyError';
import { inTransaction } from '../../db/inTransaction';
import type { Db } from '../../db/inTransaction';
import { getOrganization, getSettings } from '../../db/store/organization';
import {
  connectIdentity,
  findIdentity,
  findSignInProvider,
  identitiesOf,
  providerSecret,
  providersForSite,
} from '../../db/store/signInProviders';
import type { SignInProvider } from '../../db/store/signInProviders';
import { storeFlow, takeFlow } from '../../db/store/signInFlows';
import type { FlowResult, PopupLook, SignInFlow } from '../../db/store/signInFlows';
import {
  createUser,
  findUserByEmail,
  findUserById,
  isPlaceholderAddress,
  uniqueKey,
} from '../../db/store/users';
import { EMAIL_LOCALES, email, recipient } from '../../email/templates';
import { toLocale } from '@parley/contract';
import type { Mailer } from '../../email/createMailer';
import { isErasedAddress } from '../../db/store/accountDeletion';
import { uniqueUsernames } from '../../portability/importShared';
import { providerClient, toSignInError } from './providerClients';
import type { ProviderClient, ProviderProfile } from './providerClients';

/** Where the provider routes live. */
export const PROVIDERS_PREFIX = '/auth/providers/';
/** The cookie holding the state of the popup's flow (first-party: the popup is a top window). */
export const STATE_COOKIE = 'parley_signin_state';
/** The domain of the placeholder address of an account a provider gave no verified address. */
export const SIGN_IN_EMAIL_DOMAIN = 'signin.invalid';
/** How long the ticket of a profile's "Connect" lasts, in seconds. */
export const CONNECT_TICKET_SECONDS = 300;

/** What the provider sign-in needs of the server. */
export interface ProviderSignInDeps {
  db: Db;
  box: SecretBox;
  tokens: TokenService;
  publicUrl: string;
  logger: Logger;
  mailer: Mailer;
  now: () => Date;
  /** Builds a provider's client (tests put a stand-in here). @default providerClient */
  clientFor?: (provider: SignInProvider, secret: string, redirectUri: string) => ProviderClient;
}

/** The URL the provider sends the reader back to (the admin registers it with the provider). */
export function callbackUrl(publicUrl: string, providerId: string): string {
  return `${publicUrl.replace(/\/$/, '')}${PROVIDERS_PREFIX}${encodeURIComponent(providerId)}/callback`;
}

function disabled(): ParleyError {
  return new ParleyError(
    'SIGN_IN_PROVIDER_DISABLED',
    'That way of signing in is not available on this site.',
  );
}

function expired(): ParleyError {
  return new ParleyError(
    'SIGN_IN_EXPIRED',
    'This sign-in expired or was started in another window. Start again.',
  );
}

/** The provider, when it is switched on for the site. */
async function enabledProvider(db: Db, providerId: string, siteId: string) {
  const provider = (await providersForSite(db, siteId)).find((p) => p.id === providerId);
  if (provider === undefined) throw disabled();
  return provider;
}

async function clientOf(deps: ProviderSignInDeps, provider: SignInProvider) {
  const secret = await providerSecret(deps.db, deps.box, provider.id);
  const redirectUri = callbackUrl(deps.publicUrl, provider.id);
  return deps.clientFor
    ? deps.clientFor(provider, secret, redirectUri)
    : providerClient({ ...provider, clientSecret: secret, redirectUri });
}

/** What starting a flow gives the route: where to send the popup, and the state for its cookie. */
export interface StartedFlow {
  authorizationUrl: URL;
  state: string;
}

/**
 * Starts a sign-in (or, with `connectTicket`, a signed-in user's connection) with a provider
 * switched on for the site.
 */
export async function startProviderSignIn(
  deps: ProviderSignInDeps,
  input: { providerId: string; siteId: string; popup: PopupLook; connectTicket?: string },
): Promise<StartedFlow> {
  const provider = await enabledProvider(deps.db, input.providerId, input.siteId);
  let connectUserId: string | null = null;
  if (input.connectTicket !== undefined) {
    const claims = await deps.tokens.verifyFor('providerConnect', input.connectTicket);
    const user =
      typeof claims?.['sub'] === 'string' ? await findUserById(deps.db, claims['sub']) : undefined;
    // The ticket's session epoch: signing out everywhere, or a new password, voids it.
    if (
      user === undefined ||
      claims?.['provider'] !== provider.id ||
      claims['ep'] !== user.sessionEpoch
    ) {
      throw expired();
    }
    connectUserId = user.id;
  }
  const secrets = {
    codeVerifier: oidc.randomPKCECodeVerifier(),
    nonce: oidc.randomNonce(),
  };
  const state = await storeFlow(
    deps.db,
    'started',
    {
      providerId: provider.id,
      siteId: input.siteId,
      ...secrets,
      connectUserId,
      popup: input.popup,
      result: null,
    },
    deps.now(),
  );
  const client = await clientOf(deps, provider);
  return { authorizationUrl: await client.authorizationUrl({ state, ...secrets }), state };
}

/** The ticket a signed-in user's "Connect" opens the popup with (the popup holds no token). */
export function connectTicket(
  tokens: TokenService,
  user: { id: string; sessionEpoch: number },
  providerId: string,
) {
  return tokens.signFor(
    'providerConnect',
    { sub: user.id, ep: user.sessionEpoch, provider: providerId },
    CONNECT_TICKET_SECONDS,
  );
}

/** What the callback comes to: the code the popup redeems, or a coded error; and its look. */
export type FinishedFlow =
  | { ok: true; code: string; popup: PopupLook; result: FlowResult['kind'] }
  | { ok: false; error: ParleyError; popup: PopupLook | undefined };

/**
 * Finishes the flow the provider sent the reader back to. `state` must be the one in the popup's
 * cookie (another window's, or a forged link's, is refused) and a flow still under way; it is
 * taken once. Errors are answered, not thrown: the popup shows them.
 */
export async function finishProviderSignIn(
  deps: ProviderSignInDeps,
  input: {
    providerId: string;
    callback: URL;
    cookieState: string | undefined;
    /** The reader's address: a new account is refused from a banned range (ipBans.ts). */
    ip?: string | undefined;
  },
): Promise<FinishedFlow> {
  const state = input.callback.searchParams.get('state');
  if (state === null || state === '' || state !== input.cookieState) {
    return { ok: false, error: expired(), popup: undefined };
  }
  const flow = await takeFlow(deps.db, 'started', state, deps.now());
  if (flow === undefined || flow.providerId !== input.providerId) {
    return { ok: false, error: expired(), popup: flow?.popup };
  }
  try {
    const provider = await enabledProvider(deps.db, flow.providerId, flow.siteId);
    const client = await clientOf(deps, provider);
    const profile = await client
      .finish(input.callback, { state, codeVerifier: flow.codeVerifier, nonce: flow.nonce })
      .catch((error: unknown) => {
        const coded = toSignInError(error);
        if (coded.code !== 'SIGN_IN_DENIED') {
          deps.logger.warn({ err: error, provider: provider.id }, 'A provider sign-in failed');
        }
        throw coded;
      });
    const result = await accountFor(deps, flow, profile, input.ip);
    const code = await storeFlow(deps.db, 'finished', { ...flow, result }, deps.now());
    return { ok: true, code, popup: flow.popup, result: result.kind };
  } catch (error) {
    if (error instanceof ParleyError) return { ok: false, error, popup: flow.popup };
    throw error;
  }
}

/** Whether an account is one a provider's address could be joined to (not SSO, not erased). */
export function isJoinable(user: { ssoSiteId: string | null; email: string }): boolean {
  return user.ssoSiteId === null && !isErasedAddress(user.email);
}

/** A placeholder address: `.invalid` never receives mail, and no reset is sent to one. */
function placeholderAddress(): string {
  return `${randomUUID()}@${SIGN_IN_EMAIL_DOMAIN}`;
}

/** The account a provider's person is, per the rules at the top of this file. */
async function accountFor(
  deps: ProviderSignInDeps,
  flow: SignInFlow,
  profile: ProviderProfile,
  ip: string | undefined,
): Promise<FlowResult> {
  const { db } = deps;
  const known = await findIdentity(db, flow.providerId, profile.subject);
  if (flow.connectUserId !== null) {
    // Connected when the frame, signed in as this user, redeems the code (not here: the popup
    // could be anyone's, sent to a ticket's URL).
    if (known !== undefined && known.userId !== flow.connectUserId) throw identityTaken();
    return {
      kind: 'connect',
      userId: flow.connectUserId,
      subject: profile.subject,
      email: profile.email,
    };
  }
  if (known !== undefined) return { kind: 'signedIn', userId: known.userId };
  const owner = profile.email === null ? undefined : await findUserByEmail(db, profile.email);
  let release: string | undefined;
  if (owner !== undefined) {
    if (!isJoinable(owner)) {
      throw new ParleyError(
        'EMAIL_TAKEN',
        'That email belongs to another account here, which cannot be joined to this one.',
      );
    }
    const claimable =
      owner.emailVerified ||
      // An account nobody can sign in to (an imported author's): the mailbox proves it.
      (owner.passwordHash === null && (await identitiesOf(db, owner.id)).length === 0);
    if (claimable) {
      return {
        kind: 'linkRequired',
        userId: owner.id,
        subject: profile.subject,
        email: owner.email,
        hasPassword: owner.passwordHash !== null,
      };
    }
    // An address typed into some account and never confirmed: the mailbox's owner (whom the
    // provider vouches for) wins it; that account keeps everything else.
    release = owner.id;
  }
  if (!(await getSettings(db)).signUpOpen) {
    throw new ParleyError('FORBIDDEN', 'Sign-up is closed: only existing accounts can sign in.');
  }
  // A new account, like a password sign-up, is refused from a range moderators banned.
  if (ip !== undefined) await refuseBanned(db, ip, deps.now());
  const create = () =>
    inTransaction(db, async (trx) => {
      if (release !== undefined) {
        const address = placeholderAddress();
        await trx
          .updateTable('users')
          .set({ email: address, email_key: uniqueKey(address), email_verified: 0 })
          .where('id', '=', release)
          .where('email_verified', '=', 0)
          .execute();
      }
      const [username] = await uniqueUsernames(trx, [profile.nameHint ?? 'reader'], new Set());
      const user = await createUser(trx, {
        username: username ?? `reader_${randomUUID().slice(0, 8)}`,
        email: profile.email ?? placeholderAddress(),
        emailVerified: profile.email !== null,
        passwordHash: null,
        // The popup's language: their emails'.
        locale: toLocale(flow.popup.locale, EMAIL_LOCALES) ?? null,
      });
      await connectIdentity(trx, {
        userId: user.id,
        providerId: flow.providerId,
        subject: profile.subject,
        email: profile.email,
      });
      return user.id;
    });
  for (let attempt = 1; ; attempt++) {
    try {
      return { kind: 'signedIn', userId: await create() };
    } catch (error) {
      // Two first sign-ins of one person at once: the other made the account; this one uses it.
      const raced = await findIdentity(db, flow.providerId, profile.subject);
      if (raced !== undefined) return { kind: 'signedIn', userId: raced.userId };
      // A username taken between the choice and the insert (another sign-up): choose again.
      if (attempt < 3 && error instanceof ParleyError && error.code === 'USERNAME_TAKEN') continue;
      throw error;
    }
  }
}

function identityTaken(): ParleyError {
  return new ParleyError(
    'SIGN_IN_IDENTITY_TAKEN',
    'That account is connected to another Parley account already.',
  );
}

/**
 * Connects a provider account to a user and tells the account's address (a connection made with
 * a stolen session, or a guessed password, shows there).
 */
export async function connectAndNotify(
  deps: Pick<ProviderSignInDeps, 'db' | 'mailer' | 'logger'>,
  input: { userId: string; providerId: string; subject: string; email: string | null },
): Promise<void> {
  await connectIdentity(deps.db, input);
  const [user, provider] = await Promise.all([
    findUserById(deps.db, input.userId),
    findSignInProvider(deps.db, input.providerId),
  ]);
  if (user === undefined || provider === undefined || isPlaceholderAddress(user.email)) return;
  const to = recipient(user.email, user, await getOrganization(deps.db));
  deps.mailer
    .send(email('providerConnected', to, { username: user.username, provider: provider.name }))
    .catch((error: unknown) => {
      deps.logger.error({ err: error }, 'Could not send a provider-connected email');
    });
}

/**
 * Takes an emailed connection (the link's key) and connects the provider account to the account
 * the address belongs to, if that account still has the address and may be joined. Unknown,
 * used or expired: `SIGN_IN_EXPIRED`.
 */
export async function connectByEmailedLink(
  deps: Pick<ProviderSignInDeps, 'db' | 'now' | 'mailer' | 'logger'>,
  key: string,
): Promise<SignInProvider> {
  const flow = await takeFlow(deps.db, 'emailed', key, deps.now());
  if (flow?.result?.kind !== 'linkRequired') throw expired();
  const { result } = flow;
  const [provider, user] = await Promise.all([
    enabledProvider(deps.db, flow.providerId, flow.siteId),
    findUserById(deps.db, result.userId),
  ]);
  if (
    user === undefined ||
    !isJoinable(user) ||
    uniqueKey(user.email) !== uniqueKey(result.email)
  ) {
    throw expired();
  }
  await connectAndNotify(deps, {
    userId: user.id,
    providerId: flow.providerId,
    subject: result.subject,
    email: result.email,
  });
  // The link proved the mailbox: an unconfirmed address (an imported author's) is confirmed.
  if (!user.emailVerified) {
    await deps.db
      .updateTable('users')
      .set({ email_verified: 1 })
      .where('id', '=', user.id)
      .execute();
  }
  return provider;
}
