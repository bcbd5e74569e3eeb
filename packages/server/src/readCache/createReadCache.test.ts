import { createMemoryReadStore, createReadCache } from './createReadCache';
import type { ReadStore } from './createReadCache';

const RESULT = { data: { story: { id: 's1' } } };
const STORY = [{ typename: 'Story', id: 's1' }];

/** A memory store, with a switch that makes every call fail as a Redis outage would. */
function flakyStore() {
  const inner = createMemoryReadStore({ maxBytes: 10_000 });
  const state = { down: false };
  const guard = <T>(run: () => T): T => {
    if (state.down) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
    return run();
  };
  const store: ReadStore = {
    get: async (id) => guard(() => inner.get(id)),
    set: async (...args) => guard(() => inner.set(...args)),
    invalidate: async (entities) => guard(() => inner.invalidate(entities)),
  };
  return { store, state };
}

function setUp() {
  const { store, state } = flakyStore();
  const warnings: string[] = [];
  const logger = {
    warn: (_fields: object, message: string) => void warnings.push(message),
  } as Parameters<typeof createReadCache>[0]['logger'];
  const cache = createReadCache({ store, logger });
  /** A read as the plugin does it: a miss, then the result kept. */
  const fill = async (id: string) => {
    expect(await cache.store.get(id)).toBeUndefined();
    await cache.store.set(id, structuredClone(RESULT), STORY, 60_000);
  };
  return { cache, state, warnings, fill };
}

describe('the read cache', () => {
  it('keeps a result until an invalidation names what it holds', async () => {
    const { cache, fill } = setUp();
    await fill('k');
    expect(await cache.store.get('k')).toMatchObject(RESULT);
    await cache.invalidate([{ typename: 'Story', id: 'other' }]);
    expect(await cache.store.get('k')).toMatchObject(RESULT);
    await cache.invalidate(STORY);
    expect(await cache.store.get('k')).toBeUndefined();
  });

  it('serializes a kept answer once, however many hits read it', async () => {
    const { cache, fill } = setUp();
    await fill('k');
    const first = (await cache.store.get('k')) as { stringify(value: unknown): string };
    const text = first.stringify(RESULT);
    expect(text).toBe(JSON.stringify(RESULT));
    const second = (await cache.store.get('k')) as { stringify(value: unknown): string };
    // The same text, not serialized again (it would show a change made since).
    expect(second.stringify({ changed: true })).toBe(text);
  });

  it('does not keep a result read before an invalidation that came while it ran', async () => {
    const { cache } = setUp();
    expect(await cache.store.get('k')).toBeUndefined(); // the read begins
    await cache.invalidate(STORY); // a moderator acts meanwhile
    await cache.store.set('k', structuredClone(RESULT), STORY, 60_000); // the read ends
    expect(await cache.store.get('k')).toBeUndefined();
  });

  it('answers without the cache while the store fails, and never serves what it failed to drop', async () => {
    jest.useFakeTimers();
    try {
      const { cache, state, warnings, fill } = setUp();
      await fill('k');
      state.down = true;
      expect(await cache.store.get('k')).toBeUndefined(); // a miss, not an error
      await cache.invalidate(STORY); // fails: the entry may still be in the store
      expect(warnings).toEqual([
        'Read cache: a read failed; reading around the cache until it is emptied',
        'Read cache: an invalidation failed; reading around the cache until it works',
      ]);
      state.down = false;
      // The store is back, but the failed invalidation has not been redone: read around it.
      expect(await cache.store.get('k')).toBeUndefined();
      await jest.advanceTimersByTimeAsync(1000);
      await cache.settled();
      expect(await cache.store.get('k')).toBeUndefined(); // dropped by the retry
      await fill('k');
      expect(await cache.store.get('k')).toMatchObject(RESULT); // and the cache works again
    } finally {
      jest.useRealTimers();
    }
  });

  it('after a failed read or a lost connection, empties the shared store before reading it again', async () => {
    // Another instance may have failed to drop an entry while the store was away: this one
    // cannot know which, so it drops them all before trusting the store again.
    jest.useFakeTimers();
    try {
      const { cache, state, fill } = setUp();
      await fill('k');
      state.down = true;
      expect(await cache.store.get('k')).toBeUndefined();
      state.down = false;
      await fill('other'); // not kept: the cache is not trusted yet
      expect(await cache.store.get('k')).toBeUndefined();
      await jest.advanceTimersByTimeAsync(1000);
      await cache.settled();
      expect(await cache.store.get('k')).toBeUndefined(); // emptied, not merely read around
      await fill('k');
      expect(await cache.store.get('k')).toMatchObject(RESULT);

      cache.lost(); // the connection closed (a Redis restart): the same again
      expect(await cache.store.get('k')).toBeUndefined();
      await jest.advanceTimersByTimeAsync(1000);
      await cache.settled();
      expect(await cache.store.get('k')).toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });

  it('holds at most maxBytes of results, least recently used dropped first', async () => {
    const store = createMemoryReadStore({ maxBytes: 100 });
    const big = { data: { text: 'x'.repeat(40) } };
    for (const id of ['a', 'b', 'c']) {
      store.get(id);
      store.set(id, big, [], 60_000);
    }
    expect(store.get('a')).toBeUndefined();
    expect(store.get('c')).toEqual(big);
  });
});
