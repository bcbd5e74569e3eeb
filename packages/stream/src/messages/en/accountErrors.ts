import type { Message } from '../../i18n/createTranslator';
import type { LazyMessageKey, MessagesPart } from '../index';
import type { AccountErrorCode } from './errors';

/**
 * English: the errors only the account forms (the profile tab's chunk, the popup), the comment
 * image upload (its chunk) and guests (the guest form's chunk, which a guest's composer fetches)
 * meet.
 */
export const messages: Record<`error.${AccountErrorCode}`, Message> = {
  'error.USERNAME_TAKEN': 'That username is taken.',
  'error.EMAIL_TAKEN': 'That email already has an account. Sign in instead.',
  'error.INVALID_CREDENTIALS': 'That email and password do not match.',
  'error.ALREADY_INSTALLED': 'Parley is already installed.',
  'error.UPLOAD_TOO_LARGE': 'That file is too large.',
  'error.CODE_INVALID':
    'That code is not right, or it has expired. Check the latest email, or start again for a new code.',
  'error.CHALLENGE_REQUIRED': 'Checking this browser after many failed sign-ins…',
  'error.TWO_FACTOR_CODE_REQUIRED': 'Enter the code from your authenticator app.',
  'error.TWO_FACTOR_CODE_INVALID':
    'That code is not right or was used already. Enter the code your app shows now, or a recovery code.',
  'error.UNSUPPORTED_MEDIA_TYPE': 'The request was refused: it was not sent as JSON.',
  'error.UPLOAD_TYPE_NOT_ALLOWED': 'That kind of file is not allowed. Use PNG, JPEG, GIF or WebP.',
  'error.SIGN_IN_DENIED':
    'You did not allow the sign-in, so nothing was shared. Try again when you are ready.',
  'error.SIGN_IN_EXPIRED':
    'This sign-in expired or was started in another window. Please start again.',
  'error.SIGN_IN_PROVIDER_UNREACHABLE':
    'The sign-in service could not be reached. Please try again in a moment.',
  'error.SIGN_IN_PROVIDER_FAILED':
    'The sign-in service sent an answer we could not accept. Please try again.',
  'error.SIGN_IN_PROVIDER_DISABLED': 'That way of signing in is not available on this site.',
  'error.SIGN_IN_IDENTITY_TAKEN': 'That account is connected to another account here already.',
  'error.SIGN_IN_LINK_REQUIRED':
    'An account here already uses {email}. Prove it is yours to connect {provider} to it.',
  'error.GUEST_NAME_TAKEN':
    'A member goes by that name, or one that looks like it. Choose another.',
  'error.GUEST_COMMENTS_OFF': 'Commenting as a guest is switched off. Please sign in.',
  'error.GUEST_NOT_ALLOWED': 'Guests can only post. Sign up to do this.',
  'error.IP_BANNED': 'Posting from your network is paused by the moderators.',
};

/**
 * A lazy area's text with these errors beside it (the profile tab's, the guest form's): English at
 * once, each other locale's two files fetched together.
 */
export function withAccountErrors<K extends LazyMessageKey>(
  en: Readonly<Record<K, Message>>,
  es: () => Promise<{ messages: Readonly<Record<K, Message>> }>,
): MessagesPart<K | keyof typeof messages> {
  return {
    en: { ...en, ...messages },
    es: () =>
      Promise.all([es(), import('../es/accountErrors')]).then(([area, errors]) => ({
        messages: { ...area.messages, ...errors.messages },
      })),
  };
}
