import { graphql } from '@parley/transport/graphql';
import { useMutation, useQuery } from '@urql/preact';
import { useState } from 'preact/hooks';
import { useStreamEnv } from '../StreamContext';
import { ActionStatus } from '../panels/ActionStatus';
import { PanelSection } from '../panels/PanelSection';
import { useAction } from '../panels/useAction';
import { REDEEM_PROVIDER_SIGN_IN, SIGN_IN_PROVIDERS } from '../auth/providerDocuments';
import { POPUP_WINDOW_NAME } from '../auth/defaults';
import { popupFeatures, waitForPopup } from '../auth/openAuthPopup';

/** The URL that connects a provider to the viewer's account, opened in the sign-in popup. */
export const START_PROVIDER_CONNECTION = graphql(`
  mutation StartProviderConnection($input: StartProviderConnectionInput!) {
    startProviderConnection(input: $input) {
      url
    }
  }
`);

/** Disconnects one of the viewer's providers. */
export const DISCONNECT_PROVIDER = graphql(`
  mutation DisconnectProvider($input: DisconnectProviderInput!) {
    disconnectProvider(input: $input) {
      user {
        id
      }
    }
  }
`);

/** A connected provider as the profile lists it. */
export interface ConnectedProvider {
  id: string;
  email: string | null;
  provider: { id: string; name: string };
}

/** Props of {@link SignInProviders}. */
export interface SignInProvidersProps {
  /** The viewer's connected providers. */
  connected: readonly ConnectedProvider[];
  /** Whether the account has a password (else its last provider cannot go). */
  hasPassword: boolean;
  /** Reads the profile again (after the popup connected one). */
  onChanged(): void;
}

/**
 * Sign-in providers: those connected (with "Disconnect", except the last way to sign in) and
 * those the site offers besides ("Connect GitHub"), which go through the provider in the
 * sign-in popup. The popup holds no token: the server gives this frame a one-time URL for it.
 */
export function SignInProviders({ connected, hasPassword, onChanged }: SignInProvidersProps) {
  const { t, params, window: win } = useStreamEnv();
  const storyURL = params.storyURL ?? '';
  const [offered] = useQuery({
    query: SIGN_IN_PROVIDERS,
    variables: { storyURL },
    pause: storyURL === '',
  });
  const [, start] = useMutation(START_PROVIDER_CONNECTION);
  const [, disconnect] = useMutation(DISCONNECT_PROVIDER);
  const [, redeem] = useMutation(REDEEM_PROVIDER_SIGN_IN);
  const [blocked, setBlocked] = useState(false);
  // Two steps, two outcomes: the URL asked for (said only when refused), then the connection.
  const connecting = useAction();
  const finishing = useAction();
  const removing = useAction();
  const mine = new Set(connected.map((c) => c.provider.id));
  const others = (offered.data?.signInProviders ?? []).filter((p) => !mine.has(p.id));
  if (connected.length === 0 && others.length === 0) return null;
  const lastWay = !hasPassword && connected.length === 1;

  const connect = (providerId: string) => {
    // Opened now, in the click (a popup opened after an await is blocked), and sent on below.
    const popup = win.open('about:blank', POPUP_WINDOW_NAME, popupFeatures(win));
    setBlocked(popup === null);
    if (popup === null) return;
    void connecting
      .run(() => start({ input: { providerId, storyURL } }))
      .then((data) => {
        if (data === undefined) return popup.close();
        const url = new URL(data.startProviderConnection.url);
        url.searchParams.set('locale', params.locale);
        url.searchParams.set('theme', params.theme);
        popup.location.href = url.href;
        // Back from the provider, the popup hands this frame a one-time code, which it redeems
        // signed in (the popup holds no token, and a code redeemed by anyone else connects
        // nothing).
        waitForPopup(win, popup, 'providerConnect', ({ code }) => {
          void finishing.run(() => redeem({ input: { code } })).then((done) => done && onChanged());
        });
      });
  };

  return (
    <PanelSection title={t('profile.providers.title')}>
      <ul class="parley-sessions" aria-label={t('profile.providers.title')}>
        {connected.map((c) => (
          <li key={c.id}>
            <span>
              {c.provider.name}
              {c.email !== null && ` · ${c.email}`}
            </span>{' '}
            {!lastWay && (
              <button
                type="button"
                class="parley-link"
                disabled={removing.busy}
                aria-label={t('profile.providers.disconnectOne', { name: c.provider.name })}
                onClick={() =>
                  void removing
                    .run(() => disconnect({ input: { identityId: c.id } }))
                    .then((done) => done && onChanged())
                }
              >
                {t('profile.providers.disconnect')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {lastWay && <p>{t('profile.providers.lastWay')}</p>}
      <ActionStatus state={removing.state} success={t('profile.providers.disconnected')} />
      {others.map((p) => (
        <button
          key={p.id}
          type="button"
          disabled={connecting.busy || finishing.busy}
          onClick={() => connect(p.id)}
        >
          {t('profile.providers.connect', { name: p.name })}
        </button>
      ))}
      {blocked && (
        <p class="parley-notice" role="alert">
          {t('auth.notice.popupBlocked')}
        </p>
      )}
      <ActionStatus state={connecting.state} success="" />
      <ActionStatus state={finishing.state} success={t('profile.providers.connected')} />
    </PanelSection>
  );
}
