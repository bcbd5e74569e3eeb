import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RATE_LIMITS } from '../defaults';
import { ParleyError } from '../ParleyError';
import { createRateLimiter } from './createRateLimiter';
import { createRedisRateLimitStore } from './createRedisRateLimitStore';

const REDIS_URL = process.env.REDIS_URL;

// REDIS_URL comes from the environment, or jest.setup.ts's loopback default: never skipped.
describe('createRedisRateLimitStore', () => {
  // Two clients stand in for two server instances behind one load balancer.
  let first: Redis;
  let second: Redis;
  // A prefix per run, so parallel or repeated runs never see each other's counters.
  const prefix = `parley-test:${randomBytes(6).toString('hex')}:`;

  beforeAll(() => {
    first = new Redis(REDIS_URL!, { lazyConnect: false, maxRetriesPerRequest: 1 });
    second = new Redis(REDIS_URL!, { lazyConnect: false, maxRetriesPerRequest: 1 });
  });

  afterAll(async () => {
    // SCAN, not KEYS: the test Redis may be shared, and KEYS blocks it while it walks everything.
    let cursor = '0';
    do {
      const [next, keys] = await first.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await first.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    await Promise.all([first.quit(), second.quit()]);
  });

  it('counts in Redis under the prefix, expiring with the window', async () => {
    const store = createRedisRateLimitStore({ redis: first, prefix });
    expect(await store.increment('count', 5000, Date.now())).toBe(1);
    expect(await store.increment('count', 5000, Date.now())).toBe(2);
    expect(await first.get(`${prefix}count`)).toBe('2');
    const ttl = await first.pttl(`${prefix}count`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5000);
  });

  it('reads a counter without adding to it: 0 when absent', async () => {
    const store = createRedisRateLimitStore({ redis: first, prefix });
    expect(await store.get('read', Date.now())).toBe(0);
    await store.increment('read', 5000, Date.now());
    expect(await store.get('read', Date.now())).toBe(1);
    expect(await store.get('read', Date.now())).toBe(1);
  });

  it('starts over once the counter expires', async () => {
    const store = createRedisRateLimitStore({ redis: first, prefix });
    await store.increment('short', 50, Date.now());
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await store.increment('short', 50, Date.now())).toBe(1);
  });

  it('shares one limit between two server instances', async () => {
    const limits = { ...RATE_LIMITS, post: { limit: 4, windowSeconds: 3600 } };
    const a = createRateLimiter({
      store: createRedisRateLimitStore({ redis: first, prefix }),
      limits,
    });
    const b = createRateLimiter({
      store: createRedisRateLimitStore({ redis: second, prefix }),
      limits,
    });
    const now = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1000;
    await a.consume('post', 'user-1', now);
    await b.consume('post', 'user-1', now);
    await a.consume('post', 'user-1', now);
    await b.consume('post', 'user-1', now);
    const refused = b.consume('post', 'user-1', now);
    await expect(refused).rejects.toBeInstanceOf(ParleyError);
    await expect(refused).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      extensions: { retryAfterSeconds: 3599 },
    });
    // Another user is untouched.
    await expect(a.consume('post', 'user-2', now)).resolves.toBeUndefined();
  });

  it('keeps the count right under concurrent hits', async () => {
    const store = createRedisRateLimitStore({ redis: first, prefix });
    const counts = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.increment('burst', 10_000, Date.now()).then((count) => [i, count] as const),
      ),
    );
    expect(new Set(counts.map(([, count]) => count)).size).toBe(50);
    expect(await second.get(`${prefix}burst`)).toBe('50');
  });

  it('does not collide with another prefix', async () => {
    const other = `${prefix}other:`;
    const store = createRedisRateLimitStore({ redis: first, prefix: other });
    expect(await store.increment('count', 5000, Date.now())).toBe(1);
  });
});
