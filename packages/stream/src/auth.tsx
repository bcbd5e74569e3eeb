// Entry of /embed/auth: the sign-in popup. Its own bundle (the forms never reach the stream's
// first render) with its own transport; it holds no token and stores nothing: the token it
// obtains goes to the frame by postMessage (see auth/handOverToken.ts).
import { render } from 'preact';
import { createTransport } from '@parley/transport';
import { applyTheme } from './applyTheme';
import { AuthApp, toAuthMode } from './auth/AuthApp';
import { loadPopupCatalog } from './auth/popupCatalog';
import { createTranslator } from './i18n/createTranslator';
import { toLocale } from './params';

const root = document.getElementById('parley-root');
if (root) {
  const query = new URLSearchParams(location.search);
  const locale = toLocale(query.get('locale'));
  document.documentElement.lang = locale;
  applyTheme(document, { theme: query.get('theme') === 'dark' ? 'dark' : 'light' });
  const transport = createTransport({ url: `${location.origin}/graphql`, persisted: true });
  void loadPopupCatalog(locale).then((catalog) => {
    const env = { t: createTranslator(locale, catalog), client: transport.client, window };
    render(<AuthApp env={env} mode={toAuthMode(query.get('mode'))} />, root);
  });
}
