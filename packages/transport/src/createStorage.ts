import { TransportError } from './TransportError';
import type { TransportStorage } from './types';
import { probeBackend } from './storage/probeBackend';
import { utf8Length } from './utf8Length';
import type { StorageBackend, StorageBackendKind } from './storage/StorageBackend';

/** Options of {@link createStorage}; the caller resolves them from `DEFAULTS.storage`. */
export interface CreateStorageOptions {
  /** Quota in bytes: UTF-8 of every key + its JSON value, summed. */
  maxBytes: number;
  /** IndexedDB database name / localStorage key prefix (`<namespace>:<key>`). */
  namespace: string;
  /** IndexedDB to use; null skips it. @default globalThis.indexedDB, read inside a try */
  indexedDB?: IDBFactory | null;
  /** localStorage to use; null skips it. @default globalThis.localStorage, read inside a try */
  localStorage?: Storage | null;
}

/**
 * Size of one record as the quota counts it: UTF-8 bytes of `key` plus UTF-8 bytes of
 * `JSON.stringify(value)`. Backend overhead (prefixes, sequence numbers, IndexedDB bookkeeping)
 * is not counted, so the figure is the same whichever backend holds the data.
 * Throws `STORAGE_INVALID_VALUE` for a value that is not JSON-serializable.
 */
export function byteSize(key: string, value: unknown): number {
  return utf8Length(key) + utf8Length(serialize(value));
}

interface OpenState {
  backend: StorageBackend;
  /** Every record's size and write sequence, oldest write first (Map keeps insertion order). */
  index: Map<string, { bytes: number; seq: number }>;
  bytes: number;
  nextSeq: number;
}

/**
 * Creates the offline key–value store of drafts and queued posts. Synchronous and side-effect
 * free: the backend (IndexedDB → localStorage → memory) is probed on the first operation, which
 * every operation awaits. `backend` reads `'memory'` until that probe has finished; await any
 * operation (e.g. `usage()`) before reading it.
 *
 * Values round-trip through JSON on every backend (`get` returns a copy; a Date comes back as a
 * string). Past `maxBytes`, a `set` evicts the least recently WRITTEN keys — reads do not count —
 * and the write order survives a reload. Operations run one at a time, in call order.
 * One instance per namespace and page is assumed: writes from another tab are seen by `get`,
 * but counted against the quota only after a reload.
 */
export function createStorage(options: CreateStorageOptions): TransportStorage {
  const { maxBytes } = options;
  if (!(Number.isFinite(maxBytes) && maxBytes >= 0)) {
    throw new RangeError(`createStorage: maxBytes must be a finite number >= 0, got ${maxBytes}`);
  }
  let kind: StorageBackendKind = 'memory';
  let opening: Promise<OpenState> | undefined;
  let tail: Promise<unknown> = Promise.resolve();

  const open = (): Promise<OpenState> => {
    opening ??= probeBackend(options).then(async ({ backend, records }) => {
      kind = backend.kind;
      records.sort((a, b) => a.seq - b.seq);
      const state: OpenState = { backend, index: new Map(), bytes: 0, nextSeq: 1 };
      for (const { key, bytes, seq } of records) {
        state.index.set(key, { bytes, seq });
        state.bytes += bytes;
        state.nextSeq = seq + 1;
      }
      await trimToQuota(state);
      return state;
    });
    return opening;
  };

  // A promise chain as a mutex: each operation reads the index, awaits the backend and updates
  // the index; two of them interleaving would both count the same free space.
  const enqueue = <T>(operation: (state: OpenState) => Promise<T>): Promise<T> => {
    const result = tail.then(open).then(operation);
    tail = result.catch(() => undefined);
    return result;
  };

  // Data written under a larger quota (an older release, another config) is brought back under
  // this one at once, so the quota holds from the first operation on.
  const trimToQuota = async (state: OpenState): Promise<void> => {
    const deletes = evictionsFor(state, null, state.bytes);
    if (deletes.length === 0) return;
    try {
      await state.backend.commit(null, deletes);
      forget(state, deletes);
    } catch {
      // The next set evicts again; failing the probe over it would lose more than it saves.
    }
  };

  const evictionsFor = (state: OpenState, keep: string | null, projected: number): string[] => {
    const deletes: string[] = [];
    for (const [key, { bytes }] of state.index) {
      if (projected <= maxBytes) break;
      if (key === keep) continue;
      deletes.push(key);
      projected -= bytes;
    }
    return deletes;
  };

  const forget = (state: OpenState, keys: readonly string[]): void => {
    for (const key of keys) {
      state.bytes -= state.index.get(key)?.bytes ?? 0;
      state.index.delete(key);
    }
  };

  return {
    get backend() {
      return kind;
    },
    async get<T = unknown>(key: string): Promise<T | undefined> {
      return enqueue(async ({ backend }) => {
        const json = await backend.read(key);
        if (json === undefined) return undefined;
        try {
          return JSON.parse(json) as T;
        } catch {
          return undefined; // damaged outside our control: as good as absent
        }
      });
    },
    async set(key, value) {
      // Validate before queueing: a refused value must leave everything as it was.
      const json = serialize(value);
      const bytes = utf8Length(key) + utf8Length(json);
      if (bytes > maxBytes) {
        throw new TransportError(
          'STORAGE_QUOTA_EXCEEDED',
          `Offline storage quota is ${maxBytes} bytes; "${key}" alone needs ${bytes} (key + JSON).`,
        );
      }
      return enqueue(async (state) => {
        const projected = state.bytes - (state.index.get(key)?.bytes ?? 0) + bytes;
        const deletes = evictionsFor(state, key, projected);
        const seq = state.nextSeq;
        // The index changes only after the backend committed, so a failure leaves both as before.
        await state.backend.commit({ key, json, bytes, seq }, deletes);
        state.nextSeq = seq + 1;
        forget(state, [...deletes, key]);
        state.index.set(key, { bytes, seq });
        state.bytes += bytes;
      });
    },
    async remove(key) {
      return enqueue(async (state) => {
        await state.backend.commit(null, [key]);
        forget(state, [key]);
      });
    },
    async keys() {
      return enqueue(async ({ index }) => [...index.keys()]);
    },
    async usage() {
      return enqueue(async ({ bytes }) => ({ bytes, maxBytes }));
    },
  };
}

/**
 * JSON text of a storable value. Functions and symbols are refused rather than silently dropped
 * (JSON.stringify would lose them without a word); BigInt and cycles make JSON.stringify throw.
 */
function serialize(value: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value, (_key, item: unknown) => {
      const type = typeof item;
      if (type === 'function' || type === 'symbol' || type === 'bigint') {
        throw invalidValue(`a ${type} cannot be stored as JSON`);
      }
      return item;
    });
  } catch (error) {
    if (error instanceof TransportError) throw error;
    throw invalidValue(`JSON.stringify failed (${(error as Error).name})`, error);
  }
  if (json === undefined) throw invalidValue('the value is undefined');
  return json;
}

function invalidValue(reason: string, cause?: unknown): TransportError {
  return new TransportError(
    'STORAGE_INVALID_VALUE',
    `Offline storage takes JSON-serializable values; ${reason}.`,
    { cause },
  );
}
