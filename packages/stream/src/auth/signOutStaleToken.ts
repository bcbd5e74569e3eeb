import { isTransportError } from '@parley/transport';
import type { ErrorCode } from '@parley/transport';
import type { StreamEnv } from '../StreamContext';
import { setAuthNotice } from './authNotice';

/** True for the codes that mean "this token is no longer good": expired, or revoked/unknown. */
export function isTokenCode(
  code: ErrorCode | undefined,
): code is 'TOKEN_EXPIRED' | 'TOKEN_INVALID' {
  return code === 'TOKEN_EXPIRED' || code === 'TOKEN_INVALID';
}

/**
 * When `error` says the stored Parley token is expired or invalid, forgets it and tells the reader
 * to sign in again; returns true then. For any query or mutation made with the session's token.
 *
 * The server refuses the whole request for a bad token (it builds the viewer before resolving
 * anything), so the stream's root query fails and the auth bar is never rendered to notice: the
 * caller that sees the error calls this, and the stream remounts signed out.
 */
export function signOutStaleToken(env: Pick<StreamEnv, 'session'>, error: unknown): boolean {
  if (!isTransportError(error) || !isTokenCode(error.code)) return false;
  if (env.session.getToken() === null) return false;
  setAuthNotice(env.session, { key: `error.${error.code}` });
  void env.session.signOut();
  return true;
}
