import { createSession as createStoredSession } from '@parley/transport';
import type { Session, TransportStorage } from '@parley/transport';

export type { Session } from '@parley/transport';

/** Storage key of the frame's Parley token. */
export const TOKEN_STORAGE_KEY = 'session.token';

/** The frame's session (see `createSession` in @parley/transport), under its own key. */
export function createSession(storage: Pick<TransportStorage, 'get' | 'set' | 'remove'>): Session {
  return createStoredSession(storage, TOKEN_STORAGE_KEY);
}
