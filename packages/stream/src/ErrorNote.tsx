import type { CombinedError } from '@urql/core';
import { toTransportError } from '@parley/transport';
import { describeError } from './describeError';
import { useStreamEnv } from './StreamContext';

/** A failed action's error in the reader's language, by its code, announced where it happened. */
export function ErrorNote({ error }: { error: CombinedError }) {
  return (
    <span class="parley-error" role="alert">
      {describeError(useStreamEnv(), toTransportError(error))}
    </span>
  );
}
