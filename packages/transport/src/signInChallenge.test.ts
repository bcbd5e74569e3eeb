import { CombinedError } from '@urql/core';
import type { OperationResult } from '@urql/core';
import { GraphQLError } from 'graphql';
import { answeringChallenges, solveChallenge } from './signInChallenge';
import type { ChallengeAnswer } from './signInChallenge';

async function sha256Bits(text: string): Promise<number> {
  const digest = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)),
  );
  let bits = 0;
  for (const byte of digest) {
    if (byte !== 0) return bits + Math.clz32(byte) - 24;
    bits += 8;
  }
  return bits;
}

const challenged = (extensions: Record<string, unknown>) =>
  ({
    error: new CombinedError({
      graphQLErrors: [
        new GraphQLError('Answer a challenge', {
          extensions: { code: 'CHALLENGE_REQUIRED', ...extensions },
        }),
      ],
    }),
  }) as OperationResult<{ ok: boolean }>;

describe('solveChallenge', () => {
  it('finds a string whose SHA-256 with the challenge starts with the zero bits asked', async () => {
    const solution = await solveChallenge('abc.def.ghi', 12);
    expect(await sha256Bits(`abc.def.ghi:${solution}`)).toBeGreaterThanOrEqual(12);
  });
});

describe('answeringChallenges', () => {
  it('solves, waits the delay, and sends again with the answer', async () => {
    const sent: ChallengeAnswer[] = [];
    const started = Date.now();
    const result = await answeringChallenges(async (answer) => {
      sent.push(answer);
      return sent.length === 1
        ? challenged({ challenge: 'c1', bits: 8, retryAfterMs: 200 })
        : ({ data: { ok: true } } as OperationResult<{ ok: boolean }>);
    });
    expect(result.data).toEqual({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(sent[0]).toEqual({});
    expect(sent[1]).toEqual({ challenge: 'c1', solution: expect.any(String) });
    expect(await sha256Bits(`c1:${sent[1]!.solution}`)).toBeGreaterThanOrEqual(8);
  });

  it('gives any other error, and a challenge that keeps coming back, to the form', async () => {
    const other = challenged({});
    expect(await answeringChallenges(async () => other)).toBe(other);
    let calls = 0;
    const stubborn = await answeringChallenges(async () => {
      calls += 1;
      return challenged({ challenge: `c${calls}`, bits: 1, retryAfterMs: 0 });
    });
    expect(stubborn.error?.graphQLErrors[0]?.extensions['code']).toBe('CHALLENGE_REQUIRED');
    expect(calls).toBe(4);
  });
});
