import type { ErrorCode } from '@parley/transport';
import type { Message } from '../../i18n/createTranslator';

// What each coded error says to a reader. `Record<ErrorCode, …>`: a code added to the shared list
// without text here fails to compile (STYLE.md guideline 8). Variables: `{seconds}` (RATE_LIMITED,
// from `extensions.retryAfterSeconds`), `{until}` (USER_SUSPENDED, a formatted date when known).

/** English error messages. */
export const messages: Record<`error.${ErrorCode}`, Message> = {
  'error.UNAUTHENTICATED': 'Please sign in first.',
  'error.FORBIDDEN': 'You are not allowed to do that.',
  'error.INVALID_INPUT': 'Please check what you entered.',
  'error.NOT_FOUND': 'That comment or story no longer exists.',
  'error.USERNAME_TAKEN': 'That username is taken.',
  'error.EMAIL_TAKEN': 'That email already has an account. Sign in instead.',
  'error.INVALID_CREDENTIALS': 'That email and password do not match.',
  'error.COMMENT_EMPTY': 'Write something first.',
  'error.COMMENT_TOO_LONG': 'Your comment is too long. Please shorten it.',
  'error.BANNED_WORD':
    'Your comment contains a word this community does not allow. Please edit it and post again.',
  'error.EDIT_WINDOW_EXPIRED': 'The time to edit this comment has passed.',
  'error.STORY_CLOSED': 'Comments on this story are closed.',
  'error.USER_BANNED': 'Your account is banned from commenting.',
  'error.USER_SUSPENDED': 'Your account is suspended until {until}.',
  'error.RATE_LIMITED': {
    one: 'You are going a little fast. Try again in {seconds} second.',
    other: 'You are going a little fast. Try again in {seconds} seconds.',
  },
  'error.ORIGIN_NOT_PERMITTED': 'This site is not allowed to show comments from this server.',
  'error.ALREADY_INSTALLED': 'Parley is already installed.',
  'error.NOT_INSTALLED': 'Comments are not set up on this server yet.',
  'error.TOKEN_INVALID': 'Your session is not valid. Please sign in again.',
  'error.TOKEN_EXPIRED': 'Your session has ended. Please sign in again.',
  'error.UPLOAD_TOO_LARGE': 'That file is too large.',
  'error.UPLOAD_TYPE_NOT_ALLOWED': 'That kind of file is not allowed. Use PNG, JPEG, GIF or WebP.',
  'error.INTERNAL': 'Something went wrong on our side. Please try again.',
  'error.NETWORK_ERROR': 'Cannot reach the comments server. Check your connection.',
  'error.REQUEST_TIMEOUT': 'The comments server is not answering. Please try again.',
  'error.BAD_RESPONSE': 'The comments server sent an unexpected answer. Please try again.',
  'error.STORAGE_QUOTA_EXCEEDED': 'Your browser has no room left to keep a draft.',
  'error.STORAGE_UNAVAILABLE': 'Your browser does not let us keep a draft.',
  'error.STORAGE_INVALID_VALUE': 'That cannot be kept as a draft.',
};
