import { useEffect, useState } from 'preact/hooks';
import type { TransportError } from '@parley/transport';
import { ForgotForm } from './ForgotForm';
import { handOverToken } from './handOverToken';
import type { AuthMode } from './openAuthPopup';
import type { PopupEnv } from './PopupEnv';
import { ProviderButtons } from './ProviderButtons';
import { ProviderFinish } from './ProviderFinish';
import { SignInForm } from './SignInForm';
import { SignUpForm } from './SignUpForm';

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
}: {
  env: PopupEnv;
  mode: AuthMode;
  /** Back from a provider: the code to redeem (`?provider_code=`). */
  providerCode?: string | null;
  /** Back from a provider with its coded error (`?error=`), shown over the forms. */
  providerError?: TransportError | null;
}) {
  const { t } = env;
  const [mode, setMode] = useState(initialMode);
  const [orphaned, setOrphaned] = useState(false);
  const [finishing, setFinishing] = useState(providerCode ?? null);
  const [error, setError] = useState(providerError ?? null);
  const title = t(`auth.title.${mode}`);
  useEffect(() => {
    env.window.document.title = title;
  }, [env, title]);

  if (orphaned) {
    return (
      <p class="parley-notice" role="status">
        {t('auth.done')}
      </p>
    );
  }
  const onToken = (token: string) => {
    if (!handOverToken(env.window, token)) setOrphaned(true);
  };
  const switchTo = (next: AuthMode, label: string) =>
    mode !== next && (
      <button type="button" class="parley-link" onClick={() => setMode(next)}>
        {label}
      </button>
    );
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
