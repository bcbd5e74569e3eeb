// The account rules' figures and the account pages' paths, which the server enforces and links
// to, and the popup and the console check and route before a round trip.

/** Fewest characters (code points) in a username. */
export const USERNAME_MIN_LENGTH = 3;

/** Most characters (code points) in a username. */
export const USERNAME_MAX_LENGTH = 30;

/** Characters a username may hold: letters of any script, digits, `_` and `.`. */
export const USERNAME_PATTERN = /^[\p{L}\p{N}_.]+$/u;

/** Fewest characters (code points) in a guest's name. */
export const GUEST_NAME_MIN_LENGTH = 2;

/** Most characters (code points) in a guest's name. */
export const GUEST_NAME_MAX_LENGTH = 30;

/** Most characters in an email address. */
export const EMAIL_MAX_LENGTH = 100;

/** Fewest characters in a new password. */
export const PASSWORD_MIN_LENGTH = 8;

/** Digits of the code a sign-up emails. */
export const SIGN_UP_CODE_DIGITS = 6;

/**
 * The console's account pages, under the server's public URL: its emails link to them with
 * `#token=…`, and the console routes them.
 */
export const ACCOUNT_PATHS = Object.freeze({
  confirmEmail: '/account/confirm-email',
  resetPassword: '/account/reset-password',
  download: '/account/download',
  unsubscribe: '/account/unsubscribe',
  acceptInvite: '/account/accept-invite',
  /** A moderation email's Approve or Reject link: the comment, and a button that decides. */
  moderate: '/account/moderate',
  settings: '/account',
});

/** Time between a deletion request and the deletion, in seconds (7 days to change one's mind). */
export const ACCOUNT_DELETION_GRACE_SECONDS = 604_800;

/**
 * Avatar image types the server accepts (it sniffs the bytes); the profile's file picker offers
 * only these.
 */
export const AVATAR_TYPES = Object.freeze(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
