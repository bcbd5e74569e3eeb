import { createRoot } from 'react-dom/client';
import { setDocumentLanguage } from '@parley/contract';
import { createSessionTransport } from '@parley/transport';
import type { TransportOptions } from '@parley/transport';
import { App } from './App';
import { CONSOLE_TOKEN_KEY } from './ConsoleContext';
import { createNotices } from './notices';
import { ConsoleI18nProvider, initialConsoleLocale, loadConsoleCatalog } from './i18n';
import type { ConsoleEnv } from './ConsoleContext';

/** Options of {@link mountConsole}. */
export interface MountConsoleOptions {
  /** The page's window. */
  window: Window;
  /** Element to render into. */
  root: HTMLElement;
  /** Transport options beyond the URL and token (tests inject fetch). */
  transport?: Omit<TransportOptions, 'url' | 'getToken'>;
}

/**
 * Starts the console on its page, in the admin's language (its catalog loaded first, so nothing
 * shows in English before it); returns the disposer, which undoes everything it did.
 */
export function mountConsole({ window: win, root, transport: options }: MountConsoleOptions) {
  const { transport, session } = createSessionTransport(
    { url: `${win.location.origin}/graphql`, persisted: true, ...options },
    CONSOLE_TOKEN_KEY,
  );
  const env: ConsoleEnv = { transport, session, window: win, notices: createNotices() };
  const reactRoot = createRoot(root);
  const { lang, dir } = win.document.documentElement;
  let disposed = false;
  void loadConsoleCatalog(initialConsoleLocale(win)).then((loaded) => {
    if (disposed) return;
    setDocumentLanguage(win.document, loaded.locale);
    reactRoot.render(
      <ConsoleI18nProvider window={win} initial={loaded}>
        <App env={env} />
      </ConsoleI18nProvider>,
    );
  });
  return () => {
    disposed = true;
    reactRoot.unmount();
    Object.assign(win.document.documentElement, { lang, dir });
    void transport.dispose();
  };
}
