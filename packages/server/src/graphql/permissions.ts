import type { UserRole } from '../db/schema';
import type { Settings } from '../db/store/organization';
import type { User } from '../db/store/users';
import { ParleyError } from '../ParleyError';
import type { ParleyContext } from './context';

const RANK: Record<UserRole, number> = { COMMENTER: 0, STAFF: 1, MODERATOR: 2, ADMIN: 3 };

/** Whether `user` has `role` or a higher one. */
export function hasRole(user: User | null | undefined, role: UserRole): boolean {
  return user != null && RANK[user.role] >= RANK[role];
}

/**
 * Whether `user` is the viewer reading their own account (sessions, notification settings, the
 * replies feed…): never a request made with an API token, which acts as its admin for the
 * install's business, not for their account.
 */
export function isOwnAccount(
  ctx: Pick<ParleyContext, 'viewer' | 'apiToken'>,
  user: Pick<User, 'id'>,
): boolean {
  return ctx.viewer?.id === user.id && ctx.apiToken === null;
}

/** The signed-in user, or `UNAUTHENTICATED`. */
export function requireViewer(ctx: ParleyContext): User {
  if (!ctx.viewer) throw new ParleyError('UNAUTHENTICATED', 'Sign in to do this.');
  return ctx.viewer;
}

/**
 * The signed-in user if they have `role` or higher; else `UNAUTHENTICATED` / `FORBIDDEN`. A staff
 * role counts only from a session that may act as staff (see `StaffAccess`): else
 * `SECOND_FACTOR_REQUIRED` (sign in again with the app's code) or `TWO_FACTOR_ENROLMENT_REQUIRED` (set up
 * two-factor sign-in first).
 */
export function requireRole(ctx: ParleyContext, role: UserRole): User {
  const viewer = requireViewer(ctx);
  if (!hasRole(viewer, role)) {
    throw new ParleyError('FORBIDDEN', `Only ${role.toLowerCase()}s and above may do this.`);
  }
  if (role !== 'COMMENTER') requireStaffAccess(ctx);
  return viewer;
}

/**
 * An admin in a session of their own, never a request made with an API token: what only a person
 * may do (make or revoke tokens, say where webhooks send the organization's data).
 */
export function requireSignedInAdmin(ctx: ParleyContext, what: string): User {
  const admin = requireRole(ctx, 'ADMIN');
  if (ctx.apiToken !== null) {
    throw new ParleyError('FORBIDDEN', `${what} are managed by a signed-in admin only.`);
  }
  return admin;
}

/** Throws unless the viewer may act as staff in this session (see `StaffAccess`). */
export function requireStaffAccess(ctx: ParleyContext): void {
  if (ctx.staffAccess === 'SECOND_FACTOR_NEEDED') {
    throw new ParleyError(
      'SECOND_FACTOR_REQUIRED',
      'This session was signed in without your authenticator app: sign in again with its code to moderate.',
    );
  }
  if (ctx.staffAccess === 'ENROLMENT_NEEDED') {
    throw new ParleyError(
      'TWO_FACTOR_ENROLMENT_REQUIRED',
      'Your organization requires two-factor sign-in for staff: set it up in the console first.',
    );
  }
}

/** Moderators and admins. */
export const isModerator = (user: User | null | undefined): boolean => hasRole(user, 'MODERATOR');

/**
 * Anyone may read when the organization allows anonymous reading; else only the signed-in
 * (`UNAUTHENTICATED`). Comment counts on article lists stay public: they are numbers, not content.
 */
export async function requireReader(ctx: ParleyContext): Promise<void> {
  if (ctx.viewer) return;
  requireAnonymousReading(await ctx.settings());
}

/** `UNAUTHENTICATED` unless the organization lets signed-out readers read (feeds, too). */
export function requireAnonymousReading(settings: Pick<Settings, 'anonymousReading'>): void {
  if (!settings.anonymousReading) {
    throw new ParleyError('UNAUTHENTICATED', 'Sign in to read the comments.');
  }
}

/**
 * An SSO account is bound to the site whose key created it: that site vouches for its readers,
 * and only on its own stories. Another site permitted on the same install (another owner) must
 * not be able to mint accounts that post, react or report on this site's stories.
 */
export function requireHomeSite(user: User, story: { siteId: string }): void {
  if (user.ssoSiteId !== null && user.ssoSiteId !== story.siteId) {
    throw new ParleyError(
      'FORBIDDEN',
      'This account was signed in by another site; it can take part only on that site.',
    );
  }
}

/**
 * The signed-in user in good standing: banned (`USER_BANNED`) and suspended (`USER_SUSPENDED`, with
 * `until`) users may read but not react or report — else a banned troll's accounts could still
 * report a comment into withholding.
 */
export function requireActiveUser(ctx: ParleyContext): User {
  const viewer = requireViewer(ctx);
  if (viewer.banned) throw new ParleyError('USER_BANNED', 'Your account is banned.');
  if (viewer.suspendedUntil && new Date(viewer.suspendedUntil) > ctx.now()) {
    throw new ParleyError('USER_SUSPENDED', 'Your account is suspended for now.', {
      until: viewer.suspendedUntil,
    });
  }
  return viewer;
}
