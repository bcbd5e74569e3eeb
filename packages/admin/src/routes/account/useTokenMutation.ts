import { useRef, useState } from 'react';
import { useMutation } from 'urql';
import type { TypedDocumentNode } from 'urql';
import type { ErrorCode } from '@parley/transport';
import { errorCodeOf } from '../../errorCodeOf';
import { useLinkToken } from './useLinkToken';

/** Where an emailed link's action stands. */
export type TokenActionState<Data> =
  /** The link cannot work: no token (null), or the server refused it. Nothing left to try. */
  | { kind: 'dead'; code: 'TOKEN_EXPIRED' | 'TOKEN_INVALID' | null }
  | { kind: 'ready' }
  | { kind: 'sending' }
  | { kind: 'done'; data: Data }
  | { kind: 'failed'; code: ErrorCode };

/**
 * Runs `mutation` with the emailed link's token as `input.token` (plus `extra` input fields).
 * The tokens are single-use, so a second run while one is under way is ignored; a failed run may
 * be repeated (a network error did not use the token).
 */
export function useTokenMutation<Data, Input extends { token: string }>(
  mutation: TypedDocumentNode<Data, { input: Input }>,
): [TokenActionState<Data>, (extra: Omit<Input, 'token'>) => Promise<void>] {
  const token = useLinkToken();
  const [, execute] = useMutation(mutation);
  const [state, setState] = useState<TokenActionState<Data>>(
    token === null ? { kind: 'dead', code: null } : { kind: 'ready' },
  );
  const busy = useRef(false);

  async function run(extra: Omit<Input, 'token'>) {
    if (token === null || busy.current) return;
    busy.current = true;
    setState({ kind: 'sending' });
    // The extra fields and the token are the whole input; TypeScript cannot see that of a generic.
    const result = await execute({ input: { ...extra, token } as Input });
    busy.current = false;
    const code = errorCodeOf(result.error);
    if (result.data) setState({ kind: 'done', data: result.data });
    else if (code === 'TOKEN_EXPIRED' || code === 'TOKEN_INVALID') setState({ kind: 'dead', code });
    // Other failures (network, server) did not use the token: the page offers to try again.
    else setState({ kind: 'failed', code });
  }

  return [state, run];
}
