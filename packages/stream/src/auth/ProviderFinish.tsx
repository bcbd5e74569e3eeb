import { useEffect, useState } from 'preact/hooks';
import { TransportError, toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { AuthFieldsForm } from './AuthFieldsForm';
import type { PopupEnv } from './PopupEnv';
import { SecondFactorForm } from './SecondFactorForm';
import { passwordProblem } from './validateAccount';
import { useAuthSubmit } from './useAuthSubmit';

/** Redeems the one-time code a provider sign-in came back with. */
export const REDEEM_PROVIDER_SIGN_IN = graphql(`
  mutation RedeemProviderSignIn($input: RedeemProviderSignInInput!) {
    redeemProviderSignIn(input: $input) {
      token
      connectedProvider
    }
  }
`);

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
  | { kind: 'link'; email: string; provider: string }
  | { kind: 'emailed'; email: string; provider: string };

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
        const { ticket, email, provider } = error.extensions;
        if (error.code === 'TWO_FACTOR_CODE_REQUIRED' && typeof ticket === 'string') {
          return setStage({ kind: 'secondFactor', ticket });
        }
        if (
          error.code === 'SIGN_IN_LINK_REQUIRED' &&
          typeof email === 'string' &&
          typeof provider === 'string'
        ) {
          return setStage({ kind: 'link', email, provider });
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
          <AuthFieldsForm
            env={env}
            submitLabel={t('auth.link.submit')}
            fields={{
              password: {
                label: t('auth.password'),
                type: 'password',
                autoComplete: 'current-password',
                rule: passwordProblem,
              },
            }}
            request={async ({ password }) => {
              const result = await client
                .mutation(CONNECT_PROVIDER_WITH_PASSWORD, { input: { code, password } })
                .toPromise();
              const error = result.error && toTransportError(result.error);
              const ticket = error?.extensions['ticket'];
              if (error?.code === 'TWO_FACTOR_CODE_REQUIRED' && typeof ticket === 'string') {
                setStage({ kind: 'secondFactor', ticket });
              }
              return result;
            }}
            onData={(data) => onToken(data.connectProviderWithPassword.token)}
          />
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
