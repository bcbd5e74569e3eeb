import type { TransportStorage } from './types';

/** Who is signed in, kept in the client's own storage (never a cookie: third-party cookies are blocked). */
export interface Session {
  /** The Parley token now, or null. Synchronous, for the transport's `getToken`. */
  getToken(): string | null;
  /** Resolves once the stored token has been read. */
  readonly ready: Promise<void>;
  /** Keeps a new token (popup sign-in, SSO exchange) and tells listeners. */
  signIn(token: string): Promise<void>;
  /**
   * Keeps a new token for the same user (a password change ends the old token's epoch) without
   * telling listeners: nothing about who is signed in changed, so nothing should re-render.
   */
  renew(token: string): Promise<void>;
  /** Forgets the token and tells listeners. */
  signOut(): Promise<void>;
  /** Listens to sign-in and sign-out; returns the unsubscribe function. */
  subscribe(listener: (token: string | null) => void): () => void;
}

/**
 * Creates the session, kept under `key` in `storage` (the stream and the console use different
 * keys: they share an origin, and a commenter's sign-in must not become the console's). A token
 * that cannot be stored (storage blocked) still signs the user in for this page view: sign-in must
 * work with third-party storage blocked.
 */
export function createSession(
  storage: Pick<TransportStorage, 'get' | 'set' | 'remove'>,
  key: string,
): Session {
  let token: string | null = null;
  let changed = false;
  const listeners = new Set<(token: string | null) => void>();
  const set = (next: string | null) => {
    changed = true;
    token = next;
    for (const listener of listeners) listener(next);
  };
  const ready = storage.get<string>(key).then(
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
      await storage.set(key, next).catch(() => undefined);
    },
    async renew(next) {
      changed = true;
      token = next;
      await storage.set(key, next).catch(() => undefined);
    },
    async signOut() {
      set(null);
      await storage.remove(key).catch(() => undefined);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
