import { createRoot } from 'react-dom/client';
import { createSessionTransport } from '@parley/transport';
import type { TransportOptions } from '@parley/transport';
import { App } from './App';
import { CONSOLE_TOKEN_KEY } from './ConsoleContext';
import { createNotices } from './notices';
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

/** Starts the console on its page; returns the disposer, which undoes everything it did. */
export function mountConsole({ window: win, root, transport: options }: MountConsoleOptions) {
  const { transport, session } = createSessionTransport(
    { url: `${win.location.origin}/graphql`, persisted: true, ...options },
    CONSOLE_TOKEN_KEY,
  );
  const env: ConsoleEnv = { transport, session, window: win, notices: createNotices() };
  const reactRoot = createRoot(root);
  reactRoot.render(<App env={env} />);
  return () => {
    reactRoot.unmount();
    void transport.dispose();
  };
}
