import { ParleyError } from '../ParleyError';
import type { Logger } from '../runtime/createLogger';

/** Error codes of a write that found no room. */
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);

/**
 * What an upload whose write to `dir` failed throws: `STORAGE_FULL` (and an error in the log)
 * when the disk had no room, else the error itself. The caller has removed what it wrote.
 */
export function uploadWriteFailure(
  error: unknown,
  dir: string,
  logger: Pick<Logger, 'error'>,
): unknown {
  if (!NO_SPACE.has((error as NodeJS.ErrnoException).code ?? '')) return error;
  logger.error({ err: error, dir }, `No space left for uploads in ${dir}`);
  return new ParleyError('STORAGE_FULL', 'The server has no room for the image; try later.', {
    field: 'file',
  });
}
