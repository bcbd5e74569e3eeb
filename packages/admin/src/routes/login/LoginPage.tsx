import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '@parley/transport/graphql';
import { toTransportError } from '@parley/transport';
import { rememberDevice, signInWithDevice } from '@parley/transport/sign-in';
import { useLocation } from 'wouter';
import { useConsoleEnv } from '../../ConsoleContext';
import { useErrorText } from '../../errorText';
import { Field } from '../../Field';
import { useI18n, useT } from '../../i18n';
import { errorCodeOf } from '../../errorCodeOf';
import { ForgotPassword } from './ForgotPassword';

/** Signs in with email and password; the answer's token becomes the console's session. */
export const SIGN_IN_MUTATION = graphql(`
  mutation ConsoleSignIn($input: SignInInput!) {
    signIn(input: $input) { token deviceToken user { id role } }
  }
`);

/** The second step of a sign-in with two-factor sign-in on: the app's code or a recovery code. */
export const SECOND_FACTOR_MUTATION = graphql(`
  mutation ConsoleSignInSecondFactor($input: SecondFactorInput!) {
    signInSecondFactor(input: $input) { token deviceToken user { id role } }
  }
`);

/** `/admin/login`: email and password, and the way to a password reset. */
export function LoginPage() {
  const { session } = useConsoleEnv();
  const [, navigate] = useLocation();
  const [, signIn] = useMutation(SIGN_IN_MUTATION);
  // After a right password, for an account with two-factor sign-in: the code's step.
  const [ticket, setTicket] = useState<string | null>(null);
  // Busy across a whole sign-in, challenge rounds included (see signInWithDevice).
  const [fetching, setFetching] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState<{ email?: string; password?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [forgot, setForgot] = useState(false);
  const forgotButton = useRef<HTMLButtonElement>(null);
  const forgotWasOpen = useRef(false);
  const { locale } = useI18n();
  const t = useT();
  const errorText = useErrorText();

  // Closing the reset panel removes the control that had focus: focus returns to the button
  // that opened it, so keyboard users continue where they were.
  useEffect(() => {
    if (!forgot && forgotWasOpen.current) forgotButton.current?.focus();
    forgotWasOpen.current = forgot;
  }, [forgot]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (fetching) return;
    const next = {
      email: email.trim() === '' ? t('console.login.enterEmail') : undefined,
      password: password === '' ? t('console.login.enterPassword') : undefined,
    };
    setMissing(next);
    if (next.email || next.password) return;
    setFailure(null);
    setFetching(true);
    // A browser this account signed in on before is remembered; an unknown one may have to
    // answer a challenge while the account is being guessed at, which happens here unseen.
    // The console's language goes too: the account's emails follow it.
    const result = await signInWithDevice({ email, password }, (input) =>
      signIn({ input: { ...input, locale } }),
    );
    setFetching(false);
    if (!result.data) {
      const error = result.error && toTransportError(result.error);
      const second = error?.extensions['ticket'];
      if (error?.code === 'TWO_FACTOR_CODE_REQUIRED' && typeof second === 'string') {
        setTicket(second);
        return;
      }
      setFailure(errorText(errorCodeOf(result.error)));
      return;
    }
    await session.signIn(result.data.signIn.token);
    // The guard under /admin checks the role, and tells a commenter why they cannot enter.
    navigate('~/admin');
  }

  if (ticket !== null) {
    return (
      <SecondFactorStep
        ticket={ticket}
        onSignedIn={async (token, deviceToken) => {
          rememberDevice(email, deviceToken);
          await session.signIn(token);
          navigate('~/admin');
        }}
        onRestart={() => {
          setTicket(null);
          setPassword('');
        }}
      />
    );
  }

  return (
    <main className="page narrow auth-page">
      <h1>{t('console.login.title')}</h1>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={t('console.login.email')}
          type="email"
          autoComplete="username"
          value={email}
          error={missing.email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Field
          label={t('console.login.password')}
          type="password"
          autoComplete="current-password"
          value={password}
          error={missing.password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {failure && <p role="alert">{failure}</p>}
        <div className="actions">
          <button type="submit" className="primary" disabled={fetching}>
            {t('console.login.submit')}
          </button>
        </div>
      </form>
      {forgot ? (
        <ForgotPassword initialEmail={email} onClose={() => setForgot(false)} />
      ) : (
        <p>
          <button type="button" className="link" ref={forgotButton} onClick={() => setForgot(true)}>
            {t('console.login.forgot')}
          </button>
        </p>
      )}
    </main>
  );
}

/** The code step of a sign-in: the authenticator app's code, or one of the recovery codes. */
function SecondFactorStep({
  ticket,
  onSignedIn,
  onRestart,
}: {
  ticket: string;
  onSignedIn: (token: string, deviceToken: string | null | undefined) => Promise<void>;
  onRestart: () => void;
}) {
  const [{ fetching }, send] = useMutation(SECOND_FACTOR_MUTATION);
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const { locale } = useI18n();
  const t = useT();
  const errorText = useErrorText();
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (fetching) return;
    if (code.trim() === '') {
      setFailure(t('console.login.secondFactor.enterCode'));
      return;
    }
    const result = await send({ input: { ticket, code, locale } });
    if (!result.data) {
      setFailure(errorText(errorCodeOf(result.error)));
      return;
    }
    const { token, deviceToken } = result.data.signInSecondFactor;
    await onSignedIn(token, deviceToken);
  }
  return (
    <main className="page narrow auth-page">
      <h1>{t('console.login.secondFactor.title')}</h1>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={t('console.login.secondFactor.code')}
          hint={t('console.login.secondFactor.hint')}
          autoComplete="one-time-code"
          autoFocus
          value={code}
          error={failure}
          onChange={(event) => setCode(event.target.value)}
        />
        <div className="actions">
          <button type="submit" className="primary" disabled={fetching}>
            {t('console.login.secondFactor.submit')}
          </button>
        </div>
      </form>
      <p>
        <button type="button" className="link" onClick={onRestart}>
          {t('console.login.secondFactor.restart')}
        </button>
      </p>
    </main>
  );
}
