/**
 * Bots before content: what a new account or a new guest costs before it can write anything.
 *
 * - **Proof of work.** `signUp` and `startGuestSession` answer CHALLENGE_REQUIRED with a
 *   challenge (the sign-in challenge's kind, signInChallenge.ts, bound to what is being made);
 *   the popup and the guest form solve it in the background (about 16,000 SHA-256 hashes: a
 *   fraction of a second) and send again. Nothing to see or do, so nobody is asked to read
 *   anything and a screen reader meets no puzzle; a script must spend the work for each account
 *   or guest session, on top of the per-address limits. Each answer works once.
 * - **A honeypot.** The same forms carry a field people never see nor reach (`website`); a bot
 *   that fills every field fills it, and is refused with its field named.
 *
 * Not asked of posts: a guest's posts are made in the session the work paid for, a member's in
 * an account that paid at sign-up (or came from the host's SSO or a sign-in provider, whose
 * accounts are the host's and the provider's to vouch for).
 */
import { DEFAULT_BOT_CHECK } from '../defaults';
import { ParleyError } from '../ParleyError';
import type { ParleyContext } from '../graphql/context';
import { checkAnswer, issueChallenge } from './signInChallenge';

/** An answer as the inputs carry it. */
export interface BotCheckAnswer {
  challenge?: string | null;
  solution?: string | null;
  /** The honeypot: empty from people. */
  website?: string | null;
}

/** Refuses a filled honeypot. */
export function refuseHoneypot(answer: BotCheckAnswer): void {
  if ((answer.website ?? '') !== '') {
    throw new ParleyError(
      'INVALID_INPUT',
      'This field is left empty by people: it is a trap for scripts that fill in every field.',
      { field: 'website' },
    );
  }
}

/**
 * Goes on with a solved, unused challenge made for `scope` (what is being made: the address
 * signing up, the address starting a guest session); otherwise throws CHALLENGE_REQUIRED with a
 * fresh one.
 */
export async function requireBotCheck(
  ctx: ParleyContext,
  scope: string,
  answer: BotCheckAnswer,
): Promise<void> {
  const ask = async (message: string) =>
    new ParleyError(
      'CHALLENGE_REQUIRED',
      message,
      await issueChallenge(
        ctx.tokens,
        scope,
        { bits: DEFAULT_BOT_CHECK.bits, delayMs: 0 },
        ctx.now(),
      ),
    );
  if (!answer.challenge || !answer.solution) {
    throw await ask('This browser answers a short challenge first (it takes a moment, by itself).');
  }
  const checked = await checkAnswer(
    ctx.tokens,
    scope,
    { challenge: answer.challenge, solution: answer.solution },
    ctx.now(),
  );
  if (
    checked.result !== 'ok' ||
    (await ctx.rateLimiter.record('signInChallengeUse', checked.id)) > 1
  ) {
    throw await ask('That challenge was not answered, has expired or was used: here is a new one.');
  }
}
