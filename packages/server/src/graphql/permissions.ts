import type { UserRole } from '../db/schema';
import type { User } from '../db/store/users';
import { ParleyError } from '../ParleyError';
import type { ParleyContext } from './context';

const RANK: Record<UserRole, number> = { COMMENTER: 0, STAFF: 1, MODERATOR: 2, ADMIN: 3 };

/** Whether `user` has `role` or a higher one. */
export function hasRole(user: User | null | undefined, role: UserRole): boolean {
  return user != null && RANK[user.role] >= RANK[role];
}

/** The signed-in user, or `UNAUTHENTICATED`. */
export function requireViewer(ctx: ParleyContext): User {
  if (!ctx.viewer) throw new ParleyError('UNAUTHENTICATED', 'Sign in to do this.');
  return ctx.viewer;
}

/** The signed-in user if they have `role` or higher; else `UNAUTHENTICATED` / `FORBIDDEN`. */
export function requireRole(ctx: ParleyContext, role: UserRole): User {
  const viewer = requireViewer(ctx);
  if (!hasRole(viewer, role)) {
    throw new ParleyError('FORBIDDEN', `Only ${role.toLowerCase()}s and above may do this.`);
  }
  return viewer;
}

/** Moderators and admins. */
export const isModerator = (user: User | null | undefined): boolean => hasRole(user, 'MODERATOR');
