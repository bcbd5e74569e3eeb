import { gql } from '@urql/core';
import { answeringChallenges, rememberDevice, rememberedDevice } from '@parley/transport/sign-in';
import { AuthFieldsForm } from './AuthFieldsForm';
import type { AuthFormProps } from './PopupEnv';
import { emailProblem, passwordProblem } from './validateAccount';

/** Signs in with email and password. */
export const SIGN_IN = gql`
  mutation SignIn($input: SignInInput!) {
    signIn(input: $input) {
      token
      deviceToken
    }
  }
`;

interface SignInData {
  signIn: { token: string; deviceToken: string | null };
}

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
      // A device this account signed in on before is remembered (its deviceToken); an unknown
      // one may be asked to solve a challenge when the account is being guessed at, which
      // answeringChallenges does while the button shows the form as busy.
      request={({ email, password }) =>
        answeringChallenges((answer) =>
          client
            .mutation<SignInData>(SIGN_IN, {
              input: {
                email: email.trim(),
                password,
                deviceToken: rememberedDevice(email),
                ...answer,
              },
            })
            .toPromise(),
        )
      }
      onData={(data, { email }) => {
        rememberDevice(email, data.signIn.deviceToken);
        onToken(data.signIn.token);
      }}
    />
  );
}
