import { RATE_LIMITS } from '../defaults';
import { ParleyError } from '../ParleyError';
import { createMemoryRateLimitStore } from './createMemoryRateLimitStore';
import type { RateLimitedAction } from './createRateLimiter';
import { createRateLimiter } from './createRateLimiter';

/** Start of a window for every action (a multiple of each window length). */
const WINDOW_START = 1_700_006_400_000;

async function rejection(promise: Promise<unknown>): Promise<ParleyError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ParleyError) return error;
    throw error;
  }
  throw new Error('expected RATE_LIMITED');
}

/** Uses up the whole allowance of `action` for `key` at `now`. */
async function exhaust(
  limiter: ReturnType<typeof createRateLimiter>,
  action: RateLimitedAction,
  key: string,
  now: number,
): Promise<void> {
  for (let i = 0; i < RATE_LIMITS[action].limit; i += 1) await limiter.consume(action, key, now);
}

describe('createRateLimiter (memory store)', () => {
  it('tells of each refusal, and of nothing else', async () => {
    const refused: RateLimitedAction[] = [];
    const limiter = createRateLimiter({
      store: createMemoryRateLimitStore(),
      onRefused: (action) => refused.push(action),
    });
    await exhaust(limiter, 'post', 'user-1', WINDOW_START);
    expect(refused).toEqual([]);
    await rejection(limiter.consume('post', 'user-1', WINDOW_START));
    await rejection(limiter.consume('post', 'user-1', WINDOW_START));
    expect(refused).toEqual(['post', 'post']);
  });

  it('sits at a window boundary for every default limit', () => {
    for (const { windowSeconds } of Object.values(RATE_LIMITS)) {
      expect(WINDOW_START % (windowSeconds * 1000)).toBe(0);
    }
  });

  it.each(Object.keys(RATE_LIMITS) as RateLimitedAction[])(
    'allows exactly the default limit of %s, then refuses with the time left',
    async (action) => {
      const limiter = createRateLimiter({ store: createMemoryRateLimitStore() });
      await exhaust(limiter, action, 'user-1', WINDOW_START);
      const error = await rejection(limiter.consume(action, 'user-1', WINDOW_START + 1500));
      expect(error.code).toBe('RATE_LIMITED');
      const { windowSeconds } = RATE_LIMITS[action];
      expect(error.extensions.retryAfterSeconds).toBe(windowSeconds - 1);
    },
  );

  it('records events without refusing and counts them without adding, per window', async () => {
    const limiter = createRateLimiter({ store: createMemoryRateLimitStore() });
    const { limit, windowSeconds } = RATE_LIMITS.signInFailures;
    expect(await limiter.count('signInFailures', 'account:a', WINDOW_START)).toBe(0);
    for (let i = 1; i <= limit + 3; i += 1) {
      expect(await limiter.record('signInFailures', 'account:a', WINDOW_START)).toBe(i);
    }
    expect(await limiter.count('signInFailures', 'account:a', WINDOW_START)).toBe(limit + 3);
    expect(await limiter.count('signInFailures', 'account:b', WINDOW_START)).toBe(0);
    const next = WINDOW_START + windowSeconds * 1000;
    expect(await limiter.count('signInFailures', 'account:a', next)).toBe(0);
  });

  it('lets the key try again once the window has passed', async () => {
    const limiter = createRateLimiter({ store: createMemoryRateLimitStore() });
    const { windowSeconds } = RATE_LIMITS.post;
    await exhaust(limiter, 'post', 'user-1', WINDOW_START);
    await expect(limiter.consume('post', 'user-1', WINDOW_START + 1)).rejects.toThrow(ParleyError);
    await expect(
      limiter.consume('post', 'user-1', WINDOW_START + windowSeconds * 1000),
    ).resolves.toBeUndefined();
  });

  it('counts each key and each action separately', async () => {
    const limiter = createRateLimiter({ store: createMemoryRateLimitStore() });
    await exhaust(limiter, 'signIn', 'ip:10.0.0.1', WINDOW_START);
    await expect(limiter.consume('signIn', 'ip:10.0.0.2', WINDOW_START)).resolves.toBeUndefined();
    await expect(limiter.consume('signUp', 'ip:10.0.0.1', WINDOW_START)).resolves.toBeUndefined();
    await expect(limiter.consume('signIn', 'ip:10.0.0.1', WINDOW_START)).rejects.toThrow(
      ParleyError,
    );
  });

  it('keeps counting refused attempts, so hammering does not help', async () => {
    const store = createMemoryRateLimitStore();
    const limiter = createRateLimiter({
      store,
      limits: { ...RATE_LIMITS, post: { limit: 2, windowSeconds: 10 } },
    });
    await limiter.consume('post', 'u', WINDOW_START);
    await limiter.consume('post', 'u', WINDOW_START);
    for (let i = 0; i < 5; i += 1) {
      await expect(limiter.consume('post', 'u', WINDOW_START + i)).rejects.toThrow(ParleyError);
    }
    await expect(limiter.consume('post', 'u', WINDOW_START + 10_000)).resolves.toBeUndefined();
  });

  it('never tells the client to retry in less than a second', async () => {
    const limiter = createRateLimiter({
      store: createMemoryRateLimitStore(),
      limits: { ...RATE_LIMITS, report: { limit: 1, windowSeconds: 10 } },
    });
    await limiter.consume('report', 'u', WINDOW_START + 9_900);
    const error = await rejection(limiter.consume('report', 'u', WINDOW_START + 9_999));
    expect(error.extensions.retryAfterSeconds).toBe(1);
  });

  it('uses the current time when none is given', async () => {
    const limiter = createRateLimiter({
      store: createMemoryRateLimitStore(),
      limits: { ...RATE_LIMITS, post: { limit: 1, windowSeconds: 3600 } },
    });
    await limiter.consume('post', 'u');
    const error = await rejection(limiter.consume('post', 'u'));
    expect(error.extensions.retryAfterSeconds).toBeGreaterThan(0);
    expect(error.extensions.retryAfterSeconds).toBeLessThanOrEqual(3600);
  });
});

describe('createMemoryRateLimitStore', () => {
  it('starts a fresh counter once one expires', async () => {
    const store = createMemoryRateLimitStore();
    expect(await store.increment('k', 1000, 0)).toBe(1);
    expect(await store.increment('k', 1000, 999)).toBe(2);
    expect(await store.increment('k', 1000, 1000)).toBe(1);
  });

  it('stays within maxKeys, dropping expired counters first', async () => {
    const store = createMemoryRateLimitStore({ maxKeys: 10 });
    for (let i = 0; i < 5; i += 1) await store.increment(`short-${i}`, 10, 0);
    for (let i = 0; i < 5; i += 1) await store.increment(`long-${i}`, 60_000, 0);
    await store.increment('long-0', 60_000, 0);
    await store.increment('new', 60_000, 100);
    expect(store.size).toBe(6);
    // The live counter survived the sweep with its count.
    expect(await store.increment('long-0', 60_000, 200)).toBe(3);
  });

  it('drops the oldest single attempts when flooded with distinct keys', async () => {
    const store = createMemoryRateLimitStore({ maxKeys: 100 });
    for (let i = 0; i < 1000; i += 1) await store.increment(`ip-${i}`, 60_000, i);
    expect(store.size).toBeLessThanOrEqual(100);
    // The newest key is kept, the first one forgotten.
    expect(await store.increment('ip-999', 60_000, 1000)).toBe(2);
    expect(await store.increment('ip-0', 60_000, 1000)).toBe(1);
  });

  it('never forgets a climbing counter in a flood: a blocked account stays blocked', async () => {
    const limiter = createRateLimiter({ store: createMemoryRateLimitStore({ maxKeys: 100 }) });
    const account = 'account:victim@example.com';
    for (let i = 0; i < 10; i += 1) await limiter.consume('signIn', account, 0);
    await expect(limiter.consume('signIn', account, 1)).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
    for (let i = 0; i < 1000; i += 1) await limiter.consume('signIn', `junk-${i}`, 2);
    await expect(limiter.consume('signIn', account, 3)).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
  });

  it('fails closed for new keys when every counter is climbing', async () => {
    const store = createMemoryRateLimitStore({ maxKeys: 10 });
    for (let i = 0; i < 10; i += 1) {
      await store.increment(`busy-${i}`, 60_000, 0);
      await store.increment(`busy-${i}`, 60_000, 0);
    }
    expect(await store.increment('newcomer', 60_000, 1)).toBe(Number.MAX_SAFE_INTEGER);
    expect(await store.increment('busy-0', 60_000, 1)).toBe(3);
  });
});
