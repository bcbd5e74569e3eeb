import { email, recipient } from '../../../email/templates';
import { hashPassword, verifyPassword } from '../../../auth/passwords';
import { withdrawTokens } from '../../../db/store/accountQueries';
import { isPlaceholderAddress, updateUser } from '../../../db/store/users';
import type { User } from '../../../db/store/users';
import { ParleyError } from '../../../ParleyError';
import { sniffAvatar } from '../../../uploads/sniffImage';
import { storeAvatar } from '../../../uploads/storeAvatar';
// Where avatars live: the deletion job and the tests find them through here too.
export { AVATAR_DIR, ownAvatarFile } from '../../../uploads/storeAvatar';
import {
  emailKey,
  validateEmail,
  validatePassword,
  validateLocale,
  validateUsername,
} from '../../../validation/validateAccount';
import type { ParleyContext } from '../../context';
import { ipKey } from '../../context';
import { requireViewer } from '../../permissions';
import { authPayload, rememberLocale } from '../auth';
import {
  ACCOUNT_PATHS,
  confirmEmailMessage,
  deliverNotice,
  emailChangedMessage,
  tokenLink,
} from './accountEmails';
import type { MutationResolvers } from '../resolverTypes.generated';
import { renderAvatar } from '../../../uploads/renderAvatar';

/** The notification switches a user can flip; stored under these keys in `notificationPrefs`. */
export const NOTIFICATION_KEYS = ['onReply', 'onFeatured', 'onModeration'] as const;

/**
 * The viewer, when their name, email and password are Parley's to change. An SSO user's come from
 * the host site and are overwritten at their next sign-in, so changing them here would silently
 * revert: FORBIDDEN, pointing them to the site's own account page.
 */
export function requirePasswordAccount(ctx: ParleyContext): User {
  const viewer = requireViewer(ctx);
  if (viewer.ssoSiteId !== null) {
    throw new ParleyError('FORBIDDEN', 'Your account is managed by the site you signed in on.');
  }
  return viewer;
}

/**
 * Checks the viewer's current password before a sensitive change, limited per account so a stolen
 * session cannot become an unlimited password oracle. A limit of its own, counted only by the
 * account's sessions: strangers failing to sign in to the account cannot block the owner's
 * password or email change.
 */
export async function checkPassword(
  ctx: ParleyContext,
  user: User,
  password: string,
  field: string,
): Promise<void> {
  await ctx.rateLimiter.consume('passwordConfirm', `user:${user.id}`);
  if (user.passwordHash === null || !(await verifyPassword(password, user.passwordHash))) {
    throw new ParleyError('INVALID_CREDENTIALS', 'That is not your current password.', { field });
  }
}

/**
 * The email that confirms `user`'s current address, with a new link; every earlier link is
 * withdrawn, so only the newest one works.
 */
export async function freshConfirmationMessage(ctx: ParleyContext, user: User) {
  await withdrawTokens(ctx.db, user.id, 'CONFIRM_EMAIL', ctx.now().toISOString());
  const link = await tokenLink(ctx, user, 'CONFIRM_EMAIL', ACCOUNT_PATHS.confirmEmail);
  const org = await ctx.organization();
  if (!user.guest) return confirmEmailMessage(user, user.email, link, org);
  return email('guestConfirmEmail', recipient(user.email, user, org), {
    name: user.username,
    organization: org?.name ?? 'Parley',
    link,
  });
}

/** Username, email, password, notification settings and avatar of the signed-in user. */
export const profileMutations = {
  /**
   * `uploadAvatar(file: File!)`: stores the image (see `storeAvatar`: a fresh name, the replaced
   * file removed, nothing left behind by a failure), rate-limited per user and per address.
   */
  uploadAvatar: async (_root, { file }, ctx) => {
    const viewer = requireViewer(ctx);
    // The File scalar parses nothing: a request that is not multipart can send any JSON value
    // (or none) as `file`, whatever its declared type says.
    const sent: Partial<File> | null | undefined = file;
    if (sent === null || sent === undefined || typeof sent.arrayBuffer !== 'function') {
      throw new ParleyError('INVALID_INPUT', 'Send the image as a multipart file upload.', {
        field: 'file',
      });
    }
    // Counted before reading: a refused upload costs no disk.
    await ctx.rateLimiter.consume('avatarUpload', `user:${viewer.id}`);
    await ctx.rateLimiter.consume('avatarUploadPerIp', ipKey(ctx));
    // Reading it whole is bounded: the request body limit (3 MB) is already enforced by yoga.
    const bytes = new Uint8Array(await file.arrayBuffer());
    // Sniffed from the bytes first (the type is never the client's word), then re-encoded.
    await sniffAvatar(bytes);
    const user = await storeAvatar(ctx, viewer.id, await renderAvatar(bytes));
    return { user };
  },

  updateUsername: async (_root, { input }, ctx) => {
    const viewer = requirePasswordAccount(ctx);
    const username = validateUsername(input.username);
    // The same name again (or in another case) changes nothing others see: not counted.
    if (username !== viewer.username) {
      await ctx.rateLimiter.consume('usernameChange', `user:${viewer.id}`);
    }
    return { user: await updateUser(ctx.db, viewer.id, { username }) };
  },

  updateEmail: async (_root, { input }, ctx) => {
    const viewer = requirePasswordAccount(ctx);
    const email = validateEmail(input.email);
    await checkPassword(ctx, viewer, input.password, 'password');
    // Same address in another case: the spelling changes, the verified address does not.
    if (email.key === emailKey(viewer.email)) {
      return { user: await updateUser(ctx.db, viewer.id, { email: email.address }) };
    }
    const user = await updateUser(ctx.db, viewer.id, {
      email: email.address,
      emailVerified: false,
    });
    // A link sent to the previous address must not verify this one.
    await deliverNotice(ctx, await freshConfirmationMessage(ctx, user));
    await deliverNotice(
      ctx,
      emailChangedMessage(user, viewer.email, user.email, await ctx.organization()),
    );
    return { user };
  },

  // Until the address is confirmed, no reply or other notification email goes to it
  // (notifications.ts): the profile tab says so and sends the link again from here.
  sendEmailConfirmation: async (_root, _args, ctx) => {
    const viewer = requireViewer(ctx);
    if (viewer.emailVerified) return { user: viewer };
    // An erased, imported or guest account without an address: there is nothing to confirm.
    if (isPlaceholderAddress(viewer.email)) {
      throw new ParleyError('INVALID_INPUT', 'This account has no email address to confirm.');
    }
    await ctx.rateLimiter.consume('emailConfirmation', `user:${viewer.id}`);
    // And per address: guests come and go, each with an address to mail, a stranger's perhaps
    // (counted apart from members', so that guests typing a member's address use up nothing of
    // the member's).
    const scope = viewer.guest ? 'guest-email' : 'email';
    await ctx.rateLimiter.consume('emailConfirmation', `${scope}:${emailKey(viewer.email)}`);
    const message = await freshConfirmationMessage(ctx, viewer);
    // Sending is the whole of this request: a mail server that fails makes it fail, said so.
    await ctx.mailer.send(message).catch((error) => {
      ctx.logger.error({ err: error }, 'Could not send a confirmation email');
      throw new ParleyError('SERVICE_UNAVAILABLE', 'The email could not be sent; try again later.');
    });
    return { user: viewer };
  },

  updatePassword: async (_root, { input }, ctx) => {
    const viewer = requirePasswordAccount(ctx);
    validatePassword(input.newPassword, 'newPassword');
    await checkPassword(ctx, viewer, input.oldPassword, 'oldPassword');
    const passwordHash = await hashPassword(input.newPassword);
    // Sessions are stateless JWTs: other devices stay signed in until their token expires.
    // The password change ends every other session; this one continues with a fresh token.
    // The new session keeps this one's second factor: the change proved the password, not less.
    const secondFactor = ctx.session?.secondFactor ?? false;
    return authPayload(ctx, await updateUser(ctx.db, viewer.id, { passwordHash }), secondFactor);
  },

  updateNotificationSettings: async (_root, { input }, ctx) => {
    const viewer = requireViewer(ctx);
    // Only the switches sent change; null or absent keeps the stored choice.
    const prefs = { ...viewer.notificationPrefs };
    for (const key of NOTIFICATION_KEYS) {
      const value = input[key];
      if (value !== undefined && value !== null) prefs[key] = value;
    }
    return { user: await updateUser(ctx.db, viewer.id, { notificationPrefs: prefs }) };
  },

  // The console's language switch (staff): their emails follow the console from now on.
  updateLocale: async (_root, { input }, ctx) => {
    const viewer = requireViewer(ctx);
    return { user: await rememberLocale(ctx, viewer, validateLocale(input.locale), true) };
  },
} satisfies MutationResolvers;
