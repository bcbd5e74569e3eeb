import { chmod, lstat, mkdir, readdir, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Logger } from './createLogger';

/**
 * The data folder holds the database (SSO signing secrets, password hashes), `secret.key`, the
 * outbox (live password-reset links) and uploads: nobody but the server's own user may read any
 * of it. An audit read a reset link from a 0644 outbox file as another local user and took over
 * the admin account.
 */

/** Mode of every folder inside the data folder, and of the folder itself: owner only. */
export const DATA_DIR_MODE = 0o700;
/** Mode of every file inside the data folder: owner read/write only. */
export const DATA_FILE_MODE = 0o600;
/**
 * The process umask while the server runs: files created by anything (SQLite's database, WAL and
 * shared-memory files, uploads, the outbox) get no group or other bits, whoever creates them.
 */
export const DATA_UMASK = 0o077;

/** Bits that give anyone but the owner access. */
const GROUP_AND_OTHER = 0o077;

/** Options of {@link secureDataDir}. */
export interface SecureDataDirOptions {
  /** The data folder (created when missing). */
  dataDir: string;
  /** Where a tightened folder is reported (warn). */
  logger: Pick<Logger, 'warn'>;
}

/** What {@link secureDataDir} changed. */
export interface SecureDataDirResult {
  /** Absolute paths whose mode was tightened (the folder itself, files and folders inside). */
  tightened: string[];
}

/**
 * Makes the data folder private: sets the process umask to {@link DATA_UMASK} (so every file the
 * server creates from now on is owner-only), creates the folder 0700, and tightens an existing
 * folder — itself and everything inside — to 0700/0600 with a warning naming how many paths were
 * open, since those may already have been read. Symbolic links are neither followed nor changed.
 */
export async function secureDataDir(options: SecureDataDirOptions): Promise<SecureDataDirResult> {
  process.umask(DATA_UMASK);
  const root = resolve(options.dataDir);
  await mkdir(root, { recursive: true, mode: DATA_DIR_MODE }).catch((error: unknown) => {
    throw unusable(root, error);
  });
  // Said now, in these words, rather than later by SQLite as "unable to open database file".
  const probe = join(root, `.write-check-${process.pid}`);
  await writeFile(probe, '', { mode: DATA_FILE_MODE })
    .then(() => unlink(probe))
    .catch((error: unknown) => {
      throw unusable(root, error);
    });
  const tightened: string[] = [];
  await tighten(root, tightened);
  if (tightened.length > 0) {
    options.logger.warn(
      { dataDir: root, paths: tightened.slice(0, 20), count: tightened.length },
      `The data folder ${root} was readable by other users: ${tightened.length} path(s) were ` +
        'made owner-only (folders 0700, files 0600). What they held (reset links in the ' +
        'outbox, the database) may already have been read: consider rotating SSO keys and ' +
        'PARLEY_SECRET.',
    );
  }
  return { tightened };
}

/** The start-up error for a data folder this process cannot write. */
function unusable(root: string, error: unknown): Error {
  const { code, message } = error as NodeJS.ErrnoException;
  return new Error(
    `The data folder ${root} is not writable by this process (uid ${process.getuid?.() ?? '?'}): ` +
      `${code ?? message}. Give this user write access to it, or set PARLEY_DATA_DIR to a folder ` +
      'it owns.',
    { cause: error },
  );
}

async function tighten(path: string, tightened: string[]): Promise<void> {
  const stats = await lstat(path);
  if (stats.isSymbolicLink()) return;
  const wanted = stats.isDirectory() ? DATA_DIR_MODE : DATA_FILE_MODE;
  if ((stats.mode & GROUP_AND_OTHER) !== 0) {
    await chmod(path, wanted);
    tightened.push(path);
  }
  if (!stats.isDirectory()) return;
  for (const name of await readdir(path)) await tighten(join(path, name), tightened);
}
