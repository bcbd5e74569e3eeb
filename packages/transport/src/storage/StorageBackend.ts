import { TransportError } from '../TransportError';
import type { TransportStorage } from '../types';

/** Which backend holds the data: IndexedDB, localStorage or this page's memory. */
export type StorageBackendKind = TransportStorage['backend'];

/** What the quota needs to know about one stored record, without its value. */
export interface RecordMeta {
  /** The caller's key, without any namespace prefix. */
  key: string;
  /** UTF-8 bytes of key + JSON value, as {@link byteSize} counts them. */
  bytes: number;
  /** Position in the write order; larger is newer. Persisted so eviction order survives a reload. */
  seq: number;
}

/** A record to write: its metadata and its value as JSON text. */
export interface RecordWrite extends RecordMeta {
  /** `JSON.stringify` of the value. */
  json: string;
}

/**
 * The small surface each backend implements; quota, ordering and serialization live above it in
 * `createStorage`, so the three backends cannot drift apart in behaviour.
 */
export interface StorageBackend {
  /** Which backend this is. */
  readonly kind: StorageBackendKind;
  /** The JSON text stored under `key`, or undefined. */
  read(key: string): Promise<string | undefined>;
  /**
   * Deletes `deletes` and writes `write` (when given) as one unit: if any part fails, the promise
   * rejects with a coded {@link TransportError} and nothing has changed.
   */
  commit(write: RecordWrite | null, deletes: readonly string[]): Promise<void>;
}

/** A backend that passed its probe, with the records it already held (from earlier visits). */
export interface OpenedBackend {
  /** The working backend. */
  backend: StorageBackend;
  /** Metadata of every record already in the namespace, in no particular order. */
  records: RecordMeta[];
}

// Chrome, Safari and the spec say QuotaExceededError; old Firefox used its own name.
const QUOTA_ERROR_NAMES = new Set(['QuotaExceededError', 'NS_ERROR_DOM_QUOTA_REACHED']);

/** True when a browser storage API refused a write for lack of space (its quota, not ours). */
export function isQuotaError(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && QUOTA_ERROR_NAMES.has(name);
}

/**
 * Wraps whatever a browser storage API threw into a coded error. The browser's own quota (often
 * smaller than ours in a third-party frame) maps to `STORAGE_QUOTA_EXCEEDED` because the caller's
 * remedy is the same — the value did not fit; anything else means the storage cannot be used.
 */
export function toStorageError(
  error: unknown,
  kind: StorageBackendKind,
  action: string,
): TransportError {
  if (error instanceof TransportError) return error;
  const name = (error as { name?: unknown } | null)?.name;
  const what = typeof name === 'string' ? name : 'an unknown error';
  const code = isQuotaError(error) ? 'STORAGE_QUOTA_EXCEEDED' : 'STORAGE_UNAVAILABLE';
  return new TransportError(code, `Offline storage (${kind}) could not ${action}: ${what}.`, {
    cause: error,
  });
}
