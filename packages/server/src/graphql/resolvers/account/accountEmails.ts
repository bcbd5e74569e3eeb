/**
 * The account emails: their links and how long each works (their text is in email/templates.ts). Links carry the
 * token in the fragment (`#token=…`), which browsers never send to a server — it stays out of
 * access logs, proxies and `Referer` headers; the account page reads it and calls the API.
 */
import { ACCOUNT_PATHS } from '@parley/contract';
import { createToken } from '../../../db/store/tokens';
import type { TokenPurpose } from '../../../db/schema';
import type { MailMessage } from '../../../email/createMailer';
import { duration, email, recipient } from '../../../email/templates';
import type { Organization } from '../../../db/store/organization';
import type { User } from '../../../db/store/users';
import type { ParleyContext } from '../../context';
import {
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

/** "3 days", "1 hour": how long a link works (email/templates.ts), for the command's text too. */
export { duration };

/** The organization, whose settings say the language of emails to whom has none of their own. */
type Org = Organization | undefined;

/** Asks the owner of a new address to confirm it. */
export function confirmEmailMessage(user: User, to: string, link: string, org: Org): MailMessage {
  return email('confirmEmail', recipient(to, user, org), { username: user.username, link });
}

/** The code that finishes a sign-up. */
export function signUpCodeMessage(
  to: string,
  name: { username: string; taken: boolean },
  code: string,
  publicUrl: string,
  /** The sign-up popup's language, else the site's. */
  locale: string | null,
  org: Org,
): MailMessage {
  // In the fragment: never sent to a server, so never in a log. The sign-in popup's page reads it.
  const link = `${publicUrl}/embed/auth#${new URLSearchParams({ 'sign-up': to, code })}`;
  return email('signUpCode', recipient(to, { locale }, org), {
    ...name,
    code,
    link: name.taken ? null : link,
  });
}

/**
 * To an address that already has an account, when someone signs up with it: sign-up answers the
 * same whether or not an address has an account, so its owner hears of it here instead.
 */
export function alreadyRegisteredMessage(user: User, publicUrl: string, org: Org): MailMessage {
  return email('alreadyRegistered', recipient(user.email, user, org), {
    username: user.username,
    settingsUrl: user.passwordHash === null ? null : `${publicUrl}${ACCOUNT_PATHS.settings}`,
  });
}

/** Tells the previous address that the account's email changed (a hijacked account shows here). */
export function emailChangedMessage(
  user: User,
  previous: string,
  next: string,
  org: Org,
): MailMessage {
  return email('emailChanged', recipient(previous, user, org), { username: user.username, next });
}

/** The password-reset link. */
export function resetPasswordMessage(user: User, link: string, org: Org): MailMessage {
  return email('resetPassword', recipient(user.email, user, org), {
    username: user.username,
    link,
  });
}

/** The link to download one's comments. */
export function downloadMessage(user: User, link: string, org: Org): MailMessage {
  return email('download', recipient(user.email, user, org), { username: user.username, link });
}

/** Confirms a deletion request and says how to cancel it. */
export function deletionRequestedMessage(
  user: User,
  deleteAt: Date,
  publicUrl: string,
  org: Org,
): MailMessage {
  return email('deletionRequested', recipient(user.email, user, org), {
    username: user.username,
    deleteAt,
    settingsUrl: `${publicUrl}${ACCOUNT_PATHS.settings}`,
  });
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
