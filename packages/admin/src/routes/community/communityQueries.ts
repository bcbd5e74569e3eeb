import type { ConsoleMessageKey } from '../../i18n';
import type { Role } from '../../Viewer';
import type { CommunityUser } from './UserRow';

/** A user's status as the API reports it (`UserStatus`). */
export type UserStatus = NonNullable<CommunityUser['status']>;

/** Every status, in the order of the status filter. */
export const USER_STATUSES: readonly UserStatus[] = ['ACTIVE', 'SUSPENDED', 'BANNED', 'PREMOD'];

/** Users per page of the community table. */
export const USERS_PAGE_SIZE = 20;

// The user actions are the documents the stream and the moderation route send too. They are
// exported here as well because scripts/persistedDocuments.ts lists the operations the console's
// own modules export.
export {
  BAN_USER_MUTATION,
  SET_USER_PREMOD_MUTATION,
  SET_USER_ROLE_MUTATION,
  SUSPEND_USER_MUTATION,
  UNBAN_USER_MUTATION,
} from '@parley/transport/user-actions';

/** Catalog keys of the words for roles and statuses in the table and the selects (`t(key)`). */
export const LABELS: Readonly<Record<Role | UserStatus, ConsoleMessageKey>> = {
  COMMENTER: 'console.community.label.COMMENTER',
  STAFF: 'console.community.label.STAFF',
  MODERATOR: 'console.community.label.MODERATOR',
  ADMIN: 'console.community.label.ADMIN',
  ACTIVE: 'console.community.label.ACTIVE',
  SUSPENDED: 'console.community.label.SUSPENDED',
  BANNED: 'console.community.label.BANNED',
  PREMOD: 'console.community.label.PREMOD',
};
