import { utf8Length } from '../utf8Length';
import { isQuotaError, toStorageError } from './StorageBackend';
import type { OpenedBackend, RecordMeta, StorageBackend } from './StorageBackend';

/** Separates the namespace from the caller's key: `parley:draft/42`. */
const LOCAL_STORAGE_KEY_SEPARATOR = ':';

/**
 * Opens the localStorage backend after proving it can write, and lists the records it already
 * holds. Throws (synchronously) when it cannot: Safari's old private mode and some blocked
 * third-party frames expose a `localStorage` whose every `setItem` throws, so only a real write
 * tells.
 *
 * Each record is one item, `<namespace>:<key>` → `<seq>:<json>`. Keeping the write sequence in
 * the same item as the value makes a write atomic (one `setItem`) and lets a reload rebuild the
 * eviction order without a separate index that could disagree with the data.
 */
export function openLocalStorageBackend(storage: Storage, namespace: string): OpenedBackend {
  probe(storage, `${namespace}.probe`);
  const prefix = namespace + LOCAL_STORAGE_KEY_SEPARATOR;
  const fail = (error: unknown, action: string) => toStorageError(error, 'localstorage', action);

  const backend: StorageBackend = {
    kind: 'localstorage',
    async read(key) {
      try {
        return parseItem(storage.getItem(prefix + key))?.json;
      } catch (error) {
        throw fail(error, 'read a value');
      }
    },
    async commit(write, deletes) {
      // localStorage has no transactions: each change is logged with its inverse and undone, in
      // reverse order, if a later step throws.
      const undo: (() => void)[] = [];
      const change = (name: string, item: string | null): void => {
        const previous = storage.getItem(name);
        if (previous === null && item === null) return;
        if (item === null) storage.removeItem(name);
        else storage.setItem(name, item); // a failing setItem leaves the old item (spec)
        undo.push(() =>
          previous === null ? storage.removeItem(name) : storage.setItem(name, previous),
        );
      };
      const evict = (): void => deletes.forEach((key) => change(prefix + key, null));
      try {
        if (write) {
          const name = prefix + write.key;
          const item = `${write.seq}:${write.json}`;
          try {
            // Write before evicting, so a write that fails touches nothing…
            change(name, item);
          } catch (error) {
            // …unless the browser ran out of room: its quota counts our prefixes and UTF-16, so
            // near our quota it may need the space this set evicts anyway. Free it and retry.
            if (!isQuotaError(error) || deletes.length === 0) throw error;
            evict();
            change(name, item);
            return;
          }
        }
        evict();
      } catch (error) {
        for (const step of undo.reverse()) {
          try {
            step();
          } catch {
            // Only a double fault gets here (the browser refusing to put back an item whose
            // space was just freed); report the original failure, which the caller can act on.
          }
        }
        throw fail(error, 'write');
      }
    },
  };
  return { backend, records: listRecords(storage, prefix) };
}

function probe(storage: Storage, name: string): void {
  // The probe item sits outside `<namespace>:`, so it can never shadow a record; a host item that
  // happens to have the same name is put back as it was.
  const previous = storage.getItem(name);
  storage.setItem(name, 'probe');
  const readBack = storage.getItem(name);
  if (previous === null) storage.removeItem(name);
  else storage.setItem(name, previous);
  if (readBack !== 'probe') throw new Error('localStorage did not keep a written item');
}

function listRecords(storage: Storage, prefix: string): RecordMeta[] {
  const records: RecordMeta[] = [];
  for (let i = 0; i < storage.length; i++) {
    const name = storage.key(i);
    // Host items outside the prefix are never read, let alone counted or evicted.
    if (!name?.startsWith(prefix)) continue;
    const record = parseItem(storage.getItem(name));
    if (!record) continue; // not written by us (or damaged): neither listed nor counted
    const key = name.slice(prefix.length);
    records.push({ key, seq: record.seq, bytes: utf8Length(key) + utf8Length(record.json) });
  }
  return records;
}

function parseItem(item: string | null): { seq: number; json: string } | undefined {
  if (item === null) return undefined;
  const colon = item.indexOf(':');
  if (colon < 1) return undefined;
  const seq = Number(item.slice(0, colon));
  return Number.isSafeInteger(seq) ? { seq, json: item.slice(colon + 1) } : undefined;
}
