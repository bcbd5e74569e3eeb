import { useEffect, useState } from 'preact/hooks';
import { graphql } from '@parley/transport/graphql';
import { useAuthNotice } from './auth/authNotice';
import { listenForHostSso } from './auth/listenForHostSso';
import { openAuthPopup } from './auth/openAuthPopup';
import { SIGN_OUT_WAIT_MS } from './auth/defaults';
import { useStreamData, useStreamEnv } from './StreamContext';

/** Ends the session on the server too (best effort: tokens are bearer tokens, the frame forgets it). */
export const SIGN_OUT = graphql(`mutation SignOut{signOut{ok}}`);

/**
 * Who is reading, at the top of the stream: Sign in / Sign up (through the popup) or the signed-in
 * name and Sign out; a banned or suspended reader's standing; notices about signing in. It also
 * listens to the host's SSO `login` / `logout` while it is mounted.
 */
export function AuthBar() {
  const env = useStreamEnv();
  const { t, session, bridge, transport, params } = env;
  const { viewer, settings } = useStreamData();
  const notice = useAuthNotice(session);
  const [signingOut, setSigningOut] = useState(false);

  // Re-registers on every remount. The host's first `login` (its answer to `ready`) comes while
  // the root query runs and this bar is not yet mounted, so the frame's mount should register too
  // (registrations share one listener; see listenForHostSso).
  useEffect(() => listenForHostSso(env), [env]);

  const signOut = async () => {
    setSigningOut(true);
    // Best effort, and not waited for long: a slow or failed call must not keep the reader
    // signed in on this device (the token is a bearer token; forgetting it is what signs out).
    let timer: number | undefined;
    await Promise.race([
      transport.client.mutation(SIGN_OUT, {}).toPromise(),
      new Promise((resolve) => (timer = env.window.setTimeout(resolve, SIGN_OUT_WAIT_MS))),
    ]);
    env.window.clearTimeout(timer);
    await session.signOut();
    bridge.send('event', { name: 'signedOut' });
  };

  let standing: string | null = null;
  if (viewer?.status === 'BANNED') standing = t('error.USER_BANNED');
  else if (viewer?.status === 'SUSPENDED') {
    standing = viewer.suspendedUntil
      ? t('error.USER_SUSPENDED', {
          until: new Intl.DateTimeFormat(params.locale, {
            dateStyle: 'long',
            timeStyle: 'short',
          }).format(new Date(viewer.suspendedUntil)),
        })
      : t('auth.suspended');
  }

  return (
    <div class="parley-authbar">
      {viewer ? (
        <>
          <span class="parley-authbar-name">
            {t(viewer.isGuest ? 'auth.guestAs' : 'auth.signedInAs', { username: viewer.username })}
          </span>
          <button type="button" onClick={() => void signOut()} disabled={signingOut}>
            {t('auth.signOut')}
          </button>
        </>
      ) : (
        <>
          <button type="button" class="parley-primary" onClick={() => openAuthPopup(env, 'signin')}>
            {t('auth.signIn')}
          </button>
          {settings.signUpOpen && (
            <button type="button" onClick={() => openAuthPopup(env, 'signup')}>
              {t('auth.signUp')}
            </button>
          )}
        </>
      )}
      {standing !== null && (
        <p class="parley-notice parley-authbar-standing" role="status">
          {standing}
        </p>
      )}
      {notice && (
        <p class="parley-authbar-notice" role="alert">
          {t(notice.key, notice.vars)}
        </p>
      )}
    </div>
  );
}
