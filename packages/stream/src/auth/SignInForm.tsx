import { gql } from '@urql/core';
import { AuthForm } from './AuthForm';
import { Field } from './Field';
import type { AuthFormProps } from './PopupEnv';
import { useAuthFields } from './useAuthFields';
import { useAuthSubmit } from './useAuthSubmit';
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
  const fields = useAuthFields(env.window, t, { email: emailProblem, password: passwordProblem });
  const submit = useAuthSubmit();
  const send = () => {
    if (!fields.check()) return;
    const { email, password } = fields.values;
    void submit.run(
      () =>
        client
          .mutation<{ signIn: { token: string } }>(SIGN_IN, {
            input: { email: email.trim(), password },
          })
          .toPromise(),
      (data) => onToken(data.signIn.token),
    );
  };
  return (
    <AuthForm
      env={env}
      submitLabel={t('auth.signIn')}
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
        {...fields.field('password')}
        label={t('auth.password')}
        type="password"
        autoComplete="current-password"
      />
    </AuthForm>
  );
}
