// The sign-in challenge's arithmetic, which the server checks and the clients solve: an answer is
// a string whose SHA-256 over `${challenge}:${solution}` starts with enough zero bits.

/** The text whose SHA-256 an answer is judged by. */
export function challengeDigestInput(challenge: string, solution: string): string {
  return `${challenge}:${solution}`;
}

/** Leading zero bits of a digest. */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte !== 0) return bits + Math.clz32(byte) - 24;
    bits += 8;
  }
  return bits;
}
