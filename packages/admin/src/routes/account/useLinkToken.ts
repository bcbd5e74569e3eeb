import { useEffect, useState } from 'react';
import { useConsoleEnv } from '../../ConsoleContext';

/**
 * The token of an emailed link, `…#token=<token>` (packages/server/src/graphql/resolvers/
 * account/accountEmails.ts). The server puts it in the fragment so it never reaches a server log;
 * for the same reason it is then removed from the address bar, so it does not linger in the
 * history or get shared by copying the address. Read once: the page keeps it in state.
 */
export function useLinkToken(): string | null {
  const { window: win } = useConsoleEnv();
  const [token] = useState(
    () => new URLSearchParams(win.location.hash.slice(1)).get('token')?.trim() || null,
  );
  useEffect(() => {
    if (token === null || win.location.hash === '') return;
    try {
      win.history.replaceState(win.history.state, '', win.location.pathname + win.location.search);
    } catch {
      // Some embedded browsers refuse replaceState; keeping the fragment is harmless.
    }
  }, [token, win]);
  return token;
}
