import { gql } from '@urql/core';
import { AuthForm } from './AuthForm';
import { Field } from './Field';
import type { AuthFormProps } from './PopupEnv';
import { useAuthFields } from './useAuthFields';
import { useAuthSubmit } from './useAuthSubmit';
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
  const fields = useAuthFields(env.window, t, {
    email: emailProblem,
    username: usernameProblem,
    password: newPasswordProblem,
  });
  const submit = useAuthSubmit();
  const send = () => {
    if (!fields.check()) return;
    const { email, username, password } = fields.values;
    void submit.run(
      () =>
        client
          .mutation<{ signUp: { token: string } }>(SIGN_UP, {
            // The password goes as typed: spaces are legitimate in a passphrase.
            input: { email: email.trim(), username: username.trim(), password },
          })
          .toPromise(),
      (data) => onToken(data.signUp.token),
    );
  };
  return (
    <AuthForm
      env={env}
      submitLabel={t('auth.signUp')}
      busy={submit.busy}
      error={submit.error}
      onSubmit={send}
    >
      <Field
        {...fields.field('email')}
        label={t('auth.email')}
        type="email"
        autoComplete="email"
        autoFocus
      />
      <Field
        {...fields.field('username')}
        label={t('auth.username')}
        type="text"
        autoComplete="username"
      />
      <Field
        {...fields.field('password')}
        label={t('auth.password')}
        type="password"
        autoComplete="new-password"
      />
    </AuthForm>
  );
}
