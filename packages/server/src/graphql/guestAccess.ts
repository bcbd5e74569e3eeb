/**
 * What a guest may do (store/guests.ts): post, edit and delete their own comments, confirm their
 * address, sign out — and sign in or up as a member (the host's SSO, a password, a provider),
 * which replaces the guest's session. Every other mutation answers `GUEST_NOT_ALLOWED` — an
 * allow-list, so a
 * mutation added later is closed to guests until someone decides otherwise (as for API tokens).
 * Guests neither react nor vote nor report (a name typed in a form must not weigh like an
 * account), and have no profile to change.
 */
import { isAddress, refuseBanned } from '../db/store/ipBans';
import type { User } from '../db/store/users';
import { ParleyError } from '../ParleyError';
import type { ParleyContext } from './context';

/** The mutations a guest may call. */
export const GUEST_MUTATIONS: ReadonlySet<string> = new Set([
  'startGuestSession',
  'createComment',
  'editComment',
  'deleteComment',
  'sendEmailConfirmation',
  'confirmEmail',
  'unsubscribe',
  'signOut',
  // Becoming a member: each answers with a new session, whoever's token came with it.
  'signIn',
  'signInSecondFactor',
  'signInWithSso',
  'signUp',
  'confirmSignUp',
  'redeemProviderSignIn',
  'connectProviderWithPassword',
  'emailProviderLink',
  'requestPasswordReset',
  'resetPassword',
  'acceptModeratorInvite',
]);

/** Throws `GUEST_NOT_ALLOWED` when a guest calls a mutation that is not theirs. */
export function requireGuestMayCall(viewer: Pick<User, 'guest'> | null, field: string): void {
  if (viewer?.guest !== true || GUEST_MUTATIONS.has(field)) return;
  throw new ParleyError('GUEST_NOT_ALLOWED', 'Guests can only post. Sign up to do this.');
}

/** `GUEST_COMMENTS_OFF` unless the organization lets guests comment. */
export async function requireGuestComments(ctx: ParleyContext): Promise<void> {
  if (!(await ctx.settings()).guestComments) {
    throw new ParleyError('GUEST_COMMENTS_OFF', 'Comments as a guest are switched off: sign in.');
  }
}

/**
 * `IP_BANNED` (with `until`) when the request's address is in a range banned for now. `strict`
 * (guests): an address that is unknown or not one also answers `IP_BANNED`, as no ban could be
 * told apart from it.
 */
export async function requireAddressNotBanned(
  ctx: ParleyContext,
  { strict = false }: { strict?: boolean } = {},
): Promise<void> {
  if (ctx.ip === undefined || !isAddress(ctx.ip)) {
    if (!strict) return;
    // A server behind a proxy it was not told of (TRUST_PROXY), or on a Unix socket: the
    // operator should hear of it, as every guest is refused until then.
    ctx.logger.warn(
      { ip: ctx.ip ?? null },
      'A guest was refused: the request has no usable address (check TRUST_PROXY)',
    );
    throw new ParleyError(
      'IP_BANNED',
      'Your address could not be told, so guests cannot post from it.',
    );
  }
  await refuseBanned(ctx.db, ctx.ip, ctx.now());
}
