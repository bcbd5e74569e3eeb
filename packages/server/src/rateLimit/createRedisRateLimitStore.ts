import { DEFAULT_REDIS_PREFIX } from '../defaults';
import type { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import { ParleyError } from '../ParleyError';
import { REDIS_COMMAND_TIMEOUT_MS } from '../defaults';
import type { RateLimitStore } from './createRateLimiter';

/**
 * Options for the client behind the rate limits. By default ioredis queues commands while it
 * reconnects and retries each up to 20 times: with Redis down, a post hung 9.5 s and a sign-in
 * 32.5 s. Here a command fails at once when there is no connection, and after
 * {@link REDIS_COMMAND_TIMEOUT_MS} when Redis does not answer; the client still reconnects.
 */
export const REDIS_RATE_LIMIT_CLIENT_OPTIONS: RedisOptions = Object.freeze({
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
});

/** Options of {@link createRedisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
  /** A connected ioredis client; the caller owns it (and quits it). */
  redis: Redis;
  /**
   * Prefix of every key, so Parley's counters don't collide with other data in the same Redis and
   * parallel test runs don't collide with each other. @default 'parley:rate:'
   */
  prefix?: string;
}

/** Default for {@link RedisRateLimitStoreOptions.prefix}. */
export const REDIS_RATE_LIMIT_PREFIX = `${DEFAULT_REDIS_PREFIX}rate:`;

/**
 * Counters in Redis, shared by every server instance using the same Redis (set `REDIS_URL`), so a
 * limit holds across a load balancer instead of multiplying by the number of processes.
 *
 * INCR and PEXPIRE go in one MULTI: both run, or neither, and no other client's command lands in
 * between. Without that, a crash between the two could leave a counter with no expiry, blocking
 * its key forever. Each hit sets the expiry to the same moment (the end of the window the key is
 * named after), so repeating PEXPIRE is harmless and we need no `NX`, which Redis < 7 lacks.
 */
export function createRedisRateLimitStore(options: RedisRateLimitStoreOptions): RateLimitStore {
  const { redis, prefix = REDIS_RATE_LIMIT_PREFIX } = options;
  const unavailable = () =>
    new ParleyError(
      'SERVICE_UNAVAILABLE',
      'Limits cannot be checked right now (the server cannot reach Redis); nothing was done. Try again shortly.',
      { httpStatus: 503 },
    );
  return {
    async get(key) {
      let value: string | null;
      try {
        value = await redis.get(`${prefix}${key}`);
      } catch {
        throw unavailable();
      }
      return value === null ? 0 : Number(value);
    },
    async increment(key, ttlMs) {
      const fullKey = `${prefix}${key}`;
      // Redis wants a whole, positive number of milliseconds.
      const ttl = Math.max(1, Math.ceil(ttlMs));
      let results;
      try {
        results = await redis.multi().incr(fullKey).pexpire(fullKey, ttl).exec();
      } catch {
        // The client fails fast while Redis is away (see REDIS_RATE_LIMIT_CLIENT_OPTIONS): the
        // caller learns at once that nothing was done, rather than waiting on a queue.
        throw unavailable();
      }
      // exec() answers null only when a WATCHed key changed; we WATCH nothing, so treat it as a fault.
      if (results === null) throw new Error('Redis discarded the rate-limit transaction.');
      const [incr, expire] = results;
      if (incr?.[0]) throw incr[0];
      if (expire?.[0]) throw expire[0];
      const count = incr?.[1];
      if (typeof count !== 'number') throw new Error(`Redis INCR answered ${String(count)}.`);
      return count;
    },
  };
}
