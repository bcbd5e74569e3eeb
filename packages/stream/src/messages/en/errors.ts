import type { ErrorCode } from '@parley/transport';
import type { Message } from '../../i18n/createTranslator';

// What each coded error says to a reader. `Record<ErrorCode, …>`: a code added to the shared list
// without text here fails to compile; text is chosen by code, never by the server's message. Variables: `{seconds}` (RATE_LIMITED,
// from `extensions.retryAfterSeconds`), `{until}` (USER_SUSPENDED, a formatted date when known).

/**
 * Codes only the account forms meet (the profile tab, the sign-in popup, the console's install):
 * their text travels with those chunks (accountErrors.ts). With {@link messages}, every code has
 * a text, and a code added to the shared list without one still fails to compile.
 */
export type AccountErrorCode =
  | 'USERNAME_TAKEN'
  | 'EMAIL_TAKEN'
  | 'INVALID_CREDENTIALS'
  | 'UPLOAD_TOO_LARGE'
  | 'UPLOAD_TYPE_NOT_ALLOWED'
  | 'ALREADY_INSTALLED'
  | 'CHALLENGE_REQUIRED'
  | 'CODE_INVALID'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'TWO_FACTOR_CODE_REQUIRED'
  | 'TWO_FACTOR_CODE_INVALID'
  | 'SIGN_IN_DENIED'
  | 'SIGN_IN_EXPIRED'
  | 'SIGN_IN_PROVIDER_UNREACHABLE'
  | 'SIGN_IN_PROVIDER_FAILED'
  | 'SIGN_IN_PROVIDER_DISABLED'
  | 'SIGN_IN_IDENTITY_TAKEN'
  | 'SIGN_IN_LINK_REQUIRED'
  | 'GUEST_NAME_TAKEN'
  | 'GUEST_COMMENTS_OFF'
  | 'GUEST_NOT_ALLOWED'
  | 'IP_BANNED';

/** English error messages of the first render: every code but the account forms'. */
export const messages: Record<`error.${Exclude<ErrorCode, AccountErrorCode>}`, Message> = {
  'error.UNAUTHENTICATED': 'Please sign in first.',
  'error.FORBIDDEN': 'You are not allowed to do that.',
  'error.INVALID_INPUT': 'Please check what you entered.',
  'error.NOT_FOUND': 'That comment or story no longer exists.',
  'error.COMMENT_EMPTY': 'Write something first.',
  'error.COMMENT_TOO_LONG': 'Your comment is too long. Please shorten it.',
  'error.BANNED_WORD':
    'Your comment contains a word this community does not allow. Please edit it and post again.',
  'error.EDIT_WINDOW_EXPIRED': 'The time to edit this comment has passed.',
  'error.DOCUMENT_NOT_TRUSTED': 'Parley was updated. Reload the page.',
  'error.SECOND_FACTOR_REQUIRED': 'Sign in again with your authenticator app to moderate.',
  'error.TWO_FACTOR_ENROLMENT_REQUIRED': 'Set up two-factor sign-in in the console to moderate.',
  'error.STORY_CLOSED': 'Comments on this story are closed.',
  'error.USER_BANNED': 'Your account is banned from commenting.',
  'error.USER_SUSPENDED': 'Your account is suspended until {until}.',
  'error.RATE_LIMITED': {
    one: 'You are going a little fast. Try again in {seconds} second.',
    other: 'You are going a little fast. Try again in {seconds} seconds.',
  },
  'error.ORIGIN_NOT_PERMITTED': 'This site is not allowed to show comments from this server.',
  'error.NOT_INSTALLED': 'Comments are not set up on this server yet.',
  'error.TOKEN_INVALID': 'Your session is not valid. Please sign in again.',
  'error.TOKEN_EXPIRED': 'Your session has ended. Please sign in again.',
  'error.STORAGE_FULL': 'The server is full. Try again later.',
  'error.SERVICE_UNAVAILABLE': 'The server is having trouble. Try again soon.',
  'error.INTERNAL': 'Something went wrong on our side. Please try again.',
  'error.NETWORK_ERROR': 'Cannot reach the comments server. Check your connection.',
  'error.REQUEST_TIMEOUT': 'The comments server is not answering. Please try again.',
  'error.BAD_RESPONSE': 'The comments server sent an unexpected answer. Please try again.',
  'error.STORAGE_QUOTA_EXCEEDED': 'Your browser has no room left to keep a draft.',
  'error.STORAGE_UNAVAILABLE': 'Your browser does not let us keep a draft.',
  'error.STORAGE_INVALID_VALUE': 'That cannot be kept as a draft.',
};
