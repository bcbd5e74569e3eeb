/**
 * Test-side answers to the server's proof-of-work challenges (auth/botCheck.ts,
 * auth/signInChallenge.ts), as the popup gives them but with Node's synchronous SHA-256, so a
 * suite that signs up hundreds of accounts is not slowed by the browser's asynchronous digests.
 */
import { createHash } from 'node:crypto';
import { challengeDigestInput, leadingZeroBits } from '@parley/contract';

/** A solution of `challenge` with `bits` leading zero bits. */
export function solveChallengeSync(challenge: string, bits: number): string {
  for (let attempt = 0; ; attempt += 1) {
    const solution = attempt.toString(36);
    const digest = createHash('sha256').update(challengeDigestInput(challenge, solution)).digest();
    if (leadingZeroBits(digest) >= bits) return solution;
  }
}

/** A GraphQL answer, as far as challenges go. */
interface Answered {
  errors?: readonly { extensions?: Record<string, unknown> }[] | null;
}

/**
 * Sends with `send`, and after a CHALLENGE_REQUIRED answers it and sends again (twice at most);
 * resolves the last answer.
 */
export async function answerChallenges<T extends Answered>(
  send: (answer: { challenge?: string; solution?: string }) => Promise<T>,
): Promise<T> {
  let result = await send({});
  for (let round = 0; round < 2; round += 1) {
    const extensions = result.errors?.[0]?.extensions;
    if (extensions?.['code'] !== 'CHALLENGE_REQUIRED') return result;
    const challenge = String(extensions['challenge']);
    result = await send({
      challenge,
      solution: solveChallengeSync(challenge, Number(extensions['bits'])),
    });
  }
  return result;
}
