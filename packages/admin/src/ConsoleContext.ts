import { createContext, useContext } from 'react';
import type { Session, Transport } from '@parley/transport';
import type { Notices } from './notices';

/** Storage key of the console's token (the stream keeps its own under another key). */
export const CONSOLE_TOKEN_KEY = 'console.token';

/** What every route of the console needs from outside React: injected, so tests use their own. */
export interface ConsoleEnv {
  /** The network layer. */
  transport: Transport;
  /** The signed-in moderator or admin. */
  session: Session;
  /** The window (clipboard, location, timers). */
  window: Window;
  /** What a page must still say after it is gone; the layout shows them. */
  notices: Notices;
}

/** The injected environment. */
export const ConsoleEnvContext = createContext<ConsoleEnv | null>(null);

/** The injected environment; throws outside the provider (a wiring mistake). */
export function useConsoleEnv(): ConsoleEnv {
  const env = useContext(ConsoleEnvContext);
  if (env === null) throw new Error('[parley] useConsoleEnv outside ConsoleEnvContext');
  return env;
}
