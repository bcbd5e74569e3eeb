import { graphql } from '@parley/transport/graphql';
import { useState } from 'preact/hooks';
import { AuthFieldsForm } from './AuthFieldsForm';
import type { PopupEnv } from './PopupEnv';
import { emailProblem } from './validateAccount';

/** Asks for a password-reset email. */
export const REQUEST_PASSWORD_RESET = graphql(`
  mutation RequestPasswordReset($input: RequestPasswordResetInput!) {
    requestPasswordReset(input: $input) {
      ok
    }
  }
`);

/** The Forgot password form: Email; then says that a link is on its way. */
export function ForgotForm({ env }: { env: PopupEnv }) {
  const { t, client } = env;
  const [sentTo, setSentTo] = useState<string | null>(null);
  if (sentTo !== null) {
    // The server answers the same for every address, so neither does this say who has an account.
    return (
      <p class="parley-notice" role="status">
        {t('auth.forgot.sent', { email: sentTo })}
      </p>
    );
  }
  return (
    <AuthFieldsForm
      env={env}
      submitLabel={t('auth.submit.forgot')}
      fields={{
        email: { label: t('auth.email'), type: 'email', autoComplete: 'email', rule: emailProblem },
      }}
      request={({ email }) =>
        client.mutation(REQUEST_PASSWORD_RESET, { input: { email: email.trim() } }).toPromise()
      }
      onData={(_data, { email }) => setSentTo(email.trim())}
    />
  );
}
