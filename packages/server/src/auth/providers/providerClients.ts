/**
 * The providers' side of a sign-in, through maintained libraries only: OpenID Connect issuers and
 * Google with `openid-client` (discovery, PKCE, state, nonce, and the ID token's signature and
 * claims checked by it), GitHub — OAuth 2.0, no ID token — with `arctic`'s OAuth 2.0 client (PKCE,
 * state) and GitHub's REST API for the profile. What they throw, toSignInError codes for the popup.
 */
import {
  ArcticFetchError,
  CodeChallengeMethod,
  OAuth2Client,
  OAuth2RequestError,
  UnexpectedErrorResponseBodyError,
  UnexpectedResponseError,
} from 'arctic';
import * as oidc from 'openid-client';
import { ParleyError } from '../../ParleyError';
import { withTimeout } from '../../runtime/httpHelpers';
import type { SignInProviderKind } from '../../db/schema';

/** Google's issuer: an OpenID Connect provider like any other, found by discovery. */
export const GOOGLE_ISSUER = 'https://accounts.google.com';
/** GitHub's OAuth 2.0 endpoints and REST API. */
export const GITHUB = {
  authorize: 'https://github.com/login/oauth/authorize',
  token: 'https://github.com/login/oauth/access_token',
  api: 'https://api.github.com',
} as const;
/** How long a call to a provider may take, in ms. */
export const PROVIDER_TIMEOUT_MS = 10_000;
/** How long a discovered configuration is kept before it is fetched again, in ms. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

/** Who the provider says signed in. */
export interface ProviderProfile {
  /** The provider's stable id of the account (`sub`; GitHub's numeric id). */
  subject: string;
  /** An address the provider has verified as theirs; null when it gives none, or unverified. */
  email: string | null;
  /** A name to start a username from (`preferred_username`, the GitHub login, the name). */
  nameHint: string | null;
}

/** The secrets of one flow: sent to the provider (state, nonce, the verifier's challenge). */
export interface FlowSecrets {
  state: string;
  codeVerifier: string;
  nonce: string;
}

/** A provider's side of a sign-in. */
export interface ProviderClient {
  /** Where to send the reader to sign in and consent. */
  authorizationUrl(flow: FlowSecrets): Promise<URL>;
  /** Checks the provider's answer (the callback URL) and says who signed in. */
  finish(callback: URL, flow: FlowSecrets): Promise<ProviderProfile>;
}

/** What a client needs of a configured provider. */
export interface ProviderSettings {
  id: string;
  kind: SignInProviderKind;
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  /** This server's callback for the provider (registered with it by the admin). */
  redirectUri: string;
}

/** The reader said no on the provider's consent page. */
function signInDenied(): ParleyError {
  return new ParleyError('SIGN_IN_DENIED', 'You did not allow the sign-in: nothing was shared.');
}

function unreachable(): ParleyError {
  return new ParleyError(
    'SIGN_IN_PROVIDER_UNREACHABLE',
    'The sign-in provider could not be reached. Try again in a moment.',
  );
}

function failed(detail?: string): ParleyError {
  return new ParleyError(
    'SIGN_IN_PROVIDER_FAILED',
    `The sign-in provider's answer could not be accepted${detail ? ` (${detail})` : ''}. Try again; if it goes on, tell the site's team.`,
  );
}

/** OAuth error codes that say the provider is down for now, not that the answer is wrong. */
const OUTAGE_ERRORS = new Set(['server_error', 'temporarily_unavailable']);

/** Whether `error` (or what caused it) is a network failure, a time-out or a 5xx answer. */
function isOutage(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 5; depth++) {
    if (e instanceof Response) return e.status >= 500;
    if (e instanceof oidc.ResponseBodyError) return e.status >= 500 || OUTAGE_ERRORS.has(e.error);
    if (e instanceof ArcticFetchError) return true;
    if (e instanceof UnexpectedResponseError || e instanceof UnexpectedErrorResponseBodyError) {
      return e.status >= 500;
    }
    if (e instanceof Error) {
      if (e.name === 'TimeoutError' || e.name === 'AbortError') return true;
      if (e instanceof TypeError && e.message === 'fetch failed') return true;
      e = e.cause;
      continue;
    }
    return false;
  }
  return false;
}

/**
 * Turns what a client or its library threw into the coded error the popup shows (the caller logs
 * the original).
 */
export function toSignInError(error: unknown): ParleyError {
  if (error instanceof ParleyError) return error;
  if (error instanceof oidc.AuthorizationResponseError) {
    if (error.error === 'access_denied') return signInDenied();
    return OUTAGE_ERRORS.has(error.error) ? unreachable() : failed(error.error);
  }
  if (isOutage(error)) return unreachable();
  if (error instanceof OAuth2RequestError) {
    return OUTAGE_ERRORS.has(error.code) ? unreachable() : failed(error.code);
  }
  return failed();
}

/**
 * A name to start a username from, never an address: some issuers put the email in
 * `preferred_username`, and a username is public.
 */
function publicName(hint: string | null | undefined): string | null {
  const name = hint?.split('@')[0]?.trim();
  return name ? name : null;
}

/** Plain http is allowed for an issuer on this machine only (a test or development provider). */
export function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

const discovered = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

/** The issuer's configuration, discovered once an hour per provider and client. */
function discover(settings: ProviderSettings, issuer: string): Promise<oidc.Configuration> {
  const key = JSON.stringify([settings.id, issuer, settings.clientId, settings.clientSecret]);
  const kept = discovered.get(key);
  if (kept !== undefined && Date.now() - kept.at < DISCOVERY_TTL_MS) return kept.config;
  const url = new URL(issuer);
  const insecure = url.protocol === 'http:' && isLoopback(url);
  const config = oidc.discovery(
    url,
    settings.clientId,
    { client_secret: settings.clientSecret },
    oidc.ClientSecretBasic(settings.clientSecret),
    { execute: insecure ? [oidc.allowInsecureRequests] : [], timeout: PROVIDER_TIMEOUT_MS / 1000 },
  );
  // A failed discovery is not kept: the next sign-in tries again.
  config.catch(() => discovered.delete(key));
  discovered.set(key, { at: Date.now(), config });
  return config;
}

/** An OpenID Connect issuer (Google is one): openid-client does every check. */
function oidcClient(settings: ProviderSettings, issuer: string): ProviderClient {
  return {
    async authorizationUrl(flow) {
      const config = await discover(settings, issuer);
      return oidc.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
    },
    async finish(callback, flow) {
      const config = await discover(settings, issuer);
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (claims === undefined) throw failed('no ID token');
      let info: Record<string, unknown> = claims;
      // Some issuers put the address in the user info only (not in the ID token).
      if (claims['email'] === undefined && config.serverMetadata().userinfo_endpoint) {
        info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      }
      const email = typeof info['email'] === 'string' ? info['email'] : null;
      const nameHint = [info['preferred_username'], info['nickname'], info['name']].find(
        (value): value is string => typeof value === 'string' && value.trim() !== '',
      );
      // Some issuers (Entra, Keycloak) send `"true"`, a string.
      const verified = info['email_verified'] === true || info['email_verified'] === 'true';
      return {
        subject: claims.sub,
        email: verified ? email : null,
        nameHint: publicName(nameHint ?? email),
      };
    },
  };
}

/** GitHub: OAuth 2.0 with PKCE through arctic, then who signed in from its REST API. */
function githubClient(settings: ProviderSettings): ProviderClient {
  const client = new OAuth2Client(settings.clientId, settings.clientSecret, settings.redirectUri);
  const api = async <T>(path: string, accessToken: string): Promise<T> => {
    const response = await fetch(`${GITHUB.api}${path}`, {
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${accessToken}`,
        'user-agent': 'Parley',
        'x-github-api-version': '2022-11-28',
      },
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
    if (!response.ok) {
      throw response.status >= 500 ? unreachable() : failed(`GitHub ${path}: ${response.status}`);
    }
    return (await response.json()) as T;
  };
  return {
    authorizationUrl(flow) {
      return Promise.resolve(
        client.createAuthorizationURLWithPKCE(
          GITHUB.authorize,
          flow.state,
          CodeChallengeMethod.S256,
          flow.codeVerifier,
          ['read:user', 'user:email'],
        ),
      );
    },
    async finish(callback, flow) {
      const params = callback.searchParams;
      if (params.get('error') === 'access_denied') throw signInDenied();
      if (params.get('error') !== null) throw failed(params.get('error') ?? undefined);
      // The caller found the flow by this state already; checked again here, as openid-client does.
      if (params.get('state') !== flow.state) throw failed('state');
      const code = params.get('code');
      if (code === null) throw failed('no code');
      // arctic's fetch has no time limit of its own.
      const tokens = await withTimeout(
        client.validateAuthorizationCode(GITHUB.token, code, flow.codeVerifier),
        PROVIDER_TIMEOUT_MS,
        () => new DOMException('The provider took too long', 'TimeoutError'),
      );
      const token = tokens.accessToken();
      const user = await api<{ id: number; login: string; name: string | null }>('/user', token);
      const emails = await api<{ email: string; primary: boolean; verified: boolean }[]>(
        '/user/emails',
        token,
      );
      const primary = emails.find((entry) => entry.primary && entry.verified);
      return { subject: String(user.id), email: primary?.email ?? null, nameHint: user.login };
    },
  };
}

/** The client of a configured provider. */
export function providerClient(settings: ProviderSettings): ProviderClient {
  switch (settings.kind) {
    case 'GITHUB':
      return githubClient(settings);
    case 'GOOGLE':
      return oidcClient(settings, GOOGLE_ISSUER);
    case 'OIDC':
      return oidcClient(settings, settings.issuerUrl);
  }
}

/** Forgets every discovered configuration (tests; an admin's change of issuer needs none). */
export function forgetDiscoveries(): void {
  discovered.clear();
}
