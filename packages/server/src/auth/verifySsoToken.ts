import { errors, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';
import {
  SSO_CLOCK_SKEW_SECONDS,
  SSO_KEY_ROTATION_OVERLAP_SECONDS,
  SSO_USER_ID_MAX_LENGTH,
} from '../defaults';
import { ParleyError } from '../ParleyError';

/**
 * SSO: the host site signs `{ user: { id, email, username, badges? }, iat, exp }` with one of its
 * site's keys (HS256); we check it here before creating or updating that user.
 */

/** A site's SSO signing key as stored. */
export interface SsoKey {
  /** The shared HMAC secret the host signs with. */
  secret: string;
  /**
   * When the key stops verifying; null for the active key. Rotation sets it on the old key to
   * {@link ssoKeyExpiryAfterRotation}, so tokens the host signed before switching keep working.
   */
  expiresAt: Date | null;
  /** A revoked key never verifies, whatever `expiresAt` says (a leaked key). */
  revoked: boolean;
}

/** The user a verified SSO token describes. */
export interface SsoUser {
  /** The host's id for the user; numbers are accepted and turned into strings. */
  id: string;
  /** Email as the host gave it (validate it before storing). */
  email: string;
  /** Username as the host gave it (validate it before storing). */
  username: string;
  /** Badges to show next to the name (e.g. "Subscriber"); empty when none were sent. */
  badges: string[];
}

/** A verified SSO token's payload. */
export interface SsoPayload {
  /** The user. */
  user: SsoUser;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expires at, seconds since the epoch. */
  exp: number;
}

const ALGORITHM = 'HS256';

/** When an SSO key being rotated out should stop verifying: the rotation time plus the overlap. */
export function ssoKeyExpiryAfterRotation(rotatedAt: Date): Date {
  return new Date(rotatedAt.getTime() + SSO_KEY_ROTATION_OVERLAP_SECONDS * 1000);
}

/** True when `key` may verify tokens at `now`: not revoked, and active or still in its overlap. */
export function isSsoKeyUsable(key: SsoKey, now: Date): boolean {
  return !key.revoked && (key.expiresAt === null || key.expiresAt.getTime() > now.getTime());
}

function badShape(what: string): ParleyError {
  return new ParleyError('INVALID_INPUT', `The SSO token's payload is not valid: ${what}.`, {
    field: 'token',
  });
}

function nonEmptyString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw badShape(`${name} must be a string`);
  return value;
}

/** Checks the payload's shape; jose has already checked the signature, `iat` and `exp`. */
function readPayload(payload: JWTPayload): SsoPayload {
  const { user, iat, exp } = payload;
  if (typeof iat !== 'number' || typeof exp !== 'number')
    throw badShape('iat and exp are required');
  if (typeof user !== 'object' || user === null || Array.isArray(user)) {
    throw badShape('user must be an object');
  }
  const { id, email, username, badges } = user as Record<string, unknown>;
  const userId =
    typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : nonEmptyString(id, 'user.id');
  if (userId.length > SSO_USER_ID_MAX_LENGTH) {
    throw badShape(`user.id can be at most ${SSO_USER_ID_MAX_LENGTH} characters`);
  }
  if (
    badges !== undefined &&
    badges !== null &&
    !(Array.isArray(badges) && badges.every((badge) => typeof badge === 'string'))
  ) {
    throw badShape('user.badges must be a list of strings');
  }
  return {
    user: {
      id: userId,
      email: nonEmptyString(email, 'user.email'),
      username: nonEmptyString(username, 'user.username'),
      badges: (badges as string[] | null | undefined) ?? [],
    },
    iat,
    exp,
  };
}

/**
 * Verifies a host-signed SSO token against a site's keys, trying every usable key (the active
 * one, and rotated-out ones within their overlap, never revoked ones) so a rotation never breaks
 * sign-in for tokens the host signed just before switching.
 *
 * Throws ParleyError `TOKEN_EXPIRED` (signature good, `exp` past), `TOKEN_INVALID` (malformed,
 * another algorithm, or signed by no usable key) or `INVALID_INPUT` (`field: 'token'`, signature
 * good but the payload is not the documented shape).
 */
export async function verifySsoToken(
  token: string,
  keys: readonly SsoKey[],
  now: Date,
): Promise<SsoPayload> {
  const encoder = new TextEncoder();
  for (const key of keys) {
    if (!isSsoKeyUsable(key, now)) continue;
    try {
      const { payload } = await jwtVerify(token, encoder.encode(key.secret), {
        algorithms: [ALGORITHM],
        currentDate: now,
        requiredClaims: ['iat', 'exp'],
      });
      const read = readPayload(payload);
      // jose checks `iat` only against a maximum age; a token dated ahead of the clock could
      // otherwise be minted today to stay usable for as long as its `exp` says.
      if (read.iat > now.getTime() / 1000 + SSO_CLOCK_SKEW_SECONDS) {
        throw new ParleyError(
          'TOKEN_INVALID',
          `The sign-in token was issued in the future (iat ${read.iat}); check the host's clock.`,
          { field: 'token' },
        );
      }
      return read;
    } catch (error) {
      // jose checks the signature before the claims, so "expired" means this key signed it.
      if (error instanceof errors.JWTExpired) {
        throw new ParleyError('TOKEN_EXPIRED', 'The sign-in token has expired; sign in again.');
      }
      if (error instanceof errors.JWTClaimValidationFailed) {
        // A missing or non-numeric claim is the host's integration bug (a shape problem); a time
        // check that failed (`nbf` or `iat` in the future) makes the token itself unusable.
        if (error.reason === 'missing' || error.reason === 'invalid') throw badShape(error.message);
        break;
      }
      if (error instanceof errors.JWSSignatureVerificationFailed) continue;
      if (error instanceof ParleyError) throw error;
      // Malformed token or a disallowed algorithm: no other key will do better.
      break;
    }
  }
  throw new SsoKeyMismatchError();
}

/**
 * `TOKEN_INVALID` because none of the keys given verifies the token (or it is no JWT at all):
 * "not this site's", where every other refusal means this site signed it but it cannot be used.
 */
export class SsoKeyMismatchError extends ParleyError {
  constructor() {
    super('TOKEN_INVALID', 'The sign-in token is not valid for this site.');
  }
}
