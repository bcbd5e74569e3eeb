import { toTransportError } from '@parley/transport';
import type { CombinedError } from 'urql';
import type { ErrorCode } from '@parley/transport';

/**
 * The code of a failed operation. An answer with neither data nor an error breaks the schema's
 * promise (non-null payloads), so it counts as BAD_RESPONSE rather than as success.
 */
export function errorCodeOf(error: CombinedError | undefined): ErrorCode {
  return error ? toTransportError(error).code : 'BAD_RESPONSE';
}
