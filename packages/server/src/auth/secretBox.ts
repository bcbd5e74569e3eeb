import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets the server must read back in clear (an SSO key verifies HS256 signatures with the secret
 * itself; SMTP wants its password) are stored sealed with AES-256-GCM under a key derived from
 * `PARLEY_SECRET` (or, without it, from the data folder's `secret.key`). A copy of the database
 * alone — a backup, a `pg_dump`, a replica — then holds no usable secret.
 *
 * A sealed value is `sealed:v1:` + base64url(12-byte IV ‖ 16-byte tag ‖ ciphertext). The purpose
 * (which column it belongs to) is authenticated too, so a sealed SMTP password copied into an SSO
 * key's column does not open.
 */

/** Prefix of every sealed value; a stored value without it predates sealing. */
export const SEALED_PREFIX = 'sealed:v1:';

/**
 * Where a sealed value lives, bound into its tag: a value copied to another column, or to another
 * row (one site's key onto another's), does not open.
 */
export type SealPurpose =
  | `sso_keys.secret:${string}`
  | `users.totp_secret:${string}`
  | 'settings.smtpPassword'
  | `mail_queue.message:${string}`
  | `sign_in_providers.client_secret:${string}`
  | `webhooks.secret:${string}`;

/** The purpose of the secret of SSO key `id`. */
export function ssoKeyPurpose(id: string): SealPurpose {
  return `sso_keys.secret:${id}`;
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HKDF_SALT = 'parley';
/** Distinct from the session-token key's info: the same root gives unrelated keys. */
const HKDF_INFO = 'parley secrets at rest v1';

/** Derives the sealing key from a root: `PARLEY_SECRET`'s text or `secret.key`'s bytes. */
export function deriveSealingKey(root: string | Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', root, HKDF_SALT, HKDF_INFO, KEY_BYTES));
}

/** Seals and opens stored secrets; see the file comment. */
export interface SecretBox {
  /** The value to store for `plain`; the empty string (nothing set) stays empty. */
  seal(plain: string, purpose: SealPurpose): string;
  /**
   * The clear value of a stored one. A value stored before sealing existed is returned as it is
   * (the server seals those as it starts). Throws {@link UnreadableSecretError} when no key opens it.
   */
  open(stored: string, purpose: SealPurpose): string;
  /** Whether `stored` needs sealing again: in clear, or sealed under a previous key. */
  needsResealing(stored: string, purpose: SealPurpose): boolean;
}

/** A sealed value that none of the server's keys opens (`PARLEY_SECRET` changed). */
export class UnreadableSecretError extends Error {
  constructor(purpose: SealPurpose) {
    super(
      `A stored secret (${purpose}) was sealed with another PARLEY_SECRET. Set ` +
        'PARLEY_SECRET_PREVIOUS to the value it was sealed with.',
    );
    this.name = 'UnreadableSecretError';
  }
}

/** Keys of a {@link SecretBox}: the current one seals; every one opens. */
export interface SecretBoxKeys {
  current: Uint8Array;
  /** Keys values may still be sealed with (a previous `PARLEY_SECRET`, a `secret.key`). */
  previous?: readonly Uint8Array[];
}

export function createSecretBox({ current, previous = [] }: SecretBoxKeys): SecretBox {
  const keys = [current, ...previous];

  /** The index in `keys` of the key that opens `stored`, with the clear value. */
  function tryOpen(stored: string, purpose: SealPurpose): [number, string] | undefined {
    const bytes = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
    const iv = bytes.subarray(0, IV_BYTES);
    const tag = bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const body = bytes.subarray(IV_BYTES + TAG_BYTES);
    for (const [index, key] of keys.entries()) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAAD(Buffer.from(purpose));
        decipher.setAuthTag(tag);
        return [index, Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')];
      } catch {
        // Another key, or tampered with: try the next.
      }
    }
    return undefined;
  }

  return {
    seal(plain, purpose) {
      if (plain === '') return '';
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(purpose));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(stored, purpose) {
      if (!stored.startsWith(SEALED_PREFIX)) return stored;
      const opened = tryOpen(stored, purpose);
      if (opened === undefined) throw new UnreadableSecretError(purpose);
      return opened[1];
    },
    needsResealing(stored, purpose) {
      if (stored === '') return false;
      if (!stored.startsWith(SEALED_PREFIX)) return true;
      const opened = tryOpen(stored, purpose);
      if (opened === undefined) throw new UnreadableSecretError(purpose);
      return opened[0] !== 0;
    },
  };
}
