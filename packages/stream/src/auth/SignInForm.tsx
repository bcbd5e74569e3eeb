import { useState } from 'preact/hooks';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { signInWithDevice } from '@parley/transport/sign-in';
import { AuthFieldsForm } from './AuthFieldsForm';
import type { AuthFormProps } from './PopupEnv';
import { SecondFactorForm } from './SecondFactorForm';
import { emailProblem, passwordProblem } from './validateAccount';

/** Signs in with email and password. */
export const SIGN_IN = graphql(`
  mutation SignIn($input: SignInInput!) {
    signIn(input: $input) {
      token
      deviceToken
    }
  }
`);

/**
 * The Sign in form: Email, Password; then, for an account with two-factor sign-in (staff), the
 * code from its authenticator app.
 */
export function SignInForm({ env, onToken }: AuthFormProps) {
  const { t, client } = env;
  const [second, setSecond] = useState<{ email: string; ticket: string } | null>(null);
  if (second !== null) {
    return (
      <SecondFactorForm
        env={env}
        ticket={second.ticket}
        email={second.email}
        onToken={onToken}
        onRestart={() => setSecond(null)}
      />
    );
  }
  return (
    <AuthFieldsForm
      env={env}
      submitLabel={t('auth.signIn')}
      fields={{
        email: { label: t('auth.email'), type: 'email', autoComplete: 'email', rule: emailProblem },
        password: {
          label: t('auth.password'),
          type: 'password',
          autoComplete: 'current-password',
          rule: passwordProblem,
        },
      }}
      // A device this account signed in on before goes straight through; an unknown one may
      // have a challenge to answer, which happens while the button shows the form as busy.
      request={async (credentials) => {
        const result = await signInWithDevice(credentials, (input) =>
          client.mutation(SIGN_IN, { input: { ...input, locale: env.locale } }).toPromise(),
        );
        const error = result.error && toTransportError(result.error);
        const ticket = error?.extensions['ticket'];
        if (error?.code === 'TWO_FACTOR_CODE_REQUIRED' && typeof ticket === 'string') {
          setSecond({ email: credentials.email, ticket });
        }
        return result;
      }}
      onData={(data) => onToken(data.signIn.token)}
    />
  );
}
