import { useState } from 'preact/hooks';
import { TransportError, toTransportError } from '@parley/transport';
import type { OperationResult } from '@urql/core';

/** State of a popup form's request: in flight, and the coded error of the last one. */
export interface AuthSubmit {
  /** A request is in flight. */
  busy: boolean;
  /** The last request's error, or null. */
  error: TransportError | null;
  /** Runs a request; `onData` gets its data when it succeeded. */
  run<T>(request: () => Promise<OperationResult<T>>, onData: (data: T) => void): Promise<void>;
}

/** Sends a popup form's mutation and keeps its coded error for the alert next to the form. */
export function useAuthSubmit(): AuthSubmit {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<TransportError | null>(null);
  return {
    busy,
    error,
    async run(request, onData) {
      setBusy(true);
      setError(null);
      const result = await request();
      setBusy(false);
      if (result.error) setError(toTransportError(result.error));
      else if (result.data) onData(result.data);
      else setError(new TransportError('BAD_RESPONSE', 'The answer had neither data nor errors.'));
    },
  };
}
