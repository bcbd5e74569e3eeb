import type { Message } from '../../i18n/createTranslator';

/** English: the auth area of the stream (the auth bar); the popup uses these too. */
export const messages = {
  // Auth bar. "Sign in", "Sign up", "Sign out" are accessible names the browser tests use.
  'auth.signIn': 'Sign in',
  'auth.signUp': 'Sign up',
  'auth.signOut': 'Sign out',
  'auth.signedInAs': 'Signed in as {username}',
  'auth.guestAs': 'Commenting as {username} (guest)',
  'auth.suspended': 'Your account is suspended.',
  'auth.notice.popupBlocked':
    'Your browser blocked the sign-in window. Allow pop-ups for this site, then try again.',
  'auth.notice.ssoExpired':
    'Your site’s sign-in has expired. Reload the page or sign in to the site again to comment.',
  'auth.notice.ssoInvalid':
    'Your site’s sign-in was not accepted. Reload the page or sign in to the site again to comment.',
  'auth.notice.ssoFailed': 'Signing in with your site’s account did not work. {reason}',
} satisfies Record<string, Message>;

/**
 * English: the sign-in popup. Apart from {@link messages} because only the popup's bundle needs
 * it: the stream's catalog (and so its first render) does not carry the forms' text.
 */
export const popupMessages = {
  // "Email", "Username", "Password" are accessible names the browser tests use.
  'auth.title.signin': 'Sign in',
  'auth.title.signup': 'Create an account',
  'auth.title.forgot': 'Reset your password',
  'auth.email': 'Email',
  'auth.username': 'Username',
  'auth.password': 'Password',
  'auth.submit.forgot': 'Send reset link',
  'auth.code': 'Code',
  'auth.submit.confirm': 'Confirm',
  'auth.signUp.sent':
    'We sent an email to {email}. Enter the code it holds to finish creating your account (it works for 30 minutes).',
  // Avoids "sign up", like the switches below.
  'auth.signUp.restart': 'Start again',
  'auth.signUp.finishing': 'Creating your account…',
  'auth.signUp.linkDone':
    'Your account is ready and you are signed in where you started. You can close this tab.',
  'auth.signUp.linkReady':
    'Your account is ready. Go back to the page you came from and sign in with your email and password.',
  // Switches between forms; they avoid the words "sign in" / "sign up", so that a button
  // looked up by those names finds only the form's own submit button.
  'auth.switch.signup': 'Create an account',
  'auth.switch.signin': 'I already have an account',
  'auth.switch.forgot': 'Forgot your password?',
  'auth.invalid.email': 'Enter an email address like name@example.com.',
  'auth.invalid.emailLength': 'An email address can have at most {max} characters.',
  'auth.invalid.usernameLength': 'A username has {min} to {max} characters.',
  'auth.invalid.usernameCharacters': 'A username may contain only letters, digits, “_” and “.”.',
  'auth.invalid.passwordLength': 'Use at least {min} characters.',
  'auth.invalid.passwordRequired': 'Enter your password.',
  'auth.invalid.code': 'Enter the {digits} digits from the email.',
  'auth.forgot.sent':
    'If an account uses {email}, a link to reset its password is on its way. Check your inbox.',
  'auth.done': 'You are signed in; you can close this window.',
  // Sign-in providers (GitHub, Google, a company's OpenID Connect).
  'auth.provider.continue': 'Continue with {name}',
  'auth.provider.or': 'or use your email',
  'auth.provider.finishing': 'Signing you in…',
  'auth.provider.orphaned':
    'Nothing was connected: the comments this window came from are gone. Open your profile there and try again.',
  'auth.provider.connected':
    '{provider} is now connected to your account: you can sign in with it. You can close this window.',
  'auth.link.submit': 'Connect and sign in',
  'auth.link.email': 'Email me a link instead',
  'auth.link.sent':
    'We sent a link to {email}. Open it to connect {provider}, then sign in with {provider} again.',
} satisfies Record<string, Message>;
