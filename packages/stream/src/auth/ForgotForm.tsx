import { gql } from '@urql/core';
import { useState } from 'preact/hooks';
import { AuthForm } from './AuthForm';
import { Field } from './Field';
import type { PopupEnv } from './PopupEnv';
import { useAuthFields } from './useAuthFields';
import { useAuthSubmit } from './useAuthSubmit';
import { emailProblem } from './validateAccount';

/** Asks for a password-reset email. */
export const REQUEST_PASSWORD_RESET = gql`
  mutation RequestPasswordReset($input: RequestPasswordResetInput!) {
    requestPasswordReset(input: $input) {
      ok
    }
  }
`;

/** The Forgot password form: Email; then says that a link is on its way. */
export function ForgotForm({ env }: { env: PopupEnv }) {
  const { t, client } = env;
  const fields = useAuthFields(env.window, t, { email: emailProblem });
  const submit = useAuthSubmit();
  const [sentTo, setSentTo] = useState<string | null>(null);
  if (sentTo !== null) {
    // The server answers the same for every address, so neither does this say who has an account.
    return (
      <p class="parley-notice" role="status">
        {t('auth.forgot.sent', { email: sentTo })}
      </p>
    );
  }
  const send = () => {
    if (!fields.check()) return;
    const email = fields.values.email.trim();
    void submit.run(
      () => client.mutation(REQUEST_PASSWORD_RESET, { input: { email } }).toPromise(),
      () => setSentTo(email),
    );
  };
  return (
    <AuthForm
      env={env}
      submitLabel={t('auth.submit.forgot')}
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
    </AuthForm>
  );
}
