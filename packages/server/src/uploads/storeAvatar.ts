import { randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { inTransaction } from '../db/inTransaction';
import type { Db } from '../db/inTransaction';
import { toUser } from '../db/store/users';
import type { User } from '../db/store/users';
import { ParleyError } from '../ParleyError';
import type { Logger } from '../runtime/createLogger';
import { AVATAR_SIZES } from './renderAvatar';
import { sweepFolder } from './sweepFolder';
import { uploadWriteFailure } from './storageFull';

/**
 * Avatar files: each upload gets a fresh random name (a new URL, so caches and CDNs never serve
 * the old picture), and the file a user's row names is the only one kept for them. The audit sent
 * ten uploads at once and found 19 MB on disk, one file referenced: each upload had replaced the
 * avatar it read before the others wrote. Now the bytes go to a temporary name, and the row's
 * change is a compare-and-set on the URL it replaces, in the transaction that renames the file
 * into place; the URL it replaced is exactly the file it deletes.
 *
 * Each avatar is two files (renderAvatar.ts): `<user>-<random>-256.webp`, which the row names,
 * and its `-64.webp` sibling, which goes and comes with it. Avatars uploaded before re-encoding
 * (any other name) are one file, served as they are until replaced.
 */

/** Folder of avatar files, under the data folder and under the public URL. */
export const AVATAR_DIR = 'uploads/avatars';
/** Prefix of a file still being written (never referenced; swept when left behind). */
const TEMPORARY_PREFIX = '.upload-';
/** Compare-and-set attempts before giving up (each lost one means another upload just won). */
const MAX_ATTEMPTS = 10;

const LARGE_SUFFIX = `-${AVATAR_SIZES.large}.webp`;
const SMALL_SUFFIX = `-${AVATAR_SIZES.small}.webp`;

/** The small rendering's name or URL beside a large one's; undefined for an older avatar. */
export function smallAvatarOf(large: string): string | undefined {
  return large.endsWith(LARGE_SUFFIX)
    ? large.slice(0, -LARGE_SUFFIX.length) + SMALL_SUFFIX
    : undefined;
}

/** Where avatars live and how they are reached. */
export interface AvatarPlace {
  /** The data folder. */
  dataDir: string;
  /** The server's public URL (avatar URLs start with it). */
  publicUrl: string;
}

/** The path on disk of an avatar URL this server made for `userId`, or undefined. */
export function ownAvatarFile(
  place: AvatarPlace,
  userId: string,
  url: string | null,
): string | undefined {
  const prefix = `${place.publicUrl}/${AVATAR_DIR}/`;
  if (url === null || !url.startsWith(prefix)) return undefined;
  const name = url.slice(prefix.length);
  // Only names we generate: a URL edited in the database must not make us delete other files.
  if (basename(name) !== name || !name.startsWith(`${userId}-`)) return undefined;
  return join(place.dataDir, AVATAR_DIR, name);
}

/**
 * Stores `bytes` as `userId`'s avatar and removes the file it replaces. Answers the updated user.
 * A disk without room answers `STORAGE_FULL`, leaving no file behind.
 */
export async function storeAvatar(
  deps: AvatarPlace & { db: Db; logger: Pick<Logger, 'warn' | 'error'> },
  userId: string,
  rendered: { large: Uint8Array; small: Uint8Array },
): Promise<User> {
  const dir = join(deps.dataDir, AVATAR_DIR);
  const stem = `${userId}-${randomBytes(8).toString('hex')}`;
  const name = `${stem}${LARGE_SUFFIX}`;
  const smallName = `${stem}${SMALL_SUFFIX}`;
  const temporary = join(dir, `${TEMPORARY_PREFIX}${name}`);
  const smallTemporary = join(dir, `${TEMPORARY_PREFIX}${smallName}`);
  const final = join(dir, name);
  const smallFinal = join(dir, smallName);
  const url = `${deps.publicUrl}/${AVATAR_DIR}/${name}`;
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(temporary, rendered.large, { flag: 'wx', mode: 0o600 });
    await writeFile(smallTemporary, rendered.small, { flag: 'wx', mode: 0o600 });
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const outcome = await inTransaction(deps.db, async (trx) => {
        const current = await trx
          .selectFrom('users')
          .select('avatar_url')
          .where('id', '=', userId)
          .executeTakeFirst();
        if (current === undefined) throw new ParleyError('NOT_FOUND', `No user ${userId}.`);
        const row = await trx
          .updateTable('users')
          .set({ avatar_url: url })
          .where('id', '=', userId)
          .where('avatar_url', current.avatar_url === null ? 'is' : '=', current.avatar_url)
          .returningAll()
          .executeTakeFirst();
        // Another upload changed the row between the read and the write: read again.
        if (row === undefined) return undefined;
        // Inside the transaction: a rename that fails rolls the new URL back.
        await rename(smallTemporary, smallFinal);
        await rename(temporary, final);
        return { user: toUser(row), replaced: current.avatar_url };
      });
      if (outcome === undefined) continue;
      const previous = ownAvatarFile(deps, userId, outcome.replaced);
      // Best effort: the start-up sweep takes whatever is left.
      for (const file of previous === undefined ? [] : [previous, smallAvatarOf(previous)]) {
        if (file === undefined) continue;
        await unlink(file).catch((error: unknown) => {
          deps.logger.warn({ err: error, file }, 'Could not remove a replaced avatar');
        });
      }
      return outcome.user;
    }
    throw new ParleyError('RATE_LIMITED', 'Too many avatar changes at once; try again.', {
      retryAfterSeconds: 1,
    });
  } catch (error) {
    // Whichever name it has by now, a file of a failed upload is nobody's avatar.
    for (const file of [temporary, smallTemporary, final, smallFinal]) {
      await unlink(file).catch(() => undefined);
    }
    throw uploadWriteFailure(error, dir, deps.logger);
  }
}

/**
 * Deletes avatar files no user names (and temporary files) older than `graceMs`, so an upload
 * still in flight is never swept. Run at start: a crash between a write and its transaction, or a
 * delete that failed, leaves such files behind. Answers how many were removed.
 */
export async function sweepOrphanAvatars(
  deps: AvatarPlace & { db: Db; logger: Pick<Logger, 'info' | 'warn'> },
  options: { now?: number; graceMs?: number } = {},
): Promise<number> {
  const dir = join(deps.dataDir, AVATAR_DIR);
  const rows = await deps.db
    .selectFrom('users')
    .select(['id', 'avatar_url'])
    .where('avatar_url', 'is not', null)
    .execute();
  const kept = new Set(
    rows
      .map((row) => ownAvatarFile(deps, row.id, row.avatar_url))
      .flatMap((file) => (file === undefined ? [] : [file, smallAvatarOf(file)]))
      .map((file) => file && basename(file)),
  );
  return sweepFolder(deps.logger, dir, kept, options);
}
