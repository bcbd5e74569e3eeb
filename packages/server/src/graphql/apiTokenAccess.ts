/**
 * What a request made with an API token may do (db/store/apiTokens.ts). The token acts as the
 * admin who made it, narrowed by its scope:
 *
 * - `READ`: every query and subscription its admin may make; no mutation at all.
 * - `MODERATE`: as a moderator — the moderation queues and the decisions on comments and people
 *   (approve, reject, feature, ban, suspend, premoderate, a story's settings).
 * - `ADMIN`: as an admin — the above, and settings, sites, SSO keys, roles, invitations.
 *
 * Whatever the scope, a token never signs in or out, posts, reacts, reports, or changes an
 * account (a password, an email, two-factor sign-in, API tokens themselves): those mutations
 * are refused with `FORBIDDEN`, by an allow-list, so a mutation added later is refused to tokens
 * until someone decides otherwise. A token stops working (`TOKEN_INVALID`, 401) once revoked, and
 * once its admin is no longer an admin, is banned, or is erased.
 */
import type { UserRole } from '../db/schema';
import { findApiTokenStanding, isApiTokenSecret, touchApiToken } from '../db/store/apiTokens';
import type { ApiToken, ApiTokenScope } from '../db/store/apiTokens';
import type { User } from '../db/store/users';
import type { Db } from '../db/inTransaction';
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
  'banUser',
  'unbanUser',
  'suspendUser',
  'setUserPremod',
  'updateStory',
] as const;

/** The mutations only an `ADMIN` token may call, beside the moderators'. */
const ADMIN_MUTATIONS = [
  'setUserRole',
  'updateSettings',
  'createSite',
  'updateSite',
  'rotateSsoKey',
  'revokeSsoKey',
  'sendTestEmail',
  'inviteModerator',
] as const;

/** Which mutations each scope may call. */
export const MUTATIONS_BY_SCOPE: Readonly<Record<ApiTokenScope, ReadonlySet<string>>> = {
  READ: new Set(),
  MODERATE: new Set(MODERATE_MUTATIONS),
  ADMIN: new Set([...MODERATE_MUTATIONS, ...ADMIN_MUTATIONS]),
};

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
): Promise<{ user: User; token: ApiToken }> {
  const standing = await findApiTokenStanding(db, { secret });
  if (standing === undefined) throw invalid('This API token is not known to this server.');
  const { token, user } = standing;
  if (token.revokedAt !== null) throw invalid('This API token was revoked.');
  if (!holdsUp(user, now)) {
    throw invalid('The admin who made this API token is no longer an admin here.');
  }
  await touchApiToken(db, token, now);
  return { user: { ...user, role: SCOPE_ROLE[token.scope] }, token };
}

/**
 * Whether a token's admin still vouches for it: an admin, neither banned nor suspended. (Erasing
 * an account deletes its tokens.)
 */
export function holdsUp(user: User, now: Date): boolean {
  return (
    user.role === 'ADMIN' &&
    !user.banned &&
    (user.suspendedUntil === null || new Date(user.suspendedUntil) <= now)
  );
}

/**
 * Whether a request's bearer credential is an API token that works (trustedDocuments.ts lets such
 * a request send its own query text). Does not mark it used: the operation's context does.
 */
export async function apiTokenWorks(db: Db, secret: string | null, now: Date): Promise<boolean> {
  if (secret === null || !isApiTokenSecret(secret)) return false;
  const standing = await findApiTokenStanding(db, { secret });
  return standing !== undefined && standing.token.revokedAt === null && holdsUp(standing.user, now);
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
