import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { setAuthNotice } from './authNotice';
import type { SsoEnv, SsoState } from './listenForHostSso';
import { isTokenCode } from './signOutStaleToken';

// A chunk of its own: listenForHostSso fetches it on the host's first `login`.

/** Exchanges a host's SSO token for a Parley token. */
export const SIGN_IN_WITH_SSO = graphql(
  `mutation SignInWithSso($input:SsoSignInInput!){signInWithSso(input:$input){token}}`,
);

/**
 * Exchanges the host's `token` for a Parley token and signs in with it, unless a later `login`
 * or `logout` (a newer `own.attempt`) has superseded `attempt`. A refused token sends
 * `tokenExpired` to the host, which may refresh it, and tells the reader.
 */
export async function exchangeSsoToken(
  { bridge, session, transport, t, params }: SsoEnv,
  own: SsoState,
  token: string,
  attempt: number,
): Promise<void> {
  const exchange = () =>
    // The frame's language goes too: the reader's emails follow it.
    transport.client
      .mutation(SIGN_IN_WITH_SSO, { input: { token, locale: params.locale } })
      .toPromise();
  // A stale stored Parley token is still sent with the request, and the server refuses the
  // whole request for it before looking at the host's token.
  await session.ready;
  const hadToken = session.getToken() !== null;
  let answer = await exchange();
  if (attempt !== own.attempt) return;
  let code = answer.error && toTransportError(answer.error).code;
  if (hadToken && isTokenCode(code)) {
    // Ambiguous: ours or the host's. Drop ours and ask once more; the second answer is about
    // the host's token alone.
    await session.signOut();
    answer = await exchange();
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
}
