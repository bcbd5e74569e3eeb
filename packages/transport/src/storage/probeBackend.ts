import { createMemoryBackend } from './createMemoryBackend';
import { INDEXEDDB_OPEN_TIMEOUT_MS, openIndexedDBBackend } from './openIndexedDBBackend';
import { openLocalStorageBackend } from './openLocalStorageBackend';
import type { OpenedBackend } from './StorageBackend';

/** What {@link probeBackend} may try, and under which name. */
export interface ProbeBackendOptions {
  /** IndexedDB database name and localStorage key prefix. */
  namespace: string;
  /** IndexedDB to try first; null skips it. @default globalThis.indexedDB (guarded) */
  indexedDB?: IDBFactory | null;
  /** localStorage to try second; null skips it. @default globalThis.localStorage (guarded) */
  localStorage?: Storage | null;
  /** Longest wait for `indexedDB.open`, in ms. @default 2000 */
  indexedDBOpenTimeoutMs?: number;
}

/**
 * Picks the first backend that really works — IndexedDB, then localStorage, then memory — by
 * opening it and writing to it. Never rejects: memory always works. A failure of one backend is
 * expected in a third-party frame (blocked or partitioned storage, private modes), so it is not
 * reported; `storage.backend` tells which one won.
 */
export async function probeBackend(options: ProbeBackendOptions): Promise<OpenedBackend> {
  const { namespace } = options;
  const indexedDB =
    options.indexedDB === undefined ? readGlobal(() => globalThis.indexedDB) : options.indexedDB;
  if (indexedDB) {
    try {
      const timeoutMs = options.indexedDBOpenTimeoutMs ?? INDEXEDDB_OPEN_TIMEOUT_MS;
      return await openIndexedDBBackend(indexedDB, namespace, timeoutMs);
    } catch {
      // Unusable here (private mode, blocked frame, hung open): try the next backend.
    }
  }
  const localStorage =
    options.localStorage === undefined
      ? readGlobal(() => globalThis.localStorage)
      : options.localStorage;
  if (localStorage) {
    try {
      return openLocalStorageBackend(localStorage, namespace);
    } catch {
      // Throws SecurityError when the frame's storage is blocked, QuotaExceededError in
      // Safari's old private mode: fall back to memory.
    }
  }
  return createMemoryBackend();
}

/**
 * Reads a storage global that may not exist (Node) or may THROW on access: with third-party
 * storage blocked, merely reading `window.localStorage` or `window.indexedDB` throws a
 * SecurityError in Chrome and Firefox.
 */
function readGlobal<T>(read: () => T | undefined): T | null {
  try {
    return read() ?? null;
  } catch {
    return null;
  }
}
