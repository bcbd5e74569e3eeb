/**
 * Checking a second factor: the ticket a right password earns when the account has two-factor
 * sign-in, and the code (or recovery code) that finishes the sign-in or confirms a change.
 */
import { isTotpCode } from '../../../auth/twoFactor';
import { RATE_LIMITS, SECOND_FACTOR_TICKET_SECONDS } from '../../../defaults';
import { spendRecoveryCode, spendTotpCode } from '../../../db/store/twoFactor';
import type { User } from '../../../db/store/users';
import { ParleyError } from '../../../ParleyError';
import type { ParleyContext } from '../../context';

/**
 * What a right password earns an account with two-factor sign-in: a ticket naming the user and
 * their session epoch (a password change meanwhile voids it), good for a few minutes and once.
 */
export function secondFactorTicket(ctx: ParleyContext, user: User): Promise<string> {
  return ctx.tokens.signFor(
    'secondFactor',
    { sub: user.id, ep: user.sessionEpoch },
    SECOND_FACTOR_TICKET_SECONDS,
  );
}

/** The ticket's user id and token id; TWO_FACTOR_CODE_INVALID when it is not a live ticket. */
export async function readSecondFactorTicket(
  ctx: ParleyContext,
  ticket: string,
): Promise<{ userId: string; epoch: number; ticketId: string }> {
  const claims = await ctx.tokens.verifyFor('secondFactor', ticket);
  const { sub, ep, jti } = claims ?? {};
  if (typeof sub !== 'string' || typeof ep !== 'number' || typeof jti !== 'string') {
    throw new ParleyError(
      'TWO_FACTOR_CODE_INVALID',
      'This sign-in has expired: enter your email and password again.',
      { field: 'ticket' },
    );
  }
  return { userId: sub, epoch: ep, ticketId: jti };
}

/** Which codes a check takes. */
export type CodeKinds = 'app' | 'appOrRecovery';

/** What {@link spendSecondFactor} spent: the app's code (with the secret it matched) or a recovery code. */
export type SpentFactor = { kind: 'app'; sealed: string } | { kind: 'recovery' };

/**
 * Spends `code` — the app's (once per 30-second step) or, when `kinds` allows, a recovery code
 * (once ever) — or throws: `RATE_LIMITED` past RATE_LIMITS.twoFactorAttempts attempts (each is
 * counted before it is checked, so a burst of parallel guesses is counted whole),
 * `TWO_FACTOR_CODE_INVALID` for a wrong one.
 */
export async function spendSecondFactor(
  ctx: ParleyContext,
  user: User,
  code: string,
  kinds: CodeKinds,
  options: { pending?: boolean } = {},
): Promise<SpentFactor> {
  await ctx.rateLimiter.consume('twoFactorAttempts', `user:${user.id}`);
  if (isTotpCode(code)) {
    const sealed = await spendTotpCode(ctx.db, ctx.box, user.id, code, ctx.now(), options.pending);
    if (sealed !== undefined) return { kind: 'app', sealed };
  } else if (kinds === 'appOrRecovery' && code.trim() !== '') {
    if (await spendRecoveryCode(ctx.db, user.id, code, ctx.now())) return { kind: 'recovery' };
  }
  throw new ParleyError(
    'TWO_FACTOR_CODE_INVALID',
    kinds === 'app'
      ? 'That code is not right, or was used already: enter the code your app shows now.'
      : 'That code is not right, or was used already: enter the code your app shows now, or an unused recovery code.',
    { field: 'code' },
  );
}

/**
 * How many times the ticket `ticketId` finished a sign-in, with this use when `record`. A ticket
 * lives SECOND_FACTOR_TICKET_SECONDS, less than the use record's window: any earlier use is in
 * this window or the one before.
 */
async function ticketUses(ctx: ParleyContext, ticketId: string, record: boolean): Promise<number> {
  const now = Date.now();
  const previous = now - RATE_LIMITS.twoFactorTicketUse.windowSeconds * 1000;
  const current = record
    ? await ctx.rateLimiter.record('twoFactorTicketUse', ticketId, now)
    : await ctx.rateLimiter.count('twoFactorTicketUse', ticketId, now);
  return current + (await ctx.rateLimiter.count('twoFactorTicketUse', ticketId, previous));
}

/** Whether the ticket finished a sign-in already. */
export async function ticketUsed(ctx: ParleyContext, ticketId: string): Promise<boolean> {
  return (await ticketUses(ctx, ticketId, false)) > 0;
}

/** Records that the ticket finished a sign-in; false when another request did meanwhile. */
export async function useTicket(ctx: ParleyContext, ticketId: string): Promise<boolean> {
  return (await ticketUses(ctx, ticketId, true)) === 1;
}
