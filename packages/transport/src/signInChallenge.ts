import { challengeDigestInput, leadingZeroBits } from '@parley/contract';
import type { OperationResult } from '@urql/core';
import { toTransportError } from './TransportError';

/**
 * The client half of the server's sign-in challenges (an account under password guessing asks
 * sign-ins from unknown devices for a little proof of work and a short wait, instead of locking
 * its owner out), and the device tokens that let a known device skip them.
 */

/** What a sign-in sends after CHALLENGE_REQUIRED. */
export interface ChallengeAnswer {
  challenge?: string;
  solution?: string;
}

/** Rounds of challenge and answer before giving the last error to the form. */
const CHALLENGE_ROUNDS = 3;

/**
 * Finds a solution: a string whose SHA-256 with the challenge (`${challenge}:${solution}`) starts
 * with `bits` zero bits. Web Crypto digests are asynchronous, so the page stays responsive.
 */
export async function solveChallenge(challenge: string, bits: number): Promise<string> {
  const encoder = new TextEncoder();
  for (let attempt = 0; ; attempt += 1) {
    const solution = attempt.toString(36);
    const digest = await crypto.subtle.digest(
      'SHA-256',
      encoder.encode(challengeDigestInput(challenge, solution)),
    );
    if (leadingZeroBits(new Uint8Array(digest)) >= bits) return solution;
  }
}

/**
 * Sends a sign-in with `send`, and when the server answers CHALLENGE_REQUIRED, solves the
 * challenge, waits out its delay and sends again with the answer (a few rounds at most). Resolves
 * with the last result: the sign-in's, or its error for the form.
 */
export async function answeringChallenges<T>(
  send: (answer: ChallengeAnswer) => Promise<OperationResult<T>>,
): Promise<OperationResult<T>> {
  let result = await send({});
  for (let round = 0; round < CHALLENGE_ROUNDS && result.error; round += 1) {
    const { code, extensions } = toTransportError(result.error);
    const { challenge, bits, retryAfterMs } = extensions;
    if (
      code !== 'CHALLENGE_REQUIRED' ||
      typeof challenge !== 'string' ||
      typeof bits !== 'number'
    ) {
      return result;
    }
    const wait = new Promise((resolve) => setTimeout(resolve, Number(retryAfterMs) || 0));
    const [solution] = await Promise.all([solveChallenge(challenge, bits), wait]);
    result = await send({ challenge, solution });
  }
  return result;
}

/** What a sign-in form sends: the credentials, this browser's device token, a challenge's answer. */
export interface SignInAttempt extends ChallengeAnswer {
  email: string;
  password: string;
  deviceToken: string | undefined;
}

/**
 * A password sign-in as every form does it: sends the credentials with this browser's device
 * token for the address (a known device goes straight through), answers the challenges an account
 * under password guessing asks of unknown devices, and remembers the device token the answer
 * carries, if its selection asked for one. The email is trimmed; the password goes as typed.
 */
export async function signInWithDevice<T extends { signIn: { deviceToken?: string | null } }>(
  credentials: { email: string; password: string },
  send: (input: SignInAttempt) => Promise<OperationResult<T>>,
): Promise<OperationResult<T>> {
  const email = credentials.email.trim();
  const { password } = credentials;
  const result = await answeringChallenges((answer) =>
    send({ email, password, deviceToken: rememberedDevice(email), ...answer }),
  );
  rememberDevice(email, result.data?.signIn.deviceToken);
  return result;
}

/** Where device tokens are kept: this origin's local storage, one per account email. */
const DEVICES_KEY = 'parley.devices';

function readDevices(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(DEVICES_KEY) ?? '{}');
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {}; // storage blocked or corrupt: this device is simply not remembered
  }
}

/** The device token this browser keeps for `email`, if any. */
export function rememberedDevice(email: string): string | undefined {
  return readDevices()[email.trim().toLowerCase()];
}

/** Keeps `token` (a sign-in's deviceToken) for `email` on this browser. */
export function rememberDevice(email: string, token: string | null | undefined): void {
  if (!token) return;
  try {
    const devices = { ...readDevices(), [email.trim().toLowerCase()]: token };
    localStorage.setItem(DEVICES_KEY, JSON.stringify(devices));
  } catch {
    // Storage blocked: sign-ins still work, only without the device's head start.
  }
}
