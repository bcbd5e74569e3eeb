import type { TransportStorage } from '@parley/transport';

/** Storage key of the frame's Parley token. */
export const TOKEN_STORAGE_KEY = 'session.token';

/** Who is signed in, kept in the frame's own storage (never a cookie: third-party cookies are blocked). */
export interface Session {
  /** The Parley token now, or null. Synchronous, for the transport's `getToken`. */
  getToken(): string | null;
  /** Resolves once the stored token has been read. */
  readonly ready: Promise<void>;
  /** Keeps a new token (popup sign-in, SSO exchange) and tells listeners. */
  signIn(token: string): Promise<void>;
  /** Forgets the token and tells listeners. */
  signOut(): Promise<void>;
  /** Listens to sign-in and sign-out; returns the unsubscribe function. */
  subscribe(listener: (token: string | null) => void): () => void;
}

/**
 * Creates the session. A token that cannot be stored (storage blocked) still signs the reader in
 * for this page view: sign-in must work with third-party storage blocked.
 */
export function createSession(storage: Pick<TransportStorage, 'get' | 'set' | 'remove'>): Session {
  let token: string | null = null;
  let changed = false;
  const listeners = new Set<(token: string | null) => void>();
  const set = (next: string | null) => {
    changed = true;
    token = next;
    for (const listener of listeners) listener(next);
  };
  const ready = storage.get<string>(TOKEN_STORAGE_KEY).then(
    (stored) => {
      // A sign-in that happened while storage was being read wins over the stored value.
      if (!changed && typeof stored === 'string' && stored !== '') token = stored;
    },
    () => undefined,
  );
  return {
    getToken: () => token,
    ready,
    async signIn(next) {
      set(next);
      await storage.set(TOKEN_STORAGE_KEY, next).catch(() => undefined);
    },
    async signOut() {
      set(null);
      await storage.remove(TOKEN_STORAGE_KEY).catch(() => undefined);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
