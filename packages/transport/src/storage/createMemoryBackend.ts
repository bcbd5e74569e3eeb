import type { OpenedBackend, RecordWrite } from './StorageBackend';

/**
 * The last-resort backend: a Map that lives as long as the page, so it starts empty. It keeps
 * JSON text rather than the values themselves so that `get` returns a fresh copy, exactly as the
 * persistent backends do.
 */
export function createMemoryBackend(): OpenedBackend {
  const records = new Map<string, RecordWrite>();
  const backend: OpenedBackend['backend'] = {
    kind: 'memory',
    async read(key) {
      return records.get(key)?.json;
    },
    async commit(write, deletes) {
      for (const key of deletes) records.delete(key);
      if (write) records.set(write.key, { ...write });
    },
  };
  return { backend, records: [] };
}
