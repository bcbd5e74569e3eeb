import { hkdfSync, randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSecretBox, deriveSealingKey } from './secretBox';
import type { SecretBox } from './secretBox';

/** Length of the token-signing secret, in bytes (HS256 wants at least its 32-byte hash size). */
export const SECRET_BYTES = 32;
/** File in the data folder that keeps the generated secret. */
export const SECRET_FILE_NAME = 'secret.key';
/**
 * Shortest `PARLEY_SECRET` accepted, in characters. Shorter strings are guessable offline from any
 * one token, after which anyone could sign in as anyone.
 */
export const ENV_SECRET_MIN_LENGTH = 16;

/** HKDF salt/info: binds the derived key to this use, so the same env value reused elsewhere differs. */
const HKDF_SALT = 'parley';
const HKDF_INFO = 'parley session tokens v1';

/** Owner read/write only: the secret signs every session token. */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/** Derives the signing secret from an operator-given string (any length ≥ the minimum). */
function deriveFromEnv(envSecret: string): Uint8Array {
  checkLength(envSecret, 'PARLEY_SECRET');
  return new Uint8Array(hkdfSync('sha256', envSecret, HKDF_SALT, HKDF_INFO, SECRET_BYTES));
}

function checkLength(envSecret: string, name: string): void {
  if (envSecret.length < ENV_SECRET_MIN_LENGTH) {
    throw new Error(
      `${name} must be at least ${ENV_SECRET_MIN_LENGTH} characters; got ${envSecret.length}.`,
    );
  }
}

/** Reads an existing secret file, or undefined when there is none yet. */
async function readSecret(path: string): Promise<Uint8Array | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (bytes.length !== SECRET_BYTES) {
    // Regenerating would silently sign everyone out and hide whatever damaged the file.
    throw new Error(
      `${path} holds ${bytes.length} bytes, expected ${SECRET_BYTES}; restore it or delete it to ` +
        'generate a new one (which signs everyone out).',
    );
  }
  // A copy or restore may have widened the mode; tighten it again.
  if (((await stat(path)).mode & 0o077) !== 0) await chmod(path, FILE_MODE);
  return new Uint8Array(bytes);
}

/**
 * The secret that signs session tokens.
 *
 * With `envSecret` (PARLEY_SECRET; empty counts as unset) it is derived from that string with
 * HKDF-SHA256, so every instance given the same value agrees and nothing is written. Otherwise
 * 32 random bytes are generated on first start and kept in `<dataDir>/secret.key` (mode 0600);
 * later starts read them back, so sessions survive restarts.
 */
export async function loadOrCreateSecret(dataDir: string, envSecret?: string): Promise<Uint8Array> {
  if (envSecret !== undefined && envSecret !== '') return deriveFromEnv(envSecret);

  const path = join(dataDir, SECRET_FILE_NAME);
  const existing = await readSecret(path);
  if (existing !== undefined) return existing;

  await mkdir(dataDir, { recursive: true, mode: DIR_MODE });
  // Write a complete temporary file, then link it into place: link fails if the name exists, so
  // two processes starting together cannot both win, and no one ever reads a half-written key.
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const secret = randomBytes(SECRET_BYTES);
  await writeFile(temporary, secret, { mode: FILE_MODE, flag: 'wx' });
  try {
    await link(temporary, path);
    return new Uint8Array(secret);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = await readSecret(path);
    if (winner === undefined) throw error;
    return winner;
  } finally {
    await unlink(temporary);
  }
}

/** What the server signs and seals with. */
export interface ServerSecrets {
  /** Signs session tokens (see {@link loadOrCreateSecret}). */
  tokenSecret: Uint8Array;
  /** Seals the secrets stored in the database (SSO keys, the SMTP password). */
  box: SecretBox;
  /** Where the root came from, for people: `PARLEY_SECRET`, or the `secret.key` file's path. */
  root: string;
}

/** The command the start-up error gives for making a `PARLEY_SECRET`. */
export const GENERATE_SECRET_COMMAND = `node -e "console.log(require('node:crypto').randomBytes(32).toString('base64url'))"`;

/** Where {@link loadServerSecrets} finds its roots (the matching fields of `Config`). */
export interface SecretSources {
  dataDir: string;
  /** `PARLEY_SECRET`. */
  secret: string | undefined;
  /** `PARLEY_SECRET_PREVIOUS`. */
  previousSecret: string | undefined;
  /** `NODE_ENV=production`: `PARLEY_SECRET` is then required. */
  production: boolean;
}

/** What {@link loadServerSecrets} does when there is no root yet. */
export interface LoadSecretsOptions {
  /**
   * False: without `PARLEY_SECRET`, an existing `secret.key` is required (the `parley` commands:
   * a shell without the server's environment must not make a key of its own and then judge every
   * stored secret unreadable). @default true
   */
  create?: boolean;
}

/**
 * The session-token secret and the box that seals stored secrets, both from one root:
 * `PARLEY_SECRET` when set, else the data folder's `secret.key` (created on first start; not in
 * production, where several instances must agree and the key must not live beside the data).
 *
 * Values sealed under an earlier root still open, and the server seals them again under the
 * current one as it starts: `PARLEY_SECRET_PREVIOUS` (a rotation) and, when `PARLEY_SECRET` is
 * set, an existing `secret.key` (an install that ran without it first).
 */
export async function loadServerSecrets(
  sources: SecretSources,
  { create = true }: LoadSecretsOptions = {},
): Promise<ServerSecrets> {
  const { dataDir, secret: envSecret, previousSecret, production } = sources;
  const fromEnv = envSecret !== undefined && envSecret !== '';
  const file = await readSecret(join(dataDir, SECRET_FILE_NAME));
  if (!fromEnv && !create && file === undefined) {
    throw new Error(
      `Neither PARLEY_SECRET nor ${join(dataDir, SECRET_FILE_NAME)} is there: run this with the ` +
        "server's own environment (its PARLEY_SECRET and PARLEY_DATA_DIR).",
    );
  }
  if (!fromEnv && production) {
    throw new Error(
      'PARLEY_SECRET is required when NODE_ENV=production: it signs sessions and seals the ' +
        'secrets stored in the database, and every instance needs the same value. Generate ' +
        `one with: ${GENERATE_SECRET_COMMAND}`,
    );
  }
  // The file read above is the token secret when there is no PARLEY_SECRET.
  const tokenSecret =
    !fromEnv && file !== undefined ? file : await loadOrCreateSecret(dataDir, envSecret);
  const previous: Uint8Array[] = [];
  if (previousSecret !== undefined && previousSecret !== '') {
    checkLength(previousSecret, 'PARLEY_SECRET_PREVIOUS');
    previous.push(deriveSealingKey(previousSecret));
  }
  if (fromEnv && file !== undefined) previous.push(deriveSealingKey(file));
  const current = deriveSealingKey(fromEnv ? envSecret : tokenSecret);
  return {
    tokenSecret,
    box: createSecretBox({ current, previous }),
    root: fromEnv ? 'PARLEY_SECRET' : join(dataDir, SECRET_FILE_NAME),
  };
}
