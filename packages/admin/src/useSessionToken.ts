import { useSyncExternalStore } from 'react';
import { useConsoleEnv } from './ConsoleContext';

/** The console's token now (re-renders on sign-in and sign-out). */
export function useSessionToken(): string | null {
  const { session } = useConsoleEnv();
  return useSyncExternalStore(session.subscribe, session.getToken, session.getToken);
}
