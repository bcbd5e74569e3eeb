import { createHash } from 'node:crypto';
import { challengeDigestInput, leadingZeroBits } from '@parley/contract';
import { SIGN_IN_CHALLENGE } from '../defaults';
import type { TokenService } from './tokens';

/**
 * Proof-of-work challenges for sign-ins to an account under attack. A challenge is
 * a signed token naming the account, the work asked (`bits`) and the moment it becomes valid
 * (`nb`, ms); the answer is any string whose SHA-256 with it (`<challenge>:<solution>`) starts
 * with that many zero bits. Stateless but single-use (the caller records its id).
 */

/** What a client needs to answer: sent in CHALLENGE_REQUIRED's extensions. */
export interface SignInChallenge {
  challenge: string;
  /** Leading zero bits asked of SHA-256(`${challenge}:${solution}`). */
  bits: number;
  /** Milliseconds from now before an answer is accepted. */
  retryAfterMs: number;
}

/** Work and delay for an account with `failures` failed sign-ins (more than the free ones). */
export function challengeCost(failures: number, freeFailures: number) {
  const over = Math.max(0, failures - freeFailures);
  return {
    bits: Math.min(SIGN_IN_CHALLENGE.maxBits, SIGN_IN_CHALLENGE.baseBits + over),
    delayMs: Math.min(SIGN_IN_CHALLENGE.maxDelayMs, SIGN_IN_CHALLENGE.baseDelayMs * 2 ** over),
  };
}

/** Issues a challenge for the account `accountKey` (its email key). */
export async function issueChallenge(
  tokens: TokenService,
  accountKey: string,
  cost: { bits: number; delayMs: number },
  now: Date,
): Promise<SignInChallenge> {
  const challenge = await tokens.signFor(
    'signInChallenge',
    { acc: accountKey, bits: cost.bits, nb: now.getTime() + cost.delayMs },
    SIGN_IN_CHALLENGE.lifetimeSeconds,
  );
  return { challenge, bits: cost.bits, retryAfterMs: cost.delayMs };
}

/** True when `solution` answers `challenge` with at least `bits` zero bits. */
export function solves(challenge: string, solution: string, bits: number): boolean {
  const digest = createHash('sha256').update(challengeDigestInput(challenge, solution)).digest();
  return leadingZeroBits(digest) >= bits;
}

/**
 * Checks an answer: 'ok' with the challenge's id (to record as used), 'early' when its delay has
 * not passed (with the time left), or 'invalid' (forged, expired, another account's, or
 * not solved).
 */
export async function checkAnswer(
  tokens: TokenService,
  accountKey: string,
  answer: { challenge: string; solution: string },
  now: Date,
): Promise<
  { result: 'ok'; id: string } | { result: 'early'; retryAfterMs: number } | { result: 'invalid' }
> {
  const claims = await tokens.verifyFor('signInChallenge', answer.challenge);
  if (
    claims === undefined ||
    claims['acc'] !== accountKey ||
    typeof claims['bits'] !== 'number' ||
    typeof claims['nb'] !== 'number' ||
    typeof claims['jti'] !== 'string'
  ) {
    return { result: 'invalid' };
  }
  if (!solves(answer.challenge, answer.solution, claims['bits'])) return { result: 'invalid' };
  if (now.getTime() < claims['nb']) {
    return { result: 'early', retryAfterMs: claims['nb'] - now.getTime() };
  }
  return { result: 'ok', id: claims['jti'] };
}
