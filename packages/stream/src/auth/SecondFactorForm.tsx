import { rememberDevice } from '@parley/transport/sign-in';
import { graphql } from '@parley/transport/graphql';
import { AuthFieldsForm } from './AuthFieldsForm';
import type { PopupEnv } from './PopupEnv';

/** The second step of an account with two-factor sign-in: the app's code, or a recovery code. */
export const SIGN_IN_SECOND_FACTOR = graphql(`
  mutation SignInSecondFactor($input: SecondFactorInput!) {
    signInSecondFactor(input: $input) {
      token
      deviceToken
    }
  }
`);

/** Props of {@link SecondFactorForm}. */
export interface SecondFactorFormProps {
  env: PopupEnv;
  /** The ticket the first step earned (five minutes, once). */
  ticket: string;
  /** The address signed in with, to remember this device for (none after a provider). */
  email: string | null;
  onToken(token: string): void;
  /** Back to the first step (the ticket expired, or the reader gave up). */
  onRestart(): void;
}

/**
 * The code from the authenticator app, after a right password or a provider's sign-in of an
 * account with two-factor sign-in (staff): the provider never skips it.
 */
export function SecondFactorForm({
  env,
  ticket,
  email,
  onToken,
  onRestart,
}: SecondFactorFormProps) {
  const { t, client } = env;
  return (
    <>
      <p class="parley-notice" role="status">
        {t('error.TWO_FACTOR_CODE_REQUIRED')}
      </p>
      <AuthFieldsForm
        env={env}
        submitLabel={t('auth.submit.confirm')}
        fields={{
          code: {
            label: t('auth.code'),
            type: 'text',
            autoComplete: 'one-time-code',
            rule: (value) =>
              value.trim() === '' ? { key: 'error.TWO_FACTOR_CODE_REQUIRED' } : undefined,
          },
        }}
        request={({ code }) =>
          client
            .mutation(SIGN_IN_SECOND_FACTOR, { input: { ticket, code, locale: env.locale } })
            .toPromise()
        }
        onData={(data) => {
          if (email !== null) rememberDevice(email, data.signInSecondFactor.deviceToken);
          onToken(data.signInSecondFactor.token);
        }}
      />
      {/* The ticket lasts five minutes: past it, the first step again. */}
      <button type="button" class="parley-link" onClick={onRestart}>
        {t('auth.signUp.restart')}
      </button>
    </>
  );
}
