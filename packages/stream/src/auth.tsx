// Entry of /embed/auth: the sign-in popup. Its own bundle (the forms never reach the stream's
// first render) with its own transport; it holds no token and stores nothing: the token it
// obtains goes to the frame by postMessage (see auth/handOverToken.ts).
import { render } from 'preact';
import { isServerErrorCode } from '@parley/contract';
import { TransportError, createTransport } from '@parley/transport';
import { applyTheme } from './applyTheme';
import { AuthApp, toAuthMode } from './auth/AuthApp';
import { loadPopupCatalog } from './auth/popupCatalog';
import { signUpLinkOf } from './auth/signUpLink';
import { createTranslator } from './i18n/createTranslator';
import { setDocumentLanguage, SUPPORTED_LOCALES, toLocale } from '@parley/contract';

const root = document.getElementById('parley-root');
if (root) {
  const query = new URLSearchParams(location.search);
  const locale = toLocale(query.get('locale'), SUPPORTED_LOCALES) ?? 'en';
  setDocumentLanguage(document, locale);
  applyTheme(document, { theme: query.get('theme') === 'dark' ? 'dark' : 'light' });
  const transport = createTransport({ url: `${location.origin}/graphql`, persisted: true });
  const theme = query.get('theme') === 'dark' ? 'dark' : 'light';
  const story = query.get('story');
  // Back from a provider (auth/providers/providerRoutes.ts): its code, or its coded error.
  const code = query.get('error');
  const providerError = isServerErrorCode(code) ? new TransportError(code, code) : null;
  const providerCode = query.get('provider_code');
  const connectCode = query.get('connect_code');
  // The sign-up email's link: its address and code come in the fragment, which no server sees.
  const signUpLink = signUpLinkOf(location.hash);
  // Neither stays in the popup's address: a reload does not redeem a used code again.
  const kept = new URLSearchParams(query);
  kept.delete('provider_code');
  kept.delete('connect_code');
  kept.delete('error');
  // The fragment goes too: a code in the address bar or the history helps nobody once used.
  history.replaceState(null, '', `${location.pathname}?${kept}`);
  void loadPopupCatalog(locale).then((catalog) => {
    const env = {
      t: createTranslator(locale, catalog),
      locale,
      client: transport.client,
      window,
      origin: story === null ? undefined : { story, locale, theme },
    };
    render(
      <AuthApp
        env={env}
        mode={toAuthMode(query.get('mode'))}
        providerCode={providerCode}
        providerError={providerError}
        connectCode={connectCode}
        signUpLink={signUpLink}
      />,
      root,
    );
  });
}
