import { gql } from '@urql/core';
import { AuthFieldsForm } from './AuthFieldsForm';
import type { AuthFormProps } from './PopupEnv';
import { emailProblem, newPasswordProblem, usernameProblem } from './validateAccount';

/** Creates an account and signs it in. */
export const SIGN_UP = gql`
  mutation SignUp($input: SignUpInput!) {
    signUp(input: $input) {
      token
    }
  }
`;

/** The Sign up form: Email, Username, Password. */
export function SignUpForm({ env, onToken }: AuthFormProps) {
  const { t, client } = env;
  return (
    <AuthFieldsForm
      env={env}
      submitLabel={t('auth.signUp')}
      fields={{
        email: { label: t('auth.email'), type: 'email', autoComplete: 'email', rule: emailProblem },
        username: {
          label: t('auth.username'),
          type: 'text',
          autoComplete: 'username',
          rule: usernameProblem,
        },
        password: {
          label: t('auth.password'),
          type: 'password',
          autoComplete: 'new-password',
          rule: newPasswordProblem,
        },
      }}
      request={({ email, username, password }) =>
        client
          .mutation<{ signUp: { token: string } }>(SIGN_UP, {
            // The password goes as typed: spaces are legitimate in a passphrase.
            input: { email: email.trim(), username: username.trim(), password },
          })
          .toPromise()
      }
      onData={(data) => onToken(data.signUp.token)}
    />
  );
}
