import { IDBDatabase, IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import { createStorage } from '../createStorage';
import { TransportError } from '../TransportError';
import type { TransportStorage } from '../types';
import { openIndexedDBBackend } from './openIndexedDBBackend';

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

let factory: IDBFactory;
let storage: TransportStorage;
const open = () =>
  createStorage({ maxBytes: 100, namespace: 'parley', indexedDB: factory, localStorage: null });

beforeEach(async () => {
  factory = new IDBFactory();
  storage = open();
  // 40-byte records: two fit in 100 bytes, a third evicts the oldest.
  await storage.set('a', 'a'.repeat(37));
  await storage.set('b', 'b'.repeat(37));
  expect(storage.backend).toBe('indexeddb');
});
afterEach(() => jest.restoreAllMocks());

/** Checks that neither this instance nor a reload sees any change. */
async function expectUntouched(): Promise<void> {
  for (const view of [storage, open()]) {
    await expect(view.keys()).resolves.toEqual(['a', 'b']);
    await expect(view.get('a')).resolves.toBe('a'.repeat(37));
    await expect(view.get('b')).resolves.toBe('b'.repeat(37));
    await expect(view.usage()).resolves.toEqual({ bytes: 80, maxBytes: 100 });
  }
}

describe('IndexedDB backend', () => {
  it('rejects a write the browser refuses, undoing the eviction it began with', async () => {
    // The deletion of a is requested before the put throws: the aborted transaction undoes it.
    jest.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const error = await rejection(storage.set('c', 'c'.repeat(37)));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'STORAGE_QUOTA_EXCEEDED' });
    await expect(rejection(storage.set('b', 'new'))).resolves.toMatchObject({
      code: 'STORAGE_QUOTA_EXCEEDED',
    });
    jest.restoreAllMocks();
    await expectUntouched();
  });

  it('rejects with STORAGE_UNAVAILABLE when the transaction aborts', async () => {
    const put = IDBObjectStore.prototype.put;
    jest.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (
      this: IDBObjectStore,
      ...args: Parameters<IDBObjectStore['put']>
    ) {
      const request = put.apply(this, args);
      this.transaction.abort(); // as the browser does on a disk error or a crash of its storage
      return request;
    });
    await expect(rejection(storage.set('c', 'c'.repeat(37)))).resolves.toMatchObject({
      code: 'STORAGE_UNAVAILABLE',
    });
    jest.restoreAllMocks();
    await expectUntouched();
  });

  it('lets another tab upgrade the database, then rejects with STORAGE_UNAVAILABLE', async () => {
    const upgraded = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open('parley', 2);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error('blocked by the open storage'));
    });
    upgraded.close();
    await expect(rejection(storage.set('c', 1))).resolves.toMatchObject({
      code: 'STORAGE_UNAVAILABLE',
    });
    await expect(rejection(storage.get('a'))).resolves.toMatchObject({
      code: 'STORAGE_UNAVAILABLE',
    });
  });
});

describe('openIndexedDBBackend', () => {
  it('gives up on an open that never finishes, and closes it if it finishes late', async () => {
    const request = {} as { result?: { close: () => void }; onsuccess?: () => void };
    const hung = { open: () => request } as unknown as IDBFactory;
    await expect(openIndexedDBBackend(hung, 'parley', 20)).rejects.toThrow(
      'IndexedDB open did not finish within 20 ms',
    );
    const close = jest.fn();
    request.result = { close };
    request.onsuccess?.();
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('closes its connection when the probe write fails', async () => {
    jest.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const close = jest.spyOn(IDBDatabase.prototype, 'close');
    await expect(openIndexedDBBackend(factory, 'parley')).rejects.toMatchObject({
      name: 'QuotaExceededError',
    });
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('lists the records of an earlier visit with their sizes and write order', async () => {
    const opened = await openIndexedDBBackend(factory, 'parley');
    expect(opened.records.sort((x, y) => x.seq - y.seq)).toEqual([
      { key: 'a', bytes: 40, seq: 1 },
      { key: 'b', bytes: 40, seq: 2 },
    ]);
    await expect(opened.backend.read('b')).resolves.toBe(JSON.stringify('b'.repeat(37)));
  });
});
