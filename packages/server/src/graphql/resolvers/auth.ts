import { randomUUID } from 'node:crypto';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { challengeCost, checkAnswer, issueChallenge } from '../../auth/signInChallenge';
import { refuseHoneypot, requireBotCheck } from '../../auth/botCheck';
import { DEVICE_TOKEN_SECONDS, RATE_LIMITS } from '../../defaults';
import { alreadyInstalled, getOrganization, install } from '../../db/store/organization';
import {
  createUser,
  findUserByEmail,
  findUserById,
  isUsernameFree,
  updateUser,
} from '../../db/store/users';
import type { User } from '../../db/store/users';
import { ParleyError } from '../../ParleyError';
import { checkSignUpCode, finishSignUp, startSignUp } from '../../db/store/pendingSignUps';
import { alreadyRegisteredMessage, signUpCodeMessage } from './account/accountEmails';
import {
  validateEmail,
  validateLocale,
  validatePassword,
  validateUsername,
} from '../../validation/validateAccount';
import type { ParleyContext } from '../context';
import { ipKey } from '../context';
import { endEverySession, endSignedInSession, recordSession } from '../../db/store/sessions';
import {
  readSecondFactorTicket,
  secondFactorTicket,
  spendSecondFactor,
  ticketUsed,
  useTicket,
} from './account/secondFactor';
import { requireViewer } from '../permissions';
import { requireAddressNotBanned } from '../guestAccess';
import { settingsView } from './admin/updateSettings';
import { invalidateEveryRead } from '../events';
import { prepareInstall } from '../../validation/prepareInstall';
import type { Resolvers, SignInInput } from './resolverTypes.generated';

/**
 * What every successful sign-in answers: a session token and the user. The rest of the operation
 * runs as that user (mutations run one at a time), so the payload shows them their own private
 * fields (email, status) rather than what an anonymous caller sees. The session is recorded, for
 * its owner's list of signed-in devices. `secondFactor`: the sign-in passed a code from the
 * user's authenticator app (staff operations may ask for that).
 */
export async function authPayload(ctx: ParleyContext, user: User, secondFactor = false) {
  const { sessionSeconds } = await ctx.settings();
  const tokenId = randomUUID();
  const token = await ctx.tokens.sign(
    { userId: user.id, role: user.role, epoch: user.sessionEpoch, secondFactor, tokenId },
    sessionSeconds,
  );
  // An SSO reader is signed in again by the host on every page view: those are not devices to
  // list (and would be one row per view); their site manages their sign-in.
  if (user.ssoSiteId === null) {
    await recordSession(
      ctx.db,
      {
        id: tokenId,
        userId: user.id,
        epoch: user.sessionEpoch,
        secondFactor,
        userAgent: ctx.userAgent,
        expiresAt: new Date(ctx.now().getTime() + sessionSeconds * 1000),
      },
      ctx.now(),
    );
  }
  ctx.viewer = user;
  // Whoever just proved the password here is remembered on this device (see signIn).
  const device = user.passwordHash === null ? null : await deviceToken(ctx, user);
  return { token, user, deviceToken: device };
}

/**
 * A hash of a random password, compared against when an email is unknown, so that a wrong email
 * takes as long as a wrong password and sign-in does not reveal who has an account.
 */
let dummyHash: Promise<string> | undefined;

/**
 * Whether `password` is `user`'s: as slow for an unknown user, or one without a password, as for
 * a wrong password (the time taken tells nothing).
 */
export async function passwordMatches(user: User | undefined, password: string): Promise<boolean> {
  dummyHash ??= hashPassword(crypto.randomUUID());
  const matches = await verifyPassword(password, user?.passwordHash ?? (await dummyHash));
  return user?.passwordHash != null && matches;
}

/**
 * Keeps `locale` (validated: {@link validateLocale}) as the language of `user`'s emails, when
 * given and new; answers the user as stored. A sign-in's language (`chosen` false) does not
 * replace one they chose themselves (updateLocale, the console's switch).
 */
export async function rememberLocale(
  ctx: ParleyContext,
  user: User,
  locale: string | null,
  chosen = false,
): Promise<User> {
  if (locale === null || (user.localeChosen && !chosen)) return user;
  if (locale === user.locale && user.localeChosen === chosen) return user;
  return updateUser(ctx.db, user.id, { locale, ...(chosen ? { localeChosen: true } : {}) });
}

/**
 * The end of a sign-in whose first step passed: a session, or, with two-factor sign-in on, the
 * ticket `signInSecondFactor` finishes it with (a code from the app).
 */
export async function finishSignIn(ctx: ParleyContext, user: User) {
  if (user.twoFactorEnabled) {
    throw new ParleyError(
      'TWO_FACTOR_CODE_REQUIRED',
      'Enter the code from your authenticator app, or a recovery code.',
      { ticket: await secondFactorTicket(ctx, user) },
    );
  }
  return authPayload(ctx, user);
}

export const authResolvers = {
  Query: {
    viewer: (_root, _args, ctx) => ctx.viewer,
    settings: async (_root, _args, ctx) =>
      settingsView(await ctx.settings(), await ctx.organization()),
  },

  Mutation: {
    install: async (_root, { input }, ctx) => {
      // Checked before any validation: after install, the wizard's answer is the same whatever
      // was typed.
      if (await getOrganization(ctx.db)) {
        throw alreadyInstalled();
      }
      const result = await install(ctx.db, await prepareInstall(input), ctx.box);
      // Every anonymous read said "not installed" (the settings, the stories' errors).
      invalidateEveryRead(ctx);
      return authPayload(ctx, result.admin);
    },

    signUp: async (_root, { input }, ctx) => {
      const settings = await ctx.settings();
      if (!(await ctx.organization())) {
        throw new ParleyError('NOT_INSTALLED', 'Parley is not installed yet.');
      }
      if (!settings.signUpOpen) throw new ParleyError('FORBIDDEN', 'Sign-up is closed.');
      await requireAddressNotBanned(ctx);
      const email = validateEmail(input.email);
      const username = validateUsername(input.username);
      validatePassword(input.password);
      const locale = validateLocale(input.locale);
      // Bots before content (auth/botCheck.ts): the trap, then the work, made for this address;
      // before the limits, so that a sign-up and its answer count once.
      refuseHoneypot(input);
      await requireBotCheck(ctx, `signUp:${email.key}`, input);
      await ctx.rateLimiter.consume('signUp', ipKey(ctx));
      await ctx.rateLimiter.consume('signUpPerEmail', `email:${email.key}`);
      // Hashed whether or not the address has an account: the time taken tells nothing either.
      const passwordHash = await hashPassword(input.password);
      const existing = await findUserByEmail(ctx.db, email.address);
      const message =
        existing === undefined
          ? signUpCodeMessage(
              email.address,
              // A taken username is said to the address's owner only, like the rest.
              { username, taken: !(await isUsernameFree(ctx.db, username)) },
              await startSignUp(
                ctx.db,
                { emailKey: email.key, email: email.address, username, passwordHash, locale },
                ctx.now(),
              ),
              ctx.publicUrl,
              locale,
              await ctx.organization(),
            )
          : // The owner's language when known, else the one the sign-up was made in.
            alreadyRegisteredMessage(
              { ...existing, locale: existing.locale ?? locale },
              ctx.publicUrl,
              await ctx.organization(),
            );
      // Not awaited, as for password resets: an SMTP round trip must not time one case apart.
      ctx.mailer.send(message).catch((error: unknown) => {
        ctx.logger.error({ err: error }, 'Could not send a sign-up email');
      });
      return { email: email.address };
    },

    // The second step of a sign-up: the emailed code proves the address, so the account is made
    // with its email confirmed. A taken username is refused here, to the address's owner (the
    // first step's answer says nothing), and the code stays valid for another `username`.
    confirmSignUp: async (_root, { input }, ctx) => {
      // Closed between the two steps: closed.
      if (!(await ctx.settings()).signUpOpen) {
        throw new ParleyError('FORBIDDEN', 'Sign-up is closed.');
      }
      await requireAddressNotBanned(ctx);
      await ctx.rateLimiter.consume('signUpConfirm', ipKey(ctx));
      const email = validateEmail(input.email);
      const pending = await checkSignUpCode(ctx.db, email.key, input.code, ctx.now());
      if (pending === 'wrong') {
        throw new ParleyError(
          'CODE_INVALID',
          'That code is not right, or it has expired. Check the latest email, or sign up again for a new code.',
          { field: 'code' },
        );
      }
      const username = input.username ? validateUsername(input.username) : pending.username;
      const user = await createUser(ctx.db, {
        email: pending.email,
        username,
        passwordHash: pending.passwordHash,
        emailVerified: true,
        locale: pending.locale,
      });
      await finishSignUp(ctx.db, email.key);
      return authPayload(ctx, user);
    },

    // Guessing is kept expensive without handing anyone a lock on someone else's account: the
    // per-address limit is hard; an account's failures only make sign-ins from devices it never
    // used solve a proof-of-work challenge after a growing delay; a device the account signed in
    // on before (its device token) goes straight through.
    signIn: async (_root, { input }, ctx) => {
      const email = validateEmail(input.email);
      const locale = validateLocale(input.locale);
      await ctx.rateLimiter.consume('signIn', ipKey(ctx));
      const user = await findUserByEmail(ctx.db, email.address);
      const account = `account:${email.key}`;
      const device =
        user === undefined ? undefined : await knownDevice(ctx, input.deviceToken, user.id);
      if (device !== undefined) {
        await ctx.rateLimiter.consume('signInDevice', `device:${device}`);
      } else {
        const failures = await ctx.rateLimiter.count('signInFailures', account);
        const free = RATE_LIMITS.signInFailures.limit;
        if (failures >= free) {
          await requireSolvedChallenge(ctx, email.key, input, challengeCost(failures, free));
        }
      }
      if (!user || !(await passwordMatches(user, input.password))) {
        await ctx.rateLimiter.record('signInFailures', account);
        throw new ParleyError('INVALID_CREDENTIALS', 'That email and password do not match.');
      }
      // The password was right: with two-factor sign-in on, a code from the app finishes it
      // (signInSecondFactor, with this ticket), which keeps the language then.
      return finishSignIn(
        ctx,
        user.twoFactorEnabled ? user : await rememberLocale(ctx, user, locale),
      );
    },

    // The second step of a password sign-in with two-factor sign-in on: the ticket says the
    // password was right (minutes ago, for this user, before any password change), the code that
    // the app or a recovery sheet holds. A ticket finishes one sign-in.
    signInSecondFactor: async (_root, { input }, ctx) => {
      const locale = validateLocale(input.locale);
      const ticket = await readSecondFactorTicket(ctx, input.ticket);
      const user = await findUserById(ctx.db, ticket.userId);
      if (!user || user.sessionEpoch !== ticket.epoch || !user.twoFactorEnabled) {
        throw new ParleyError(
          'TWO_FACTOR_CODE_INVALID',
          'This sign-in has expired: enter your email and password again.',
          { field: 'ticket' },
        );
      }
      const finished = () =>
        new ParleyError(
          'TWO_FACTOR_CODE_INVALID',
          'This sign-in was finished already: enter your email and password again.',
          { field: 'ticket' },
        );
      // Checked before the code is spent, so a used ticket burns no recovery code.
      if (await ticketUsed(ctx, ticket.ticketId)) throw finished();
      await spendSecondFactor(ctx, user, input.code, 'appOrRecovery');
      if (!(await useTicket(ctx, ticket.ticketId))) throw finished();
      return authPayload(ctx, await rememberLocale(ctx, user, locale), true);
    },

    // Ends this session on the server too (its token id is remembered until it would have
    // expired): a copy of the token — another tab's storage, a shared computer — stops working.
    // Signed out already, or never signed in: nothing to end, and no error.
    signOut: async (_root, _args, ctx) => {
      if (ctx.session !== null) {
        const { tokenId, expiresAt } = ctx.session;
        await endSignedInSession(
          ctx.db,
          { tokenId, expiresAt: new Date(expiresAt * 1000) },
          ctx.now(),
        );
      }
      return { ok: true };
    },

    // Every session of the account, on every device: its epoch moves on, so every token signed
    // before is refused. The one way out for SSO accounts, which have no password to change.
    signOutEverywhere: async (_root, _args, ctx) => {
      await endEverySession(ctx.db, requireViewer(ctx).id);
      return { ok: true };
    },
  },
} satisfies Resolvers;

/** A token remembering that `user` signed in on this device (kept by the client). */
export function deviceToken(ctx: ParleyContext, user: User): Promise<string> {
  return ctx.tokens.signFor('device', { sub: user.id }, DEVICE_TOKEN_SECONDS);
}

/** The device's id when `token` is a device token of `userId`'s; undefined otherwise. */
async function knownDevice(
  ctx: ParleyContext,
  token: string | null | undefined,
  userId: string,
): Promise<string | undefined> {
  if (!token) return undefined;
  const claims = await ctx.tokens.verifyFor('device', token);
  return claims?.['sub'] === userId && typeof claims['jti'] === 'string'
    ? claims['jti']
    : undefined;
}

/**
 * Goes on only with a solved, unused, ripe challenge for this account; otherwise throws
 * CHALLENGE_REQUIRED carrying one to solve (a fresh one, or the same when only its delay is left).
 */
async function requireSolvedChallenge(
  ctx: ParleyContext,
  accountKey: string,
  input: SignInInput,
  cost: { bits: number; delayMs: number },
): Promise<void> {
  const ask = async (message: string) => {
    const fresh = await issueChallenge(ctx.tokens, accountKey, cost, ctx.now());
    return new ParleyError('CHALLENGE_REQUIRED', message, fresh);
  };
  if (!input.challenge || !input.solution) {
    throw await ask(
      'This account has had many failed sign-ins: this browser must answer a short challenge first.',
    );
  }
  const answer = { challenge: input.challenge, solution: input.solution };
  const checked = await checkAnswer(ctx.tokens, accountKey, answer, ctx.now());
  if (checked.result === 'early') {
    throw new ParleyError(
      'CHALLENGE_REQUIRED',
      'The challenge is not ready yet; wait, then send it again.',
      {
        challenge: input.challenge,
        bits: cost.bits,
        retryAfterMs: checked.retryAfterMs,
      },
    );
  }
  if (
    checked.result === 'invalid' ||
    (await ctx.rateLimiter.record('signInChallengeUse', checked.id)) > 1
  ) {
    throw await ask('That challenge was not answered, has expired or was used: here is a new one.');
  }
}
