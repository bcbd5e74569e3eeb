import { ACCOUNT_DELETION_GRACE_SECONDS, AVATAR_TYPES } from '@parley/contract';

// Figures of the profile tab: its own, and the server's as @parley/contract gives them.

/** Comments per page of "My comments". */
export const MY_COMMENTS_PAGE_SIZE = 10;

/** Days between a deletion request and the deletion (the server's grace period). */
export const ACCOUNT_DELETION_GRACE_DAYS = ACCOUNT_DELETION_GRACE_SECONDS / 86_400;

/**
 * The file picker's `accept`: the image types the server takes as avatars. The server still
 * sniffs the bytes and answers UPLOAD_TYPE_NOT_ALLOWED otherwise.
 */
export const AVATAR_ACCEPT = AVATAR_TYPES.join(',');
