/**
 * What a request made with an API token may do (db/store/apiTokens.ts). The token acts as the
 * admin who made it, narrowed by its scope:
 *
 * - `READ`: every query and subscription its admin may make; no mutation at all.
 * - `MODERATE`: as a moderator — the moderation queues and the decisions on comments and people
 *   (approve, reject, feature, ban, suspend, premoderate, a story's settings).
 * - `ADMIN`: as an admin — the above, and the settings (not the mail server's, the staff
 *   two-factor rule, the session length, the audit log's retention or the stream's custom
 *   stylesheet), a site's name, URL and origins, revoking SSO keys, the test email. (A site's
 *   origins decide where the stream may be framed: a leaked ADMIN token can add one; that is
 *   accepted, as it signs nobody in and the audit log names the token.)
 *
 * Whatever the scope, a token never signs in or out, posts, reacts, reports, or changes an
 * account (a password, an email, two-factor sign-in, API tokens themselves); nor does it make
 * people or keys that could sign in (roles, invitations, new sites or SSO keys, whose secrets
 * would let its holder mint accounts), nor point the mail (reset links) at another server. Those
 * are refused with `FORBIDDEN`, by an allow-list, so a mutation added later is refused to tokens
 * until someone decides otherwise. A request made with a token never creates a story.
 *
 * A token stops working (`TOKEN_INVALID`, 401) once revoked; once its admin signs out everywhere
 * or changes their password (their session epoch moves on); while they are not an admin, are
 * banned or suspended, or lack the two-factor sign-in the organization requires of staff; and
 * for good once they stop being an admin (setUserRole revokes their tokens) or are erased.
 */
import type { UserRole } from '../db/schema';
import { findApiTokenStanding, isApiTokenSecret, touchApiToken } from '../db/store/apiTokens';
import type { ApiToken, ApiTokenScope } from '../db/store/apiTokens';
import type { User } from '../db/store/users';
import type { Settings } from '../db/store/organization';
import type { Db } from '../db/inTransaction';
import { parseBearer } from '../runtime/createYogaApp';
import { ParleyError } from '../ParleyError';

/** The scopes, narrowest first. */
export const API_TOKEN_SCOPES: readonly ApiTokenScope[] = ['READ', 'MODERATE', 'ADMIN'];

/** The role a token of each scope acts with. */
const SCOPE_ROLE: Record<ApiTokenScope, UserRole> = {
  READ: 'ADMIN',
  MODERATE: 'MODERATOR',
  ADMIN: 'ADMIN',
};

/** The mutations a `MODERATE` token may call (an `ADMIN` token too). */
const MODERATE_MUTATIONS = [
  'approveComment',
  'rejectComment',
  'featureComment',
  'unfeatureComment',
  'pinComment',
  'unpinComment',
  'banUser',
  'unbanUser',
  'suspendUser',
  'setUserPremod',
  'updateStory',
] as const;

/** The mutations only an `ADMIN` token may call, beside the moderators'. */
const ADMIN_MUTATIONS = ['updateSettings', 'updateSite', 'revokeSsoKey', 'sendTestEmail'] as const;

/** Settings a token never changes: where mail goes, and how staff and sessions sign in. */
export const SESSION_ONLY_SETTINGS = [
  'smtpHost',
  'smtpPort',
  'smtpSecure',
  'smtpUser',
  'smtpPassword',
  'smtpFrom',
  'requireStaffTwoFactor',
  'sessionSeconds',
  'auditRetentionDays',
  // A stylesheet in every reader's frame: no script, but tracking images and on-screen text.
  'customCssUrl',
  // What the server may reach on its own network: the webhooks' guard.
  'webhooksAllowPrivateAddresses',
] as const;

/** Which mutations each scope may call. */
export const MUTATIONS_BY_SCOPE: Readonly<Record<ApiTokenScope, ReadonlySet<string>>> = {
  READ: new Set(),
  MODERATE: new Set(MODERATE_MUTATIONS),
  ADMIN: new Set([...MODERATE_MUTATIONS, ...ADMIN_MUTATIONS]),
};

/**
 * A request's token as read for it: a request with its own query text is asked about twice (may
 * it send text? whom does it act as?), and the second answer comes from the first read.
 */
const readFor = new WeakMap<Request, ReturnType<typeof findApiTokenStanding>>();

function lookUp(db: Db, secret: string, request: Request | undefined) {
  if (request === undefined) return findApiTokenStanding(db, { secret });
  let standing = readFor.get(request);
  if (standing === undefined)
    readFor.set(request, (standing = findApiTokenStanding(db, { secret })));
  return standing;
}

function invalid(message: string): ParleyError {
  return new ParleyError('TOKEN_INVALID', message, { httpStatus: 401 });
}

/**
 * The user a token's secret acts as (their role narrowed to the scope's) and the token; throws
 * `TOKEN_INVALID` for an unknown or revoked token, or one whose admin no longer holds it up.
 * Marks the token used.
 */
export async function apiTokenViewerOf(
  db: Db,
  secret: string,
  now: Date,
  settings: () => Promise<Pick<Settings, 'requireStaffTwoFactor'>>,
  /** The HTTP request it came with (its lookup is shared with {@link apiTokenWorks}'s). */
  request?: Request,
): Promise<{ user: User; token: ApiToken }> {
  const standing = await lookUp(db, secret, request);
  if (standing === undefined) throw invalid('This API token is not known to this server.');
  const { token, user } = standing;
  if (token.revokedAt !== null) throw invalid('This API token was revoked.');
  if (!holdsUp(token, user, now, await settings())) {
    throw invalid(
      'The admin who made this API token no longer vouches for it here (signed out everywhere, not an admin, or without the two-factor sign-in staff need).',
    );
  }
  await touchApiToken(db, token, now);
  return { user: { ...user, role: SCOPE_ROLE[token.scope] }, token };
}

/**
 * Whether a token's admin still vouches for it: an admin of the same session epoch as when they
 * made it, neither banned nor suspended, with the second factor the organization requires of
 * staff (an SSO admin's site answers for theirs, as for their sessions). Erasing an account
 * deletes its tokens.
 */
export function holdsUp(
  token: Pick<ApiToken, 'creatorEpoch'>,
  user: User,
  now: Date,
  settings: Pick<Settings, 'requireStaffTwoFactor'>,
): boolean {
  return (
    user.role === 'ADMIN' &&
    user.sessionEpoch === token.creatorEpoch &&
    !user.banned &&
    (user.suspendedUntil === null || new Date(user.suspendedUntil) <= now) &&
    (!settings.requireStaffTwoFactor || user.ssoSiteId !== null || user.twoFactorEnabled)
  );
}

/**
 * Whether a request's bearer credential is an API token that works (trustedDocuments.ts lets such
 * a request send its own query text). Does not mark it used: the operation's context does.
 */
export async function apiTokenWorks(
  db: Db,
  request: Request,
  now: Date,
  settings: () => Promise<Pick<Settings, 'requireStaffTwoFactor'>>,
): Promise<boolean> {
  const secret = parseBearer(request.headers.get('authorization'));
  if (secret === null || !isApiTokenSecret(secret)) return false;
  const standing = await lookUp(db, secret, request);
  return standingHolds(standing, now, settings);
}

async function standingHolds(
  standing: Awaited<ReturnType<typeof findApiTokenStanding>>,
  now: Date,
  settings: () => Promise<Pick<Settings, 'requireStaffTwoFactor'>>,
): Promise<boolean> {
  return (
    standing !== undefined &&
    standing.token.revokedAt === null &&
    holdsUp(standing.token, standing.user, now, await settings())
  );
}

/** Whether the token a secret or an id names works now (see {@link holdsUp}). */
export async function tokenHolds(
  db: Db,
  by: { secret: string } | { id: string },
  now: Date,
  settings: () => Promise<Pick<Settings, 'requireStaffTwoFactor'>>,
): Promise<boolean> {
  return standingHolds(await findApiTokenStanding(db, by), now, settings);
}

/**
 * `FORBIDDEN` when a request made with a token would change a setting only a signed-in admin may
 * ({@link SESSION_ONLY_SETTINGS}).
 */
export function requireTokenMaySet(
  token: ApiToken | null,
  input: Readonly<Record<string, unknown>>,
): void {
  if (token === null) return;
  const refused = SESSION_ONLY_SETTINGS.filter((name) => input[name] !== undefined);
  if (refused.length > 0) {
    throw new ParleyError(
      'FORBIDDEN',
      `An API token may not change ${refused.join(', ')}; sign in to do it.`,
      { field: refused[0] },
    );
  }
}

/** Throws `FORBIDDEN` when a request made with `token` may not call the mutation `field`. */
export function requireTokenMayCall(token: Pick<ApiToken, 'scope'> | null, field: string): void {
  if (token === null || MUTATIONS_BY_SCOPE[token.scope].has(field)) return;
  throw new ParleyError(
    'FORBIDDEN',
    token.scope === 'READ'
      ? 'This API token may only read.'
      : `An API token of scope ${token.scope} may not call ${field}; sign in to do it.`,
  );
}
