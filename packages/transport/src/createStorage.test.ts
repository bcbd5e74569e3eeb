/** @jest-environment jest-fixed-jsdom */
import { IDBFactory } from 'fake-indexeddb';
import { byteSize, createStorage } from './createStorage';
import type { CreateStorageOptions } from './createStorage';
import { STORAGE_MAX_BYTES, STORAGE_NAMESPACE } from './defaults';
import { TransportError } from './TransportError';
import type { TransportStorage } from './types';

type Kind = TransportStorage['backend'];

const MAX = STORAGE_MAX_BYTES;
const MB = 1_000_000;

/** A string value whose record (key + JSON) is exactly `bytes` long; keys here are ASCII. */
const sized = (key: string, bytes: number): string => 'x'.repeat(bytes - key.length - 2);

let factory: IDBFactory;
beforeEach(() => {
  factory = new IDBFactory(); // a fresh, empty IndexedDB per test
  localStorage.clear();
});

const optionsFor = (kind: Kind): CreateStorageOptions => ({
  maxBytes: MAX,
  namespace: STORAGE_NAMESPACE,
  indexedDB: kind === 'indexeddb' ? factory : null,
  localStorage: kind === 'localstorage' ? localStorage : null,
});

const cyclic: { self?: unknown } = {};
cyclic.self = cyclic;

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

describe('byteSize', () => {
  it('counts UTF-8 bytes of the key plus the JSON value', () => {
    expect(byteSize('a', 'b')).toBe(1 + 3); // a + "b"
    expect(byteSize('é', '€')).toBe(2 + 5); // 2-byte key, "€" = 1 + 3 + 1
    expect(byteSize('k', '😀')).toBe(1 + 6); // a surrogate pair is 4 bytes, not 2 × 3
    expect(byteSize('n', { a: [1, null] })).toBe(1 + '{"a":[1,null]}'.length);
    expect(byteSize('k', sized('k', 1234))).toBe(1234);
  });

  it('refuses what JSON cannot hold with STORAGE_INVALID_VALUE', () => {
    for (const value of [10n, cyclic, () => 1]) {
      expect(() => byteSize('k', value)).toThrow(TransportError);
      expect(() => byteSize('k', value)).toThrow(
        expect.objectContaining({ code: 'STORAGE_INVALID_VALUE' }),
      );
    }
  });
});

describe.each<Kind>(['indexeddb', 'localstorage', 'memory'])('createStorage on %s', (kind) => {
  let storage: TransportStorage;
  beforeEach(() => {
    storage = createStorage(optionsFor(kind));
  });

  it('reports the probed backend once an operation has run', async () => {
    await storage.keys();
    expect(storage.backend).toBe(kind);
  });

  it('stores, lists and removes JSON values', async () => {
    const draft = { body: 'Grüße 😀', tags: ['a', 'b'], at: null, n: 1.5 };
    await storage.set('draft', draft);
    await expect(storage.get('draft')).resolves.toEqual(draft);
    await expect(storage.get('missing')).resolves.toBeUndefined();
    await expect(storage.keys()).resolves.toEqual(['draft']);
    await expect(storage.usage()).resolves.toEqual({
      bytes: byteSize('draft', draft),
      maxBytes: MAX,
    });
    await storage.remove('draft');
    await storage.remove('never-set');
    await expect(storage.get('draft')).resolves.toBeUndefined();
    await expect(storage.usage()).resolves.toEqual({ bytes: 0, maxBytes: MAX });
  });

  it('keeps everything when a set brings the total to exactly the quota', async () => {
    expect(MAX).toBe(4_980_736);
    for (const key of ['a', 'b', 'c', 'd']) await storage.set(key, sized(key, MB));
    await storage.set('e', sized('e', MAX - 4 * MB));
    await expect(storage.usage()).resolves.toEqual({ bytes: 4_980_736, maxBytes: MAX });
    await expect(storage.keys()).resolves.toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('evicts only the oldest write when a set goes one byte over the quota', async () => {
    for (const key of ['a', 'b', 'c', 'd']) await storage.set(key, sized(key, MB));
    await storage.set('e', sized('e', MAX - 4 * MB + 1));
    await expect(storage.keys()).resolves.toEqual(['b', 'c', 'd', 'e']);
    await expect(storage.get('a')).resolves.toBeUndefined();
    await expect(storage.usage()).resolves.toEqual({ bytes: MAX + 1 - MB, maxBytes: MAX });
  });

  it('refuses a value larger than the whole quota and leaves existing data untouched', async () => {
    await storage.set('a', 'kept');
    const error = await rejection(storage.set('huge', sized('huge', MAX + 1)));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'STORAGE_QUOTA_EXCEEDED' });
    await expect(storage.get('a')).resolves.toBe('kept');
    await expect(storage.keys()).resolves.toEqual(['a']);
    await expect(storage.usage()).resolves.toEqual({ bytes: byteSize('a', 'kept'), maxBytes: MAX });
  });

  it('accepts a value of exactly the quota, evicting everything else', async () => {
    await storage.set('a', 'old');
    await storage.set('all', sized('all', MAX));
    await expect(storage.keys()).resolves.toEqual(['all']);
    await expect(storage.usage()).resolves.toEqual({ bytes: MAX, maxBytes: MAX });
  });

  it('evicts the least recently written key, not the least recently created or read', async () => {
    for (const key of ['a', 'b', 'c']) await storage.set(key, sized(key, 1.5 * MB));
    await storage.set('a', sized('a', 1.5 * MB)); // a is now the newest write
    await storage.get('b'); // reading does not protect b
    await storage.set('d', sized('d', MB));
    await expect(storage.keys()).resolves.toEqual(['c', 'a', 'd']);
    await expect(storage.get('b')).resolves.toBeUndefined();
    await expect(storage.get('a')).resolves.toHaveLength(1.5 * MB - 3);
  });

  it('counts an overwritten key once, at its new size', async () => {
    await storage.set('a', sized('a', 3 * MB));
    await storage.set('b', sized('b', MB));
    await storage.set('a', sized('a', 3 * MB)); // 7 MB if the old size were still counted
    await expect(storage.keys()).resolves.toEqual(['b', 'a']);
    await storage.set('a', 'small');
    await expect(storage.usage()).resolves.toEqual({
      bytes: MB + byteSize('a', 'small'),
      maxBytes: MAX,
    });
  });

  it.each([
    ['a function', () => 1],
    ['a nested function', { ok: 1, run: () => 1 }],
    ['a symbol', Symbol('s')],
    ['a BigInt', { n: 10n }],
    ['a cycle', cyclic],
    ['undefined', undefined],
  ])('refuses %s with STORAGE_INVALID_VALUE and keeps the old value', async (_name, value) => {
    await storage.set('k', 'old');
    const error = await rejection(storage.set('k', value));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'STORAGE_INVALID_VALUE' });
    await expect(storage.get('k')).resolves.toBe('old');
  });

  it('keeps the accounting right under concurrent sets', async () => {
    const keys = Array.from({ length: 10 }, (_, i) => `k${i}`);
    await Promise.all(keys.map((key) => storage.set(key, sized(key, MB))));
    await expect(storage.keys()).resolves.toEqual(['k6', 'k7', 'k8', 'k9']);
    await expect(storage.usage()).resolves.toEqual({ bytes: 4 * MB, maxBytes: MAX });
  });
});

describe.each<Kind>(['indexeddb', 'localstorage'])('createStorage on %s after a reload', (kind) => {
  it('sees the same keys, usage and eviction order', async () => {
    const first = createStorage(optionsFor(kind));
    for (const key of ['a', 'b', 'c']) await first.set(key, sized(key, 1.5 * MB));
    await first.set('a', sized('a', 1.5 * MB));

    const second = createStorage(optionsFor(kind));
    await expect(second.keys()).resolves.toEqual(['b', 'c', 'a']);
    await expect(second.usage()).resolves.toEqual({ bytes: 4.5 * MB, maxBytes: MAX });
    await expect(second.get('c')).resolves.toHaveLength(1.5 * MB - 3);
    await second.set('d', sized('d', MB));
    await expect(second.keys()).resolves.toEqual(['c', 'a', 'd']);
    expect(second.backend).toBe(kind);
  });

  it('brings data stored under a larger quota back under a smaller one', async () => {
    const large = createStorage(optionsFor(kind));
    for (const key of ['a', 'b', 'c']) await large.set(key, sized(key, 1000));
    const small = createStorage({ ...optionsFor(kind), maxBytes: 2000 });
    await expect(small.keys()).resolves.toEqual(['b', 'c']);
    await expect(small.usage()).resolves.toEqual({ bytes: 2000, maxBytes: 2000 });
  });
});

describe('createStorage set-up', () => {
  it('touches no storage until the first operation, then probes once', async () => {
    const open = jest.spyOn(factory, 'open');
    const storage = createStorage(optionsFor('indexeddb'));
    expect(open).not.toHaveBeenCalled();
    expect(storage.backend).toBe('memory'); // documented reading before the probe
    await Promise.all([storage.keys(), storage.get('a'), storage.usage()]);
    expect(open).toHaveBeenCalledTimes(1);
    expect(storage.backend).toBe('indexeddb');
  });

  it('throws at once on a quota that is not a number of bytes', () => {
    expect(() => createStorage({ ...optionsFor('memory'), maxBytes: Number.NaN })).toThrow(
      RangeError,
    );
    expect(() => createStorage({ ...optionsFor('memory'), maxBytes: -1 })).toThrow(RangeError);
  });
});

describe('createStorage namespacing', () => {
  it('never reads, lists, counts or evicts host localStorage items', async () => {
    localStorage.setItem('foo', 'host value');
    localStorage.setItem('parley.probe', 'host item that shares the probe name');
    const storage = createStorage({ ...optionsFor('localstorage'), maxBytes: 100 });
    await storage.set('foo', 'ours');
    expect(localStorage.getItem('foo')).toBe('host value');
    expect(localStorage.getItem('parley:foo')).toMatch(/"ours"$/);

    await storage.set('bar', sized('bar', 100)); // evicts our foo, and only ours
    expect(localStorage.getItem('parley:foo')).toBeNull();
    expect(localStorage.getItem('foo')).toBe('host value');
    expect(localStorage.getItem('parley.probe')).toBe('host item that shares the probe name');
    await expect(storage.keys()).resolves.toEqual(['bar']);
    await expect(storage.usage()).resolves.toEqual({ bytes: 100, maxBytes: 100 });

    const reloaded = createStorage(optionsFor('localstorage'));
    await expect(reloaded.keys()).resolves.toEqual(['bar']);
  });

  it('keeps its IndexedDB data in a database named after the namespace', async () => {
    await createStorage(optionsFor('indexeddb')).set('k', 1);
    const other = createStorage({ ...optionsFor('indexeddb'), namespace: 'other' });
    await expect(other.keys()).resolves.toEqual([]);
    await expect(other.get('k')).resolves.toBeUndefined();
    const names = (await factory.databases()).map(({ name }) => name);
    expect(names.sort()).toEqual(['other', 'parley']);
  });

  it('keeps two localStorage namespaces apart', async () => {
    await createStorage(optionsFor('localstorage')).set('k', 1);
    const other = createStorage({ ...optionsFor('localstorage'), namespace: 'other' });
    await expect(other.keys()).resolves.toEqual([]);
    await expect(other.get('k')).resolves.toBeUndefined();
  });
});
