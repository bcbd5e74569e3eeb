import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ORPHAN_UPLOAD_GRACE_MS } from '../defaults';
import type { Logger } from '../runtime/createLogger';

/**
 * Removes the files of an upload folder that nothing names (`kept` holds the names in use) and
 * that are older than `graceMs` (an upload in flight is younger): what a crash or a failed write
 * left behind. Resolves how many it removed.
 */
export async function sweepFolder(
  logger: Pick<Logger, 'info' | 'warn'>,
  dir: string,
  kept: ReadonlySet<string | undefined>,
  { now = Date.now(), graceMs = ORPHAN_UPLOAD_GRACE_MS }: { now?: number; graceMs?: number } = {},
): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (kept.has(name)) continue;
    const path = join(dir, name);
    const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: now }));
    if (now - mtimeMs < graceMs) continue;
    await unlink(path).then(
      () => (removed += 1),
      (error: unknown) => logger.warn({ err: error, file: path }, 'Could not sweep an upload'),
    );
  }
  if (removed > 0) logger.info({ dir, removed }, `Removed ${removed} orphaned upload(s)`);
  return removed;
}
