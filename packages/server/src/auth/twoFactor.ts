/**
 * Two-factor sign-in (TOTP, RFC 6238, with `otpauth`): the secret an authenticator app is given,
 * the codes it shows, and the recovery codes for when the app is lost. What is stored, and how a
 * code is spent once, is in db/store/twoFactor.ts.
 *
 * Codes are the usual ones (SHA-1, 6 digits, 30 seconds): every authenticator app reads them. One
 * step either side of now is accepted, for a phone's clock a little off.
 */
import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { renderSVG } from 'uqr';
import type { SealPurpose } from './secretBox';

/** Seconds a code lasts. */
export const TOTP_PERIOD_SECONDS = 30;

/** Steps either side of now a code may come from. */
const TOTP_WINDOW = 1;

/** Recovery codes made at enrolment (and when they are made anew). */
export const RECOVERY_CODE_COUNT = 10;

/** Lower-case base32 without look-alikes (no 0/o, 1/l/i): easy to copy from paper. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Where a user's sealed TOTP secret lives (bound into the seal). */
export function totpPurpose(userId: string): SealPurpose {
  return `users.totp_secret:${userId}`;
}

/** A new secret, base32 (160 bits, as RFC 4226 recommends). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, account: string, issuer: string): TOTP {
  return new TOTP({
    issuer,
    label: account,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
  });
}

/** What an authenticator app is given at enrolment: the `otpauth://` URI and its QR code. */
export interface TotpEnrolment {
  /** The secret, base32, for typing in by hand. */
  secret: string;
  uri: string;
  /** The URI as a QR code, an SVG document (the console shows it as a `data:` image). */
  qrSvg: string;
}

/** The enrolment of `secret` for `account` (the email), named `issuer` in the app. */
export function totpEnrolment(secret: string, account: string, issuer: string): TotpEnrolment {
  const uri = totp(secret, account, issuer).toString();
  return { secret, uri, qrSvg: renderSVG(uri, { border: 2 }) };
}

/** The 30-second step `now` falls in. */
export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code the app shows at `now` (tests, and `bench/`). */
export function totpCode(secret: string, now: Date): string {
  return totp(secret, '', 'Parley').generate({ timestamp: now.getTime() });
}

/**
 * The step `code` belongs to, when it is the secret's code for a step near `now`; else undefined.
 * Whether that step was spent already is the store's to say.
 */
export function totpCodeStep(secret: string, code: string, now: Date): number | undefined {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totp(secret, '', 'Parley').validate({
    token,
    timestamp: now.getTime(),
    window: TOTP_WINDOW,
  });
  return delta === null ? undefined : totpStep(now) + delta;
}

/** Whether `code` looks like an app's code (six digits) rather than a recovery code. */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s/g, ''));
}

/** New recovery codes, `xxxxx-xxxxx` (50 bits each), to be shown once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const letters = Array.from(
      { length: 10 },
      () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
    ).join('');
    return `${letters.slice(0, 5)}-${letters.slice(5)}`;
  });
}

/** What is stored of a recovery code: the SHA-256 of it without case, spaces or dashes. */
export function recoveryCodeHash(code: string): string {
  const normalized = code.toLowerCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(normalized).digest('hex');
}
