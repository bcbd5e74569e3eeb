import { useEffect, useState } from 'preact/hooks';
import type { PopupEnv } from './PopupEnv';
import { SIGN_IN_PROVIDERS } from './providerDocuments';

/** Where a provider's button sends the popup: the server starts the flow there. */
function providerStartUrl(
  win: Pick<Window, 'location'>,
  providerId: string,
  origin: NonNullable<PopupEnv['origin']>,
): string {
  const query = new URLSearchParams(origin);
  return `${win.location.origin}/auth/providers/${encodeURIComponent(providerId)}/start?${query}`;
}

/**
 * "Continue with GitHub", … one button per provider the site has on, above the forms. The popup
 * itself goes to the provider and comes back (a top window: its cookies are first-party), then
 * hands the token to the frame as the forms do.
 */
export function ProviderButtons({ env }: { env: PopupEnv }) {
  const { t, client, origin } = env;
  const [providers, setProviders] = useState<{ id: string; name: string }[]>([]);
  useEffect(() => {
    if (origin === undefined) return;
    void client
      .query(SIGN_IN_PROVIDERS, { storyURL: origin.story })
      .toPromise()
      // Without the list (an outage), the forms still work: no buttons, no error.
      .then((result) => setProviders(result.data?.signInProviders ?? []));
  }, [client, origin]);
  if (origin === undefined || providers.length === 0) return null;
  return (
    <div class="parley-providers">
      {providers.map((provider) => (
        <button
          key={provider.id}
          type="button"
          class="parley-provider"
          onClick={() =>
            env.window.location.assign(providerStartUrl(env.window, provider.id, origin))
          }
        >
          {t('auth.provider.continue', { name: provider.name })}
        </button>
      ))}
      <p class="parley-providers-or">{t('auth.provider.or')}</p>
    </div>
  );
}
