import type { ErrorCode } from '@parley/transport';

/**
 * What each coded error says in the console. `Record<ErrorCode, …>`: a code added to the shared
 * list without text here fails to compile; text is chosen by code, never by the server's message.
 */
export const ERROR_TEXT: Record<ErrorCode, string> = {
  UNAUTHENTICATED: 'Please sign in.',
  FORBIDDEN: 'Your role does not allow this.',
  INVALID_INPUT: 'Please check the highlighted fields.',
  NOT_FOUND: 'It no longer exists.',
  USERNAME_TAKEN: 'That username is taken.',
  EMAIL_TAKEN: 'That email already has an account.',
  INVALID_CREDENTIALS: 'That email and password do not match.',
  COMMENT_EMPTY: 'The comment is empty.',
  COMMENT_TOO_LONG: 'The comment is too long.',
  BANNED_WORD: 'The text contains a banned word.',
  EDIT_WINDOW_EXPIRED: 'The edit window has passed.',
  STORY_CLOSED: 'The story is closed.',
  USER_BANNED: 'This account is banned.',
  USER_SUSPENDED: 'This account is suspended.',
  RATE_LIMITED: 'Too many attempts. Wait a moment and try again.',
  ORIGIN_NOT_PERMITTED: 'That origin is not permitted for any site.',
  ALREADY_INSTALLED: 'Parley is already installed.',
  NOT_INSTALLED: 'Parley is not installed yet.',
  TOKEN_INVALID: 'This link or session is not valid.',
  TOKEN_EXPIRED: 'This link or session has expired.',
  UPLOAD_TOO_LARGE: 'The file is too large.',
  UPLOAD_TYPE_NOT_ALLOWED: 'That kind of file is not allowed.',
  STORAGE_FULL: 'The server has no disk space left. Nothing was saved; try again later.',
  SERVICE_UNAVAILABLE: 'A service the server needs is down. Nothing was done; try again shortly.',
  CODE_INVALID: 'That code is not right, or it has expired.',
  CHALLENGE_REQUIRED: 'Checking this browser after many failed sign-ins…',
  DOCUMENT_NOT_TRUSTED: 'Parley was updated since this page loaded. Reload the page.',
  TWO_FACTOR_CODE_REQUIRED: 'Enter the code from your authenticator app.',
  TWO_FACTOR_CODE_INVALID:
    'That code is not right or was used already. Enter the code your app shows now, or a recovery code.',
  SECOND_FACTOR_REQUIRED:
    'This session was signed in without your authenticator app. Sign out, then sign in again with its code.',
  TWO_FACTOR_ENROLMENT_REQUIRED:
    'Set up two-factor sign-in for your account first, under Security.',
  UNSUPPORTED_MEDIA_TYPE: 'The request was refused: it was not sent as JSON.',
  SIGN_IN_DENIED: 'You did not allow the sign-in: nothing was shared.',
  SIGN_IN_EXPIRED: 'This sign-in expired or was started in another window. Start again.',
  SIGN_IN_PROVIDER_UNREACHABLE: 'The sign-in provider could not be reached. Try again in a moment.',
  SIGN_IN_PROVIDER_FAILED: "The sign-in provider's answer was refused. Check its settings.",
  SIGN_IN_PROVIDER_DISABLED: 'That sign-in provider is not switched on for this site.',
  SIGN_IN_IDENTITY_TAKEN: 'That account is connected to another Parley account already.',
  SIGN_IN_LINK_REQUIRED: 'An account uses that email: prove it is yours to connect the two.',
  INTERNAL: 'Something went wrong on the server. Try again.',
  GUEST_COMMENTS_OFF: 'Comments as a guest are switched off.',
  GUEST_NAME_TAKEN: "That name is, or looks like, a member's username.",
  GUEST_NOT_ALLOWED: 'Guests can only post, edit and delete their comments.',
  IP_BANNED: 'This network is banned for now.',
  NETWORK_ERROR: 'Cannot reach the server. Check the connection.',
  REQUEST_TIMEOUT: 'The server did not answer in time. Try again.',
  BAD_RESPONSE: 'The server sent an unexpected answer.',
  STORAGE_QUOTA_EXCEEDED: 'The browser has no room left for the console’s data.',
  STORAGE_UNAVAILABLE: 'The browser does not let the console keep data.',
  STORAGE_INVALID_VALUE: 'That value cannot be stored.',
};

/** The text of a code. */
export function errorText(code: ErrorCode): string {
  return ERROR_TEXT[code];
}
