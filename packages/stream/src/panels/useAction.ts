import { useState } from 'preact/hooks';
import type { OperationResult } from '@urql/core';
import { toTransportError } from '@parley/transport';
import type { ErrorCode, TransportError } from '@parley/transport';
import type { MessageVars } from '../i18n/createTranslator';

/** Where a form's last submission stands. */
export type ActionState =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'done' }
  | {
      status: 'failed';
      code: ErrorCode;
      vars: MessageVars;
      /** The input field the server named (`extensions.field`), to say it there. */
      field?: string;
    };

/** What {@link useAction} returns. */
export interface Action {
  /** The last submission's state. */
  state: ActionState;
  /** True while a submission is on its way (buttons are disabled meanwhile). */
  busy: boolean;
  /**
   * Sends a mutation and records the outcome: its data on success, `undefined` on a coded error
   * (the code is kept in `state` for {@link ActionStatus}).
   */
  run<T>(send: () => Promise<OperationResult<T>>): Promise<T | undefined>;
  /** Back to idle (hides the last message). */
  reset(): void;
}

/**
 * Tracks one form's mutation: busy, done or failed with a code. Errors are kept as codes only,
 * so the text shown comes from the catalog and nothing ever branches on a server's wording.
 */
export function useAction(): Action {
  const [state, setState] = useState<ActionState>({ status: 'idle' });
  return {
    state,
    busy: state.status === 'busy',
    async run<T>(send: () => Promise<OperationResult<T>>) {
      setState({ status: 'busy' });
      const result = await send();
      if (result.error) {
        const error = toTransportError(result.error);
        const field = error.extensions.field;
        setState({
          status: 'failed',
          code: error.code,
          vars: errorVars(error),
          ...(typeof field === 'string' ? { field } : {}),
        });
        return undefined;
      }
      setState({ status: 'done' });
      return result.data;
    },
    reset: () => setState({ status: 'idle' }),
  };
}

/** The placeholders of coded messages (`{seconds}` of RATE_LIMITED), from the error's extensions. */
function errorVars(error: TransportError): MessageVars {
  const seconds = error.extensions.retryAfterSeconds;
  return typeof seconds === 'number' ? { seconds, count: seconds } : {};
}
