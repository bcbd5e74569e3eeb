import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';
import {
  SCRYPT_COST,
  SCRYPT_BLOCK_SIZE,
  SCRYPT_PARALLELIZATION,
  SCRYPT_SALT_BYTES,
  SCRYPT_KEY_BYTES,
} from '../defaults';
// The figures live in defaults.ts with the others; re-exported here for this module's users.
export {
  SCRYPT_COST,
  SCRYPT_BLOCK_SIZE,
  SCRYPT_PARALLELIZATION,
  SCRYPT_SALT_BYTES,
  SCRYPT_KEY_BYTES,
} from '../defaults';

/**
 * Password hashing with Node's built-in scrypt (no native add-on to compile).
 *
 * Stored form: `scrypt$<N>$<r>$<p>$<salt>$<key>`, salt and key in base64url. The parameters travel
 * with each hash, so raising them later only affects new hashes; old ones still verify.
 */

const PREFIX = 'scrypt';
/** Highest N, r and p accepted from a stored hash, so a tampered row cannot stall the server. */
const MAX_STORED_COST = 2 ** 20;
const MAX_STORED_BLOCK_SIZE = 32;
const MAX_STORED_PARALLELIZATION = 16;

/**
 * Memory scrypt may use: it needs 128·N·r bytes, which for N = 2^15, r = 8 is exactly Node's
 * default cap (32 MiB), and Node refuses to run at the cap. Twice the need leaves room.
 */
function maxmemFor(cost: number, blockSize: number): number {
  return 2 * 128 * cost * blockSize;
}

/** Promise wrapper around the callback API (util.promisify loses the options overload's types). */
function derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}

/**
 * The same password typed on different systems can arrive composed (é) or decomposed (e + ◌́);
 * NFKC makes both hash alike.
 */
function normalize(password: string): string {
  return password.normalize('NFKC');
}

/** Hashes a password for storage, with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT_SALT_BYTES);
  const key = await derive(normalize(password), salt, SCRYPT_KEY_BYTES, {
    N: SCRYPT_COST,
    r: SCRYPT_BLOCK_SIZE,
    p: SCRYPT_PARALLELIZATION,
    maxmem: maxmemFor(SCRYPT_COST, SCRYPT_BLOCK_SIZE),
  });
  return [
    PREFIX,
    SCRYPT_COST,
    SCRYPT_BLOCK_SIZE,
    SCRYPT_PARALLELIZATION,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** Parses a positive integer field of a stored hash; undefined when it is not one. */
function positiveInteger(field: string | undefined): number | undefined {
  if (field === undefined || !/^[1-9][0-9]{0,9}$/.test(field)) return undefined;
  return Number(field);
}

/**
 * True when `password` matches a hash made by {@link hashPassword}. A malformed or foreign hash
 * verifies nothing (false), so a corrupt row locks the account rather than opening it.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [prefix, n, r, p, saltText, keyText, ...extra] = stored.split('$');
  const cost = positiveInteger(n);
  const blockSize = positiveInteger(r);
  const parallelization = positiveInteger(p);
  if (
    prefix !== PREFIX ||
    extra.length > 0 ||
    cost === undefined ||
    blockSize === undefined ||
    parallelization === undefined ||
    cost > MAX_STORED_COST ||
    blockSize > MAX_STORED_BLOCK_SIZE ||
    parallelization > MAX_STORED_PARALLELIZATION ||
    (cost & (cost - 1)) !== 0 ||
    saltText === undefined ||
    keyText === undefined
  ) {
    return false;
  }
  const salt = Buffer.from(saltText, 'base64url');
  const expected = Buffer.from(keyText, 'base64url');
  if (salt.length === 0 || expected.length === 0) return false;
  const actual = await derive(normalize(password), salt, expected.length, {
    N: cost,
    r: blockSize,
    p: parallelization,
    maxmem: maxmemFor(cost, blockSize),
  });
  // Constant time: how long the comparison takes must not reveal how many bytes matched.
  return timingSafeEqual(actual, expected);
}
