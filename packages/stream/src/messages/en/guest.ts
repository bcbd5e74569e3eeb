import type { Message } from '../../i18n/createTranslator';

/** English: commenting as a guest (its own chunk, with GuestForm). */
export const messages = {
  'guest.title': 'Post as a guest',
  'guest.explain': 'No account needed. Your comment may wait for a moderator.',
  'guest.name': 'Your name',
  'guest.email': 'Email (optional, for replies)',
  'guest.emailHint': 'We send a link to confirm it; replies are emailed only after that.',
  'guest.post': 'Post as guest',
  'guest.signIn': 'Sign in instead',
  'guest.cancel': 'Cancel',
  'guest.nameMissing': 'Enter a name of at least {min} characters.',
  'guest.nameInvalid': "Use {min} to {max} letters, digits, spaces and _ . - ' for your name.",
  'guest.emailInvalid': 'Enter an email address like name@example.com, or leave it empty.',
} satisfies Record<string, Message>;
