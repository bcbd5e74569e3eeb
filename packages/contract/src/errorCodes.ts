/**
 * Every code the server puts in `extensions.code`. This list is the contract shared with the
 * clients: the server throws them, the clients map each code to text with a
 * `Record<ServerErrorCode, …>`, so a code added here without a message fails to compile.
 */
export const SERVER_ERROR_CODES = [
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'INVALID_INPUT',
  'NOT_FOUND',
  'USERNAME_TAKEN',
  'EMAIL_TAKEN',
  'INVALID_CREDENTIALS',
  'COMMENT_EMPTY',
  'COMMENT_TOO_LONG',
  'BANNED_WORD',
  'EDIT_WINDOW_EXPIRED',
  'STORY_CLOSED',
  'USER_BANNED',
  'USER_SUSPENDED',
  'RATE_LIMITED',
  'ORIGIN_NOT_PERMITTED',
  'ALREADY_INSTALLED',
  'NOT_INSTALLED',
  'TOKEN_INVALID',
  'TOKEN_EXPIRED',
  'UPLOAD_TOO_LARGE',
  'UPLOAD_TYPE_NOT_ALLOWED',
  /** The server's disk is full: nothing was written; try again later. */
  'STORAGE_FULL',
  /** A service the server needs (Redis, the database) is unreachable: nothing was done. */
  'SERVICE_UNAVAILABLE',
  /** Sign-in needs a proof of work first (`extensions.challenge`): many recent failures. */
  'CHALLENGE_REQUIRED',
  /** A sign-up's emailed code is wrong, or its sign-up expired or was dropped after 5 tries. */
  'CODE_INVALID',
  /** The request's content type is not one the API accepts (cross-site form posts). */
  'UNSUPPORTED_MEDIA_TYPE',
  /**
   * The request named a document the server does not know (a page older than the server: reload),
   * or sent query text to a server that runs only its clients' documents.
   */
  'DOCUMENT_NOT_TRUSTED',
  /**
   * The password was right and the account has two-factor sign-in: finish with
   * `signInSecondFactor` and `extensions.ticket`.
   */
  'TWO_FACTOR_CODE_REQUIRED',
  /** A two-factor code (or recovery code) is wrong, used already, or the ticket has expired. */
  'TWO_FACTOR_CODE_INVALID',
  /** A staff operation from a session that skipped the account's second factor: sign in again. */
  'SECOND_FACTOR_REQUIRED',
  /** The organization requires two-factor sign-in of staff: set it up before moderating. */
  'TWO_FACTOR_ENROLMENT_REQUIRED',
  /** The reader refused consent on the sign-in provider's page: nothing was shared. */
  'SIGN_IN_DENIED',
  /** A provider sign-in's state is unknown, used, expired, or from another window: start again. */
  'SIGN_IN_EXPIRED',
  /** The sign-in provider did not answer (network, time-out, a 5xx): try again later. */
  'SIGN_IN_PROVIDER_UNREACHABLE',
  /** The sign-in provider's answer was refused (an error, a token that did not verify). */
  'SIGN_IN_PROVIDER_FAILED',
  /** That provider does not exist or is not switched on for this site. */
  'SIGN_IN_PROVIDER_DISABLED',
  /** That provider account is connected to another Parley account. */
  'SIGN_IN_IDENTITY_TAKEN',
  /**
   * The provider's verified address is an account's here: its owner proves it (the password with
   * `connectProviderWithPassword`, or an emailed link) before the two are connected. `extensions`
   * carries `email` and `provider` (its name).
   */
  'SIGN_IN_LINK_REQUIRED',
  /** Guest comments are switched off (Settings.guestComments): sign in or sign up to comment. */
  'GUEST_COMMENTS_OFF',
  /** A guest's name is, or looks like, a member's username: choose another. */
  'GUEST_NAME_TAKEN',
  /** Guests post, edit and delete their comments (and may sign in or up): sign up to do this. */
  'GUEST_NOT_ALLOWED',
  /**
   * The request's address is in a range moderators banned for now (`extensions.until`); for a
   * guest, also an address the server cannot tell (no `until`).
   */
  'IP_BANNED',
  'INTERNAL',
] as const;

/** A code the server sends in `extensions.code`. */
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];

/** True when `value` is one of the server's error codes. */
export function isServerErrorCode(value: unknown): value is ServerErrorCode {
  return typeof value === 'string' && (SERVER_ERROR_CODES as readonly string[]).includes(value);
}
