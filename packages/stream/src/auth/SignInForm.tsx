import { graphql } from '@parley/transport/graphql';
import { signInWithDevice } from '@parley/transport/sign-in';
import { AuthFieldsForm } from './AuthFieldsForm';
import type { AuthFormProps } from './PopupEnv';
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
      // A device this account signed in on before goes straight through; an unknown one may
      // have a challenge to answer, which happens while the button shows the form as busy.
      request={(credentials) =>
        signInWithDevice(credentials, (input) => client.mutation(SIGN_IN, { input }).toPromise())
      }
      onData={(data) => onToken(data.signIn.token)}
    />
  );
}
