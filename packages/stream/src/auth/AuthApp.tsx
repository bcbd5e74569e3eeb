import { useEffect, useState } from 'preact/hooks';
import type { TransportError } from '@parley/transport';
import { ForgotForm } from './ForgotForm';
import { handOverConnection, handOverToken } from './handOverToken';
import type { AuthMode } from './openAuthPopup';
import type { PopupEnv } from './PopupEnv';
import { ProviderButtons } from './ProviderButtons';
import { ProviderFinish } from './ProviderFinish';
import { SignInForm } from './SignInForm';
import { SignUpForm } from './SignUpForm';
import { SignUpLinkFinish } from './SignUpLinkFinish';

/** Reads the popup's mode from its `?mode=`; Sign in for anything else. */
export function toAuthMode(value: string | null): AuthMode {
  return value === 'signup' || value === 'forgot' ? value : 'signin';
}

/**
 * The sign-in popup: Sign in, Sign up and Forgot password, switchable. A token is handed to the
 * frame that opened the popup, which then closes; opened directly, it says the reader is signed in.
 */
export function AuthApp({
  env,
  mode: initialMode,
  providerCode,
  providerError,
  connectCode,
  signUpLink,
}: {
  env: PopupEnv;
  mode: AuthMode;
  /** Back from a provider: the code to redeem (`?provider_code=`). */
  providerCode?: string | null;
  /** Back from a provider with its coded error (`?error=`), shown over the forms. */
  providerError?: TransportError | null;
  /** Back from a provider the profile asked to connect (`?connect_code=`): for the frame. */
  connectCode?: string | null;
  /** Opened from the sign-up email's link (`#sign-up=…&code=…`): finish that sign-up. */
  signUpLink?: { email: string; code: string } | null;
}) {
  const { t } = env;
  const [mode, setMode] = useState(initialMode);
  // The frame that asked for a connection finishes it; with no such frame, nothing is connected.
  // Set when there is no frame to hand over to (opened directly, or the frame is gone): the
  // token's case says so; a connection's, that nothing was connected.
  const [orphaned, setOrphaned] = useState<'token' | 'connection' | null>(() =>
    connectCode != null && !handOverConnection(env.window, connectCode) ? 'connection' : null,
  );
  const [finishing, setFinishing] = useState(providerCode ?? null);
  const [error, setError] = useState(providerError ?? null);
  const title = t(`auth.title.${mode}`);
  useEffect(() => {
    env.window.document.title = title;
  }, [env, title]);

  if (orphaned !== null) {
    return (
      <p class="parley-notice" role="status">
        {t(orphaned === 'token' ? 'auth.done' : 'auth.provider.orphaned')}
      </p>
    );
  }
  const onToken = (token: string) => {
    if (!handOverToken(env.window, token)) setOrphaned('token');
  };
  const switchTo = (next: AuthMode, label: string) =>
    mode !== next && (
      <button type="button" class="parley-link" onClick={() => setMode(next)}>
        {label}
      </button>
    );
  if (signUpLink) {
    return (
      <>
        <h1>{t('auth.title.signup')}</h1>
        <SignUpLinkFinish env={env} email={signUpLink.email} code={signUpLink.code} />
      </>
    );
  }
  if (finishing !== null) {
    return (
      <>
        <h1>{title}</h1>
        <ProviderFinish
          env={env}
          code={finishing}
          onToken={onToken}
          onRestart={(failure) => {
            setError(failure);
            setFinishing(null);
          }}
        />
      </>
    );
  }
  return (
    <>
      <h1>{title}</h1>
      {error && (
        <p class="parley-auth-error" role="alert">
          {t(`error.${error.code}`)}
        </p>
      )}
      {mode !== 'forgot' && <ProviderButtons env={env} />}
      {mode === 'signin' && <SignInForm env={env} onToken={onToken} />}
      {mode === 'signup' && <SignUpForm env={env} onToken={onToken} />}
      {mode === 'forgot' && <ForgotForm env={env} />}
      <p class="parley-auth-switch">
        {switchTo('signin', t('auth.switch.signin'))}
        {switchTo('signup', t('auth.switch.signup'))}
        {mode === 'signin' && switchTo('forgot', t('auth.switch.forgot'))}
      </p>
    </>
  );
}
