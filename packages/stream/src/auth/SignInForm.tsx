import { gql } from '@urql/core';
import { AuthFieldsForm } from './AuthFieldsForm';
import type { AuthFormProps } from './PopupEnv';
import { emailProblem, passwordProblem } from './validateAccount';

/** Signs in with email and password. */
export const SIGN_IN = gql`
  mutation SignIn($input: SignInInput!) {
    signIn(input: $input) {
      token
    }
  }
`;

/** The Sign in form: Email, Password. */
export function SignInForm({ env, onToken }: AuthFormProps) {
  const { t, client } = env;
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
      request={({ email, password }) =>
        client
          .mutation<{ signIn: { token: string } }>(SIGN_IN, {
            input: { email: email.trim(), password },
          })
          .toPromise()
      }
      onData={(data) => onToken(data.signIn.token)}
    />
  );
}
