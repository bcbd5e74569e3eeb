import type { HostBridge } from '../hostBridge';
import type { StreamEnv } from '../StreamContext';
import { setAuthNotice } from './authNotice';

/** What host SSO needs from the stream's environment. */
export type SsoEnv = Pick<StreamEnv, 'bridge' | 'session' | 'transport' | 't' | 'params'>;

/** The SSO state of one bridge, shared by its registrations. */
export interface SsoState {
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
export function listenForHostSso(env: SsoEnv): () => void {
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

function attach(env: SsoEnv, own: SsoState): () => void {
  const { bridge, session, t } = env;
  const offLogin = bridge.on('login', ({ token }) => {
    if (token === own.exchanged && session.getToken() !== null) return;
    own.attempt += 1;
    const attempt = own.attempt;
    // The exchange is a chunk of its own, fetched on the first `login`: most frames never get one.
    void import('./exchangeSsoToken').then(
      ({ exchangeSsoToken }) => exchangeSsoToken(env, own, token, attempt),
      () =>
        attempt === own.attempt &&
        setAuthNotice(session, {
          key: 'auth.notice.ssoFailed',
          vars: { reason: t('error.NETWORK_ERROR') },
        }),
    );
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
