/** @jest-environment jest-fixed-jsdom */
import { IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import { createStorage } from '../createStorage';
import type { CreateStorageOptions } from '../createStorage';
import { probeBackend } from './probeBackend';

const base = { maxBytes: 1_000, namespace: 'parley' };

/** The backend a fresh storage settles on, as the widget would read it. */
async function backendOf(options: CreateStorageOptions) {
  const storage = createStorage(options);
  await storage.set('k', 'v'); // the chosen backend must also work, not just be chosen
  await expect(storage.get('k')).resolves.toBe('v');
  return storage.backend;
}

/** An IDBFactory whose open request fails later, as Firefox's private mode did. */
function failingOpenFactory(name = 'InvalidStateError'): IDBFactory {
  const open = () => {
    const request = {} as { error?: DOMException; onerror?: (event: Event) => void };
    setTimeout(() => {
      request.error = new DOMException('A mutation operation was attempted', name);
      request.onerror?.(new Event('error'));
    }, 0);
    return request;
  };
  return { open } as unknown as IDBFactory;
}

/** A localStorage whose writes all throw, as Safari's old private mode did. */
function unwritableStorage(): Storage {
  return {
    length: 0,
    key: () => null,
    getItem: () => null,
    setItem: () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    },
    removeItem: () => undefined,
    clear: () => undefined,
  } as unknown as Storage;
}

/** Makes reading a global throw, as blocked third-party storage does in Chrome and Firefox. */
function blockGlobal(name: 'indexedDB' | 'localStorage'): jest.Mock {
  const read = jest.fn(() => {
    throw new DOMException(`Access to '${name}' is denied for this document.`, 'SecurityError');
  });
  if (name === 'localStorage') {
    jest.spyOn(window, 'localStorage', 'get').mockImplementation(read); // undone by restoreAllMocks
  } else {
    Object.defineProperty(globalThis, name, { configurable: true, get: read }); // deleted afterEach
  }
  return read;
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  jest.restoreAllMocks();
  delete (globalThis as { indexedDB?: unknown }).indexedDB;
});

describe('probeBackend', () => {
  it('uses IndexedDB when it opens and writes', async () => {
    await expect(backendOf({ ...base, indexedDB: new IDBFactory() })).resolves.toBe('indexeddb');
  });

  it('reads the globals when no backend is passed', async () => {
    (globalThis as { indexedDB?: unknown }).indexedDB = new IDBFactory();
    await expect(backendOf(base)).resolves.toBe('indexeddb');
    delete (globalThis as { indexedDB?: unknown }).indexedDB;
    await expect(backendOf(base)).resolves.toBe('localstorage'); // jsdom has no IndexedDB
  });

  it('falls back to localStorage when reading the indexedDB global throws', async () => {
    const read = blockGlobal('indexedDB');
    await expect(backendOf(base)).resolves.toBe('localstorage');
    expect(read).toHaveBeenCalled();
  });

  it('falls back to localStorage when indexedDB.open fails', async () => {
    await expect(backendOf({ ...base, indexedDB: failingOpenFactory() })).resolves.toBe(
      'localstorage',
    );
  });

  it('falls back to localStorage when indexedDB.open throws', async () => {
    const factory = new IDBFactory();
    jest.spyOn(factory, 'open').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    await expect(backendOf({ ...base, indexedDB: factory })).resolves.toBe('localstorage');
  });

  it('falls back to localStorage when IndexedDB opens but cannot write', async () => {
    jest.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    await expect(backendOf({ ...base, indexedDB: new IDBFactory() })).resolves.toBe('localstorage');
  });

  it('falls back to localStorage when indexedDB.open never finishes', async () => {
    const factory = { open: () => ({}) } as unknown as IDBFactory;
    const opened = await probeBackend({
      namespace: 'parley',
      indexedDB: factory,
      indexedDBOpenTimeoutMs: 20,
    });
    expect(opened.backend.kind).toBe('localstorage');
  });

  it('falls back to memory when reading the localStorage global throws', async () => {
    const read = blockGlobal('localStorage');
    await expect(backendOf({ ...base, indexedDB: failingOpenFactory() })).resolves.toBe('memory');
    expect(read).toHaveBeenCalled();
  });

  it('falls back to memory when localStorage cannot write', async () => {
    await expect(
      backendOf({ ...base, indexedDB: null, localStorage: unwritableStorage() }),
    ).resolves.toBe('memory');
  });

  it('uses memory when both backends are switched off', async () => {
    await expect(backendOf({ ...base, indexedDB: null, localStorage: null })).resolves.toBe(
      'memory',
    );
  });
});
