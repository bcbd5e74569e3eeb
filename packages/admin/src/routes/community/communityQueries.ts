import type { Role } from '../../Viewer';

/** A user's status as the API reports it. */
export type UserStatus = 'ACTIVE' | 'SUSPENDED' | 'BANNED' | 'PREMOD';

/** Every role, lowest first (the order of the role filter and the role select). */
export const ROLES: readonly Role[] = ['COMMENTER', 'STAFF', 'MODERATOR', 'ADMIN'];

/** Every status, in the order of the status filter. */
export const USER_STATUSES: readonly UserStatus[] = ['ACTIVE', 'SUSPENDED', 'BANNED', 'PREMOD'];

/** Users per page of the community table. */
export const USERS_PAGE_SIZE = 20;

/** A row of the community table. */
export interface CommunityUser {
  id: string;
  username: string;
  email: string | null;
  role: Role;
  status: UserStatus | null;
  suspendedUntil: string | null;
  createdAt: string;
}

/** One page of users. */
export interface UsersData {
  users: {
    edges: { cursor: string; node: CommunityUser }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

/** Variables of {@link USERS_QUERY}. */
export interface UsersVariables {
  query: string | null;
  role: Role | null;
  status: UserStatus | null;
  first: number;
  after: string | null;
}

const USER_FIELDS = 'id username email role status suspendedUntil createdAt';

/** The community table: one page of users matching the filters. */
export const USERS_QUERY = `query ConsoleUsers($query: String, $role: Role, $status: UserStatus, $first: Int, $after: String) {
  users(query: $query, role: $role, status: $status, first: $first, after: $after) {
    edges { cursor node { ${USER_FIELDS} } }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** Changes a user's role (admins only). */
export const SET_ROLE_MUTATION = `mutation ConsoleSetUserRole($input: SetUserRoleInput!) {
  setUserRole(input: $input) { user { ${USER_FIELDS} } }
}`;

/** Bans a user, with an optional message emailed to them. */
export const BAN_MUTATION = `mutation ConsoleBanUser($input: BanUserInput!) {
  banUser(input: $input) { user { ${USER_FIELDS} } }
}`;

/** Lifts a ban or a suspension. */
export const UNBAN_MUTATION = `mutation ConsoleUnbanUser($input: UserIdInput!) {
  unbanUser(input: $input) { user { ${USER_FIELDS} } }
}`;

/** Suspends a user until a time, with an optional message. */
export const SUSPEND_MUTATION = `mutation ConsoleSuspendUser($input: SuspendUserInput!) {
  suspendUser(input: $input) { user { ${USER_FIELDS} } }
}`;

/** Turns a user's pre-moderation on or off. */
export const PREMOD_MUTATION = `mutation ConsoleSetUserPremod($input: SetUserPremodInput!) {
  setUserPremod(input: $input) { user { ${USER_FIELDS} } }
}`;

/** Makes the account with an email a moderator, inviting a new person by email. */
export const INVITE_MUTATION = `mutation ConsoleInviteModerator($input: InviteModeratorInput!) {
  inviteModerator(input: $input) { user { ${USER_FIELDS} } }
}`;

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
