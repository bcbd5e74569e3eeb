/**
 * The account emails: their links, how long each link works, and their text. Links carry the
 * token in the fragment (`#token=…`), which browsers never send to a server — it stays out of
 * access logs, proxies and `Referer` headers; the account page reads it and calls the API.
 */
import { ACCOUNT_PATHS } from '@parley/contract';
import { createToken } from '../../../db/store/tokens';
import type { TokenPurpose } from '../../../db/schema';
import type { MailMessage } from '../../../email/createMailer';
import type { User } from '../../../db/store/users';
import type { ParleyContext } from '../../context';
import {
  SIGN_UP_CODE,
  CONFIRM_EMAIL_TOKEN_TTL_SECONDS,
  RESET_PASSWORD_TOKEN_TTL_SECONDS,
  DOWNLOAD_TOKEN_TTL_SECONDS,
  UNSUBSCRIBE_TOKEN_TTL_SECONDS,
} from '../../../defaults';
// The figures live in defaults.ts with the others; re-exported here for this module's users.
export {
  CONFIRM_EMAIL_TOKEN_TTL_SECONDS,
  RESET_PASSWORD_TOKEN_TTL_SECONDS,
  DOWNLOAD_TOKEN_TTL_SECONDS,
  UNSUBSCRIBE_TOKEN_TTL_SECONDS,
  ACCOUNT_DELETION_GRACE_SECONDS,
} from '../../../defaults';

/** Account pages the emails link to, under `publicUrl` (the console routes the same paths). */
export { ACCOUNT_PATHS };

const TTL_SECONDS: Partial<Record<TokenPurpose, number>> = {
  CONFIRM_EMAIL: CONFIRM_EMAIL_TOKEN_TTL_SECONDS,
  RESET_PASSWORD: RESET_PASSWORD_TOKEN_TTL_SECONDS,
  DOWNLOAD: DOWNLOAD_TOKEN_TTL_SECONDS,
  UNSUBSCRIBE: UNSUBSCRIBE_TOKEN_TTL_SECONDS,
};

/** Creates a single-use token of `purpose` for `user` and returns the link that carries it. */
export async function tokenLink(
  ctx: Pick<ParleyContext, 'db' | 'publicUrl'>,
  user: User,
  purpose: 'CONFIRM_EMAIL' | 'RESET_PASSWORD' | 'DOWNLOAD' | 'UNSUBSCRIBE',
  path: string,
): Promise<string> {
  const { token } = await createToken(ctx.db, {
    purpose,
    userId: user.id,
    ttlSeconds: TTL_SECONDS[purpose] ?? RESET_PASSWORD_TOKEN_TTL_SECONDS,
  });
  return `${ctx.publicUrl}${path}#token=${token}`;
}

/** "3 days", "1 hour": how long a link works, for the message text. */
export function duration(seconds: number): string {
  if (seconds < 3600) return `${Math.round(seconds / 60)} minutes`;
  const hours = Math.round(seconds / 3600);
  if (hours < 48) return hours === 1 ? '1 hour' : `${hours} hours`;
  return `${Math.round(hours / 24)} days`;
}

/** Asks the owner of a new address to confirm it. */
export function confirmEmailMessage(user: User, to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Confirm your email address',
    text:
      `Hello ${user.username},\n\nplease confirm that this is your email address by opening this ` +
      `link within ${duration(CONFIRM_EMAIL_TOKEN_TTL_SECONDS)}:\n\n${link}\n\n` +
      'If you did not ask for this, you can ignore this message.\n',
  };
}

/** The code that finishes a sign-up. */
export function signUpCodeMessage(
  to: string,
  name: { username: string; taken: boolean },
  code: string,
): MailMessage {
  return {
    to,
    subject: 'Your code to finish signing up',
    text:
      `Hello ${name.username},\n\nenter this code in the sign-up window within ` +
      `${duration(SIGN_UP_CODE.ttlSeconds)} to create your account:\n\n    ${code}\n\n` +
      (name.taken
        ? `The username "${name.username}" is taken: choose another there, next to the code.\n\n`
        : '') +
      'If you did not sign up, you can ignore this message: no account is made.\n',
  };
}

/**
 * To an address that already has an account, when someone signs up with it: sign-up answers the
 * same whether or not an address has an account, so its owner hears of it here instead.
 */
export function alreadyRegisteredMessage(user: User, publicUrl: string): MailMessage {
  return {
    to: user.email,
    subject: 'You already have an account',
    text:
      `Hello ${user.username},\n\nsomeone, perhaps you, tried to sign up with this address. ` +
      'It already has an account, so nothing was created.\n\n' +
      (user.passwordHash === null
        ? 'Your account signs in through the site you comment on.\n'
        : `Sign in with it, or if you forgot the password, choose a new one:\n\n` +
          `${publicUrl}${ACCOUNT_PATHS.settings}\n`) +
      '\nIf it was not you, you can ignore this message.\n',
  };
}

/** Tells the previous address that the account's email changed (a hijacked account shows here). */
export function emailChangedMessage(user: User, previous: string, next: string): MailMessage {
  return {
    to: previous,
    subject: 'Your email address was changed',
    text:
      `Hello ${user.username},\n\nthe email address of your account was changed to ${next}.\n\n` +
      'If you did not do this, reset your password and contact the site’s team.\n',
  };
}

/** The password-reset link. */
export function resetPasswordMessage(user: User, link: string): MailMessage {
  return {
    to: user.email,
    subject: 'Reset your password',
    text:
      `Hello ${user.username},\n\nopen this link within ` +
      `${duration(RESET_PASSWORD_TOKEN_TTL_SECONDS)} to choose a new password:\n\n${link}\n\n` +
      'If you did not ask for this, you can ignore this message: your password stays as it is.\n',
  };
}

/** The link to download one's comments. */
export function downloadMessage(user: User, link: string): MailMessage {
  return {
    to: user.email,
    subject: 'Your comments are ready to download',
    text:
      `Hello ${user.username},\n\nyou can download everything you have written here from this ` +
      `link within ${duration(DOWNLOAD_TOKEN_TTL_SECONDS)}:\n\n${link}\n`,
  };
}

/** Confirms a deletion request and says how to cancel it. */
export function deletionRequestedMessage(
  user: User,
  deleteAt: Date,
  publicUrl: string,
): MailMessage {
  return {
    to: user.email,
    subject: 'Your account will be deleted',
    text:
      `Hello ${user.username},\n\nyour account and your comments will be deleted on ` +
      `${deleteAt.toUTCString()}.\n\nChanged your mind? Sign in and choose “Cancel deletion” ` +
      `before then:\n\n${publicUrl}${ACCOUNT_PATHS.settings}\n`,
  };
}

/**
 * Sends a message about a change already made. A mail server that is down must not turn a saved
 * change into an error (the client would retry a change that happened), so failures are logged.
 */
export async function deliverNotice(ctx: ParleyContext, message: MailMessage): Promise<void> {
  try {
    await ctx.mailer.send(message);
  } catch (error) {
    ctx.logger.error({ err: error, subject: message.subject }, 'Could not send an account email');
  }
}
