import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { JWTPayload } from 'jose';

/** The user a host's SSO token describes, as a test writes it. */
export interface HostUser {
  id: string;
  email: string;
  username: string;
  badges?: string[];
}

/**
 * Signs an SSO token as a host site's server does (HS256 with one of its site's keys), valid for
 * five minutes around `at`, with a fresh `jti` (Parley exchanges each token once). `extra` claims
 * override the defaults.
 */
export function signHostToken(
  secret: string,
  user: HostUser,
  at = new Date(),
  extra: JWTPayload = {},
): Promise<string> {
  const seconds = Math.floor(at.getTime() / 1000);
  return new SignJWT({ user, iat: seconds - 5, exp: seconds + 300, jti: randomUUID(), ...extra })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(secret));
}
