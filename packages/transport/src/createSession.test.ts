import { createSession } from './createSession';

function memoryStorage(initial: Record<string, unknown> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    get: async <T>(key: string) => data.get(key) as T | undefined,
    set: async (key: string, value: unknown) => void data.set(key, value),
    remove: async (key: string) => void data.delete(key),
  };
}

test('reads the stored token under its key, and keeps sign-ins and sign-outs there', async () => {
  const storage = memoryStorage({ 'app.token': 'stored', 'other.token': 'not mine' });
  const session = createSession(storage, 'app.token');
  await session.ready;
  expect(session.getToken()).toBe('stored');
  const seen: (string | null)[] = [];
  session.subscribe((token) => seen.push(token));
  await session.signIn('fresh');
  expect(storage.data.get('app.token')).toBe('fresh');
  await session.renew('renewed');
  expect(session.getToken()).toBe('renewed');
  expect(storage.data.get('app.token')).toBe('renewed');
  await session.signOut();
  expect(storage.data.has('app.token')).toBe(false);
  expect(storage.data.get('other.token')).toBe('not mine');
  expect(seen).toEqual(['fresh', null]);
});

test('a sign-in made while storage is still being read wins over the stored token', async () => {
  let release: (value: string) => void = () => undefined;
  const storage = {
    ...memoryStorage(),
    get: <T>() => new Promise<string>((resolve) => (release = resolve)) as Promise<T | undefined>,
  };
  const session = createSession(storage, 'k');
  await session.signIn('new');
  release('old');
  await session.ready;
  expect(session.getToken()).toBe('new');
});

test('signs in for this page view when storage refuses to keep the token', async () => {
  const storage = {
    get: () => Promise.reject(new Error('blocked')),
    set: () => Promise.reject(new Error('blocked')),
    remove: () => Promise.reject(new Error('blocked')),
  };
  const session = createSession(storage, 'k');
  await session.ready;
  await session.signIn('token');
  expect(session.getToken()).toBe('token');
  await session.signOut();
  expect(session.getToken()).toBeNull();
});
