import { toStorageError } from './StorageBackend';
import type { OpenedBackend, RecordMeta, StorageBackend } from './StorageBackend';

/** Schema version of Parley's offline database. */
export const INDEXEDDB_VERSION = 1;

/**
 * How long opening the database may take before IndexedDB counts as unusable. Safari 14.1 could
 * leave the first `indexedDB.open` pending forever, which would otherwise hang every storage call.
 */
export const INDEXEDDB_OPEN_TIMEOUT_MS = 2_000;

// Values and their metadata live in two stores written in one transaction, so loading the
// quota index on start-up never reads megabytes of values.
const VALUES = 'values';
const META = 'meta';
// Caller keys are strings; a numeric key can never collide with one.
const PROBE_KEY = 0;

/**
 * Opens `<name>` in `factory`, proves it can write (open succeeds in some private modes and
 * blocked frames whose writes then fail) and lists the records it already holds — all in one
 * transaction. Rejects when IndexedDB cannot be used; the connection is then closed.
 */
export async function openIndexedDBBackend(
  factory: IDBFactory,
  name: string,
  openTimeoutMs: number = INDEXEDDB_OPEN_TIMEOUT_MS,
): Promise<OpenedBackend> {
  const db = await openDatabase(factory, name, openTimeoutMs);
  // Let a newer schema in another tab upgrade instead of waiting on us; our later calls then
  // fail with STORAGE_UNAVAILABLE instead of blocking that tab.
  db.onversionchange = () => db.close();
  let records: RecordMeta[];
  try {
    records = await transact(db, 'readwrite', (tx) => {
      const values = tx.objectStore(VALUES);
      values.put('probe', PROBE_KEY);
      const readBack = values.get(PROBE_KEY);
      readBack.onsuccess = () => {
        if (readBack.result === 'probe') values.delete(PROBE_KEY);
        else tx.abort();
      };
      const meta = tx.objectStore(META).getAll();
      return () => (meta.result as unknown[]).filter(isRecordMeta);
    });
  } catch (error) {
    db.close();
    throw error;
  }

  const fail = (error: unknown, action: string) => toStorageError(error, 'indexeddb', action);
  const backend: StorageBackend = {
    kind: 'indexeddb',
    read: (key) =>
      transact(db, 'readonly', (tx) => {
        const request = tx.objectStore(VALUES).get(key);
        return () => (typeof request.result === 'string' ? request.result : undefined);
      }).catch((error: unknown) => {
        throw fail(error, 'read a value');
      }),
    commit: (write, deletes) =>
      transact(db, 'readwrite', (tx) => {
        const values = tx.objectStore(VALUES);
        const meta = tx.objectStore(META);
        for (const key of deletes) {
          values.delete(key);
          meta.delete(key);
        }
        if (write) {
          values.put(write.json, write.key);
          meta.put({ key: write.key, bytes: write.bytes, seq: write.seq } satisfies RecordMeta);
        }
        return () => undefined;
      }).catch((error: unknown) => {
        throw fail(error, 'write');
      }),
  };
  return { backend, records };
}

function openDatabase(factory: IDBFactory, name: string, timeoutMs: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, INDEXEDDB_VERSION);
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      return true;
    };
    const timer = setTimeout(() => {
      if (settle()) reject(new Error(`IndexedDB open did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(VALUES)) db.createObjectStore(VALUES);
      if (!db.objectStoreNames.contains(META)) db.createObjectStore(META, { keyPath: 'key' });
    };
    request.onsuccess = () => {
      // A connection that arrives after the time-out is not used: close it, or it would block
      // future upgrades for the life of the page.
      if (settle()) resolve(request.result);
      else request.result.close();
    };
    request.onerror = () => {
      if (settle()) reject(request.error ?? new Error('IndexedDB open failed'));
    };
  });
}

/**
 * Runs `work` in one transaction over both stores; resolves with what its returned getter reads
 * once the transaction has COMMITTED (not when the last request succeeded), and rejects when it
 * aborts — so a write is reported done only when it is durable, and a failure undoes every part.
 */
function transact<T>(
  db: IDBDatabase,
  mode: IDBTransactionMode,
  work: (tx: IDBTransaction) => () => T,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let tx: IDBTransaction | undefined;
    try {
      const current = db.transaction([VALUES, META], mode);
      tx = current;
      const result = work(current);
      current.oncomplete = () => resolve(result());
      current.onabort = () =>
        reject(current.error ?? new DOMException('The transaction was aborted.', 'AbortError'));
    } catch (error) {
      try {
        tx?.abort();
      } catch {
        // abort() throws only when the transaction has already ended: nothing left to undo.
      }
      reject(error);
    }
  });
}

function isRecordMeta(value: unknown): value is RecordMeta {
  const record = value as Partial<RecordMeta> | null;
  return (
    typeof record?.key === 'string' &&
    typeof record.bytes === 'number' &&
    Number.isSafeInteger(record.seq)
  );
}
