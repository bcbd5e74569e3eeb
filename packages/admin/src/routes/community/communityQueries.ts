import { graphql } from '@parley/transport/graphql';
import type { Role } from '../../Viewer';
import type { CommunityUser } from './UserRow';

/** A user's status as the API reports it (`UserStatus`). */
export type UserStatus = NonNullable<CommunityUser['status']>;

/** Every role, lowest first (the order of the role filter and the role select). */
export const ROLES: readonly Role[] = ['COMMENTER', 'STAFF', 'MODERATOR', 'ADMIN'];

/** Every status, in the order of the status filter. */
export const USER_STATUSES: readonly UserStatus[] = ['ACTIVE', 'SUSPENDED', 'BANNED', 'PREMOD'];

/** Users per page of the community table. */
export const USERS_PAGE_SIZE = 20;

// The status actions of UserActions answer the user with the row's fields written out: UserRow's
// fragment cannot be spread in this module, which UserRow imports.

/** Bans a user, with an optional message emailed to them. */
export const BAN_MUTATION = graphql(`
  mutation ConsoleBanUser($input: BanUserInput!) {
    banUser(input: $input) { user { id username email role status suspendedUntil createdAt } }
  }
`);

/** Lifts a ban or a suspension. */
export const UNBAN_MUTATION = graphql(`
  mutation ConsoleUnbanUser($input: UserIdInput!) {
    unbanUser(input: $input) { user { id username email role status suspendedUntil createdAt } }
  }
`);

/** Suspends a user until a time, with an optional message. */
export const SUSPEND_MUTATION = graphql(`
  mutation ConsoleSuspendUser($input: SuspendUserInput!) {
    suspendUser(input: $input) { user { id username email role status suspendedUntil createdAt } }
  }
`);

/** Turns a user's pre-moderation on or off. */
export const PREMOD_MUTATION = graphql(`
  mutation ConsoleSetUserPremod($input: SetUserPremodInput!) {
    setUserPremod(input: $input) { user { id username email role status suspendedUntil createdAt } }
  }
`);

/** Words for roles and statuses in the table and the selects. */
export const LABELS: Record<Role | UserStatus, string> = {
  COMMENTER: 'Commenter',
  STAFF: 'Staff',
  MODERATOR: 'Moderator',
  ADMIN: 'Admin',
  ACTIVE: 'Active',
  SUSPENDED: 'Suspended',
  BANNED: 'Banned',
  PREMOD: 'Pre-moderated',
};
