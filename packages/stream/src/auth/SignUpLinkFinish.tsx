import { useEffect, useState } from 'preact/hooks';
import { toTransportError, TransportError } from '@parley/transport';
import { rememberDevice } from '@parley/transport/sign-in';
import { handOverToken } from './handOverToken';
import type { PopupEnv } from './PopupEnv';
import { CONFIRM_SIGN_UP } from './SignUpForm';
import { openChannel, SIGN_UP_HANDOVER_WAIT_MS } from './signUpLink';
import type { SignUpMessage } from './signUpLink';

/**
 * The page the sign-up email's link opens: finishes the sign-up with the address and code of the
 * link, then hands the session to the sign-up window waiting in this browser (signUpLink.ts).
 * Says what became of it: signed in there (close this tab), or the account is ready (sign in
 * where you were), or the coded error.
 */
export function SignUpLinkFinish({
  env,
  email,
  code,
}: {
  env: PopupEnv;
  email: string;
  code: string;
}) {
  const { t, client } = env;
  const [state, setState] = useState<'busy' | 'handedOver' | 'ready' | TransportError>('busy');
  useEffect(() => {
    let live = true;
    void client
      .mutation(CONFIRM_SIGN_UP, { input: { email, code } })
      .toPromise()
      .then(async ({ data, error }) => {
        if (!data) {
          if (live) {
            setState(error ? toTransportError(error) : new TransportError('INTERNAL', 'No answer'));
          }
          return;
        }
        const { token, deviceToken } = data.confirmSignUp;
        rememberDevice(email, deviceToken);
        // Opened by a frame (a mail client in a popup?): straight to it.
        if (handOverToken(env.window, token)) return;
        const taken = await handOver(env.window, { type: 'signedUp', email, token, deviceToken });
        if (live) setState(taken ? 'handedOver' : 'ready');
      });
    return () => {
      live = false;
    };
  }, []);
  if (state === 'busy') return <p role="status">{t('auth.signUp.finishing')}</p>;
  if (state === 'handedOver' || state === 'ready') {
    return (
      <p class="parley-notice" role="status">
        {t(state === 'handedOver' ? 'auth.signUp.linkDone' : 'auth.signUp.linkReady')}
      </p>
    );
  }
  return (
    <p class="parley-auth-error" role="alert">
      {t(`error.${state.code}`)}
    </p>
  );
}

/** Offers the session on the channel; true once the sign-up window says it took it. */
function handOver(win: Window, message: SignUpMessage): Promise<boolean> {
  const channel = openChannel(win);
  if (channel === null) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (taken: boolean) => {
      win.clearTimeout(timer);
      channel.close();
      resolve(taken);
    };
    const timer = win.setTimeout(() => done(false), SIGN_UP_HANDOVER_WAIT_MS);
    channel.onmessage = (event: MessageEvent<SignUpMessage>) => {
      if (event.data?.type === 'taken' && event.data.email === message.email) done(true);
    };
    channel.postMessage(message);
  });
}
