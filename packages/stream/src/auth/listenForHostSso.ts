import { gql } from '@urql/core';
import { toTransportError } from '@parley/transport';
import type { OperationResult } from '@urql/core';
import type { HostBridge } from '../hostBridge';
import type { StreamEnv } from '../StreamContext';
import { setAuthNotice } from './authNotice';
import { isTokenCode } from './signOutStaleToken';

/** Exchanges a host's SSO token for a Parley token. */
export const SIGN_IN_WITH_SSO = gql`
  mutation SignInWithSso($input: SsoSignInInput!) {
    signInWithSso(input: $input) {
      token
    }
  }
`;

interface SsoState {
  /** Registrations alive; the bridge listeners exist while there is at least one. */
  count: number;
  /** Removes the bridge listeners. */
  off: () => void;
  /** Bumped by every login and logout: only the newest one's answer is applied. */
  attempt: number;
  /** The host token behind the current session, so a repeated `login` costs nothing. */
  exchanged: string | null;
}

// Per bridge rather than per call, counted: the auth bar registers on every mount, and when the
// stream remounts (each session change) the new bar's effect runs before the old bar's cleanup
// (Preact defers it). An exchange in flight must also outlive the bar that started it, and still
// be superseded by a later logout.
const states = new WeakMap<HostBridge, SsoState>();

/**
 * Host SSO: `login` from the host exchanges its token for a Parley token, `logout` signs out.
 * A refused token (expired or invalid) sends `tokenExpired` to the host, which may refresh it,
 * and tells the reader. Registrations on one bridge share one pair of listeners, so the frame's
 * mount and the auth bar may both call it; returns the function that ends this registration.
 */
export function listenForHostSso(
  env: Pick<StreamEnv, 'bridge' | 'session' | 'transport' | 't'>,
): () => void {
  const { bridge } = env;
  let state = states.get(bridge);
  if (!state) {
    state = { count: 0, off: () => undefined, attempt: 0, exchanged: null };
    states.set(bridge, state);
  }
  const own = state;
  if (own.count === 0) own.off = attach(env, own);
  own.count += 1;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    own.count -= 1;
    if (own.count === 0) own.off();
  };
}

function attach(
  { bridge, session, transport, t }: Pick<StreamEnv, 'bridge' | 'session' | 'transport' | 't'>,
  own: SsoState,
): () => void {
  type Answer = OperationResult<{ signInWithSso: { token: string } }>;
  const exchange = (token: string): Promise<Answer> =>
    transport.client.mutation(SIGN_IN_WITH_SSO, { input: { token } }).toPromise();

  const login = async (token: string, attempt: number) => {
    // A stale stored Parley token is still sent with the request, and the server refuses the
    // whole request for it before looking at the host's token.
    await session.ready;
    const hadToken = session.getToken() !== null;
    let answer = await exchange(token);
    if (attempt !== own.attempt) return;
    let code = answer.error && toTransportError(answer.error).code;
    if (hadToken && isTokenCode(code)) {
      // Ambiguous: ours or the host's. Drop ours and ask once more; the second answer is about
      // the host's token alone.
      await session.signOut();
      answer = await exchange(token);
      if (attempt !== own.attempt) return;
      code = answer.error && toTransportError(answer.error).code;
    }
    const parleyToken = answer.data?.signInWithSso.token;
    if (parleyToken) {
      own.exchanged = token;
      setAuthNotice(session, null);
      await session.signIn(parleyToken);
    } else if (isTokenCode(code)) {
      bridge.send('tokenExpired', {});
      setAuthNotice(session, {
        key: code === 'TOKEN_EXPIRED' ? 'auth.notice.ssoExpired' : 'auth.notice.ssoInvalid',
      });
    } else {
      setAuthNotice(session, {
        key: 'auth.notice.ssoFailed',
        vars: { reason: t(`error.${code ?? 'BAD_RESPONSE'}`) },
      });
    }
  };

  const offLogin = bridge.on('login', ({ token }) => {
    if (token === own.exchanged && session.getToken() !== null) return;
    own.attempt += 1;
    void login(token, own.attempt);
  });
  const offLogout = bridge.on('logout', () => {
    own.attempt += 1;
    own.exchanged = null;
    // Signing out when already signed out would remount the stream for nothing.
    if (session.getToken() !== null) void session.signOut();
  });
  return () => {
    offLogin();
    offLogout();
  };
}
