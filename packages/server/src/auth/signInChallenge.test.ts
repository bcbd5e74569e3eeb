import { randomBytes } from 'node:crypto';
import { solveChallenge } from '@parley/transport/sign-in';
import { SIGN_IN_CHALLENGE } from '../defaults';
import { challengeCost, checkAnswer, issueChallenge, solves } from './signInChallenge';
import { createTokenService } from './tokens';

const tokens = createTokenService({ secret: randomBytes(32), issuer: 'https://comments.example' });
const NOW = new Date('2026-11-24T12:00:00Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

describe('challengeCost', () => {
  it('grows one bit and doubles the delay per failure past the free ones, within bounds', () => {
    expect(challengeCost(5, 5)).toEqual({
      bits: SIGN_IN_CHALLENGE.baseBits,
      delayMs: SIGN_IN_CHALLENGE.baseDelayMs,
    });
    expect(challengeCost(7, 5)).toEqual({
      bits: SIGN_IN_CHALLENGE.baseBits + 2,
      delayMs: SIGN_IN_CHALLENGE.baseDelayMs * 4,
    });
    expect(challengeCost(500, 5)).toEqual({
      bits: SIGN_IN_CHALLENGE.maxBits,
      delayMs: SIGN_IN_CHALLENGE.maxDelayMs,
    });
  });
});

describe('checkAnswer', () => {
  it("accepts the client's solution after the delay, for the same account only", async () => {
    const { challenge, bits } = await issueChallenge(
      tokens,
      'a@example.com',
      { bits: 10, delayMs: 500 },
      NOW,
    );
    const solution = await solveChallenge(challenge, bits);
    expect(solves(challenge, solution, 10)).toBe(true);
    const answer = { challenge, solution };
    await expect(checkAnswer(tokens, 'a@example.com', answer, later(100))).resolves.toEqual({
      result: 'early',
      retryAfterMs: 400,
    });
    await expect(checkAnswer(tokens, 'a@example.com', answer, later(500))).resolves.toEqual({
      result: 'ok',
      id: expect.any(String),
    });
    await expect(checkAnswer(tokens, 'b@example.com', answer, later(500))).resolves.toEqual({
      result: 'invalid',
    });
  });

  it('refuses an unsolved answer and a forged challenge', async () => {
    const { challenge } = await issueChallenge(
      tokens,
      'a@example.com',
      { bits: 16, delayMs: 0 },
      NOW,
    );
    // One string in 65,536 solves 16 bits; find one that does not.
    let wrong = 0;
    while (solves(challenge, String(wrong), 16)) wrong += 1;
    await expect(
      checkAnswer(tokens, 'a@example.com', { challenge, solution: String(wrong) }, NOW),
    ).resolves.toEqual({ result: 'invalid' });
    const forged = `${challenge.split('.').slice(0, 2).join('.')}.c2lnbmF0dXJl`;
    await expect(
      checkAnswer(tokens, 'a@example.com', { challenge: forged, solution: '0' }, NOW),
    ).resolves.toEqual({ result: 'invalid' });
  });
});
