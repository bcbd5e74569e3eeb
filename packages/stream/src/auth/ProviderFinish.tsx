import { useEffect, useState } from 'preact/hooks';
import { TransportError, toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { AuthFieldsForm } from './AuthFieldsForm';
import type { AuthFieldSpec } from './AuthFieldsForm';
import type { PopupEnv } from './PopupEnv';
import { REDEEM_PROVIDER_SIGN_IN } from './providerDocuments';
import { SecondFactorForm } from './SecondFactorForm';
import { passwordProblem } from './validateAccount';
import { useAuthSubmit } from './useAuthSubmit';

/** Connects the provider to the account its address belongs to, with that account's password. */
export const CONNECT_PROVIDER_WITH_PASSWORD = graphql(`
  mutation ConnectProviderWithPassword($input: ConnectProviderWithPasswordInput!) {
    connectProviderWithPassword(input: $input) {
      token
    }
  }
`);

/** Emails the account's address a link that connects the provider. */
export const EMAIL_PROVIDER_LINK = graphql(`
  mutation EmailProviderLink($input: EmailProviderLinkInput!) {
    emailProviderLink(input: $input) {
      email
    }
  }
`);

/** What redeeming came to. */
type Stage =
  | { kind: 'redeeming' }
  | { kind: 'connected'; provider: string }
  | { kind: 'secondFactor'; ticket: string }
  | { kind: 'link'; email: string; provider: string; hasPassword: boolean; needsCode: boolean }
  | { kind: 'emailed'; email: string; provider: string };

/** The link form's fields: the account's password, and its app's code once that is asked. */
function linkFields(t: PopupEnv['t'], needsCode: boolean): Record<string, AuthFieldSpec> {
  const password: AuthFieldSpec = {
    label: t('auth.password'),
    type: 'password',
    autoComplete: 'current-password',
    rule: passwordProblem,
  };
  if (!needsCode) return { password };
  return {
    password,
    secondFactorCode: {
      label: t('auth.code'),
      type: 'text',
      autoComplete: 'one-time-code',
      rule: (value) =>
        value.trim() === '' ? { key: 'error.TWO_FACTOR_CODE_REQUIRED' } : undefined,
    },
  };
}

/** Props of {@link ProviderFinish}. */
export interface ProviderFinishProps {
  env: PopupEnv;
  /** The `provider_code` the server's callback sent the popup back with. */
  code: string;
  onToken(token: string): void;
  /** Back to the popup's forms and buttons (after an error, or to start again). */
  onRestart(error: TransportError | null): void;
}

/**
 * The popup back from a provider: the code is redeemed for a session (handed to the frame), or a
 * two-factor account's code is asked, or — the provider's address being an account's here — that
 * account is proved first: its password, or a link emailed to it.
 */
export function ProviderFinish({ env, code, onToken, onRestart }: ProviderFinishProps) {
  const { t, client } = env;
  const [stage, setStage] = useState<Stage>({ kind: 'redeeming' });
  const emailing = useAuthSubmit();

  useEffect(() => {
    void client
      .mutation(REDEEM_PROVIDER_SIGN_IN, { input: { code } })
      .toPromise()
      .then((result) => {
        const data = result.data?.redeemProviderSignIn;
        if (data?.token) return onToken(data.token);
        if (data?.connectedProvider) {
          return setStage({ kind: 'connected', provider: data.connectedProvider });
        }
        const error = result.error
          ? toTransportError(result.error)
          : new TransportError('BAD_RESPONSE', 'The answer had neither data nor errors.');
        const { ticket, email, provider, hasPassword } = error.extensions;
        if (error.code === 'TWO_FACTOR_CODE_REQUIRED' && typeof ticket === 'string') {
          return setStage({ kind: 'secondFactor', ticket });
        }
        if (
          error.code === 'SIGN_IN_LINK_REQUIRED' &&
          typeof email === 'string' &&
          typeof provider === 'string'
        ) {
          return setStage({
            kind: 'link',
            email,
            provider,
            hasPassword: hasPassword !== false,
            needsCode: false,
          });
        }
        onRestart(error);
      });
    // Once: a code is good once.
  }, []);

  switch (stage.kind) {
    case 'redeeming':
      return (
        <p class="parley-notice" role="status" aria-busy="true">
          {t('auth.provider.finishing')}
        </p>
      );
    case 'connected':
      return (
        <p class="parley-notice" role="status">
          {t('auth.provider.connected', { provider: stage.provider })}
        </p>
      );
    case 'secondFactor':
      return (
        <SecondFactorForm
          env={env}
          ticket={stage.ticket}
          email={null}
          onToken={onToken}
          onRestart={() => onRestart(null)}
        />
      );
    case 'emailed':
      return (
        <p class="parley-notice" role="status">
          {t('auth.link.sent', { email: stage.email, provider: stage.provider })}
        </p>
      );
    case 'link':
      return (
        <>
          <p class="parley-notice" role="status">
            {t('error.SIGN_IN_LINK_REQUIRED', { email: stage.email, provider: stage.provider })}
          </p>
          {stage.hasPassword && (
            <AuthFieldsForm
              // A second form once the code is asked: its fields start again, focused.
              key={stage.needsCode ? 'with-code' : 'password'}
              env={env}
              submitLabel={t('auth.link.submit')}
              fields={linkFields(t, stage.needsCode)}
              request={async (values) => {
                const input = {
                  code,
                  password: values['password'] ?? '',
                  ...(stage.needsCode ? { secondFactorCode: values['secondFactorCode'] } : {}),
                };
                const result = await client
                  .mutation(CONNECT_PROVIDER_WITH_PASSWORD, { input })
                  .toPromise();
                const error = result.error && toTransportError(result.error);
                // A two-factor account: its code too, with the password, before anything is
                // connected.
                if (error?.code === 'TWO_FACTOR_CODE_REQUIRED' && !stage.needsCode) {
                  setStage({ ...stage, needsCode: true });
                }
                return result;
              }}
              onData={(data) => onToken(data.connectProviderWithPassword.token)}
            />
          )}
          <button
            type="button"
            class="parley-link"
            disabled={emailing.busy}
            onClick={() =>
              void emailing.run(
                () => client.mutation(EMAIL_PROVIDER_LINK, { input: { code } }).toPromise(),
                (data) =>
                  setStage({
                    kind: 'emailed',
                    email: data.emailProviderLink.email,
                    provider: stage.provider,
                  }),
              )
            }
          >
            {t('auth.link.email')}
          </button>
          <p class="parley-auth-error" role="alert">
            {emailing.error && t(`error.${emailing.error.code}`)}
          </p>
        </>
      );
  }
}
