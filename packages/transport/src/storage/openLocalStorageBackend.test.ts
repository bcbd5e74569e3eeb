import { createStorage } from '../createStorage';
import { TransportError } from '../TransportError';
import type { TransportStorage } from '../types';
import { openLocalStorageBackend } from './openLocalStorageBackend';

type Method = 'getItem' | 'setItem' | 'removeItem';

/**
 * A Web Storage stand-in whose methods can be told to throw a DOMException — what a browser does
 * when its real quota (smaller than ours in many third-party frames) is hit, or storage is revoked.
 */
class StubStorage {
  readonly items = new Map<string, string>();
  readonly failures = new Map<Method, string>();
  /** The browser's own quota, in UTF-16 code units of names + items (as browsers count). */
  quotaChars = Number.POSITIVE_INFINITY;

  get length(): number {
    return this.items.size;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(name: string): string | null {
    this.failIf('getItem');
    return this.items.get(name) ?? null;
  }
  setItem(name: string, value: string): void {
    this.failIf('setItem');
    const old = this.items.get(name);
    const used = [...this.items].reduce((sum, [n, v]) => sum + n.length + v.length, 0);
    const after =
      used - (old === undefined ? 0 : name.length + old.length) + name.length + value.length;
    // Like browsers: a write that would take the total past the quota throws and changes nothing.
    if (after > this.quotaChars) throw new DOMException('quota (stub)', 'QuotaExceededError');
    this.items.set(name, String(value));
  }
  removeItem(name: string): void {
    this.failIf('removeItem');
    this.items.delete(name);
  }
  clear(): void {
    this.items.clear();
  }
  asStorage(): Storage {
    return this as unknown as Storage;
  }
  private failIf(method: Method): void {
    const name = this.failures.get(method);
    if (name !== undefined) throw new DOMException(`${method} failed (stub)`, name);
  }
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

let stub: StubStorage;
let storage: TransportStorage;
beforeEach(async () => {
  stub = new StubStorage();
  // 40-byte records: two fit in 100 bytes, a third evicts the oldest.
  storage = createStorage({
    maxBytes: 100,
    namespace: 'parley',
    indexedDB: null,
    localStorage: stub.asStorage(),
  });
  await storage.set('a', 'a'.repeat(37));
  await storage.set('b', 'b'.repeat(37));
  expect(storage.backend).toBe('localstorage');
});

describe('localStorage backend', () => {
  it('keeps one namespaced item per record and removes its probe item', () => {
    expect([...stub.items.keys()]).toEqual(['parley:a', 'parley:b']);
  });

  // Items are 49 characters each ("parley:a" + "1:" + 39), so a and b take 98.
  it('rejects with STORAGE_QUOTA_EXCEEDED when the browser has no room, restoring evictions', async () => {
    const before = new Map(stub.items);
    stub.quotaChars = 100;

    // c (50 bytes) evicts a under our quota, but does not fit the browser's even then.
    const error = await rejection(storage.set('c', 'c'.repeat(47)));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'STORAGE_QUOTA_EXCEEDED' });
    stub.failures.set('setItem', 'QuotaExceededError');
    await expect(rejection(storage.set('b', 'new'))).resolves.toMatchObject({
      code: 'STORAGE_QUOTA_EXCEEDED',
    });

    expect(stub.items).toEqual(before);
    await expect(storage.get('a')).resolves.toBe('a'.repeat(37));
    await expect(storage.get('b')).resolves.toBe('b'.repeat(37));
    await expect(storage.keys()).resolves.toEqual(['a', 'b']);
    await expect(storage.usage()).resolves.toEqual({ bytes: 80, maxBytes: 100 });
  });

  it('evicts first when the browser needs the room before the write fits', async () => {
    stub.quotaChars = 110; // a + b + c = 147 characters, b + c = 98
    await storage.set('c', 'c'.repeat(37));
    await expect(storage.keys()).resolves.toEqual(['b', 'c']);
    expect([...stub.items.keys()]).toEqual(['parley:b', 'parley:c']);
  });

  it('rejects other write failures with STORAGE_UNAVAILABLE, keeping planned evictions', async () => {
    const before = new Map(stub.items);
    stub.failures.set('setItem', 'SecurityError');
    await expect(rejection(storage.set('c', 'c'.repeat(37)))).resolves.toMatchObject({
      code: 'STORAGE_UNAVAILABLE',
    });
    expect(stub.items).toEqual(before);
    await expect(storage.keys()).resolves.toEqual(['a', 'b']);
  });

  it('undoes the write when an eviction after it fails', async () => {
    const before = new Map(stub.items);
    stub.failures.set('removeItem', 'SecurityError');
    await expect(rejection(storage.set('b', 'b'.repeat(60)))).resolves.toMatchObject({
      code: 'STORAGE_UNAVAILABLE',
    });
    expect(stub.items).toEqual(before);
    await expect(rejection(storage.remove('a'))).resolves.toMatchObject({
      code: 'STORAGE_UNAVAILABLE',
    });
    stub.failures.clear();
    await expect(storage.get('b')).resolves.toBe('b'.repeat(37));
    await expect(storage.keys()).resolves.toEqual(['a', 'b']);
  });

  it('rejects a failing read with STORAGE_UNAVAILABLE', async () => {
    stub.failures.set('getItem', 'SecurityError');
    await expect(rejection(storage.get('a'))).resolves.toMatchObject({
      code: 'STORAGE_UNAVAILABLE',
    });
  });

  it('ignores items under its prefix that it did not write', async () => {
    stub.items.set('parley:stray', 'not a record');
    const reloaded = createStorage({
      maxBytes: 100,
      namespace: 'parley',
      indexedDB: null,
      localStorage: stub.asStorage(),
    });
    await expect(reloaded.keys()).resolves.toEqual(['a', 'b']);
    await expect(reloaded.usage()).resolves.toEqual({ bytes: 80, maxBytes: 100 });
  });

  it('throws from the probe when a written item does not read back', () => {
    const forgetful = new StubStorage();
    forgetful.setItem = () => undefined;
    expect(() => openLocalStorageBackend(forgetful.asStorage(), 'parley')).toThrow(
      'localStorage did not keep a written item',
    );
  });
});
