import type { RateLimitStore } from './createRateLimiter';

/** Options of {@link createMemoryRateLimitStore}. */
export interface MemoryRateLimitStoreOptions {
  /**
   * Most counters kept. When full, expired counters are dropped first, then the oldest
   * single-attempt ones; if none of those is left, a new key is refused (fails closed). Memory
   * stays bounded under a flood of distinct keys and no climbing counter is ever forgotten.
   * @default 100_000
   */
  maxKeys?: number;
}

/** Default for {@link MemoryRateLimitStoreOptions.maxKeys}. */
export const MEMORY_RATE_LIMIT_MAX_KEYS = 100_000;

/** A counter store in this process's memory, with its size. */
export interface MemoryRateLimitStore extends RateLimitStore {
  /** Counters currently held (expired ones may linger until the next sweep). */
  readonly size: number;
}

interface Counter {
  count: number;
  expiresAtMs: number;
}

/**
 * Counters in a Map, for a single server process (the default). Not rate-limiter-flexible's memory
 * store: it keeps a key (and a timer) per caller without bound, which a flood of fresh keys turns
 * into a memory exhaustion and, once trimmed, into a reset of the victims' counters. Several processes behind a load
 * balancer need the Redis store, or each would allow the full limit.
 *
 * No timer: when the map is full, expired counters are swept and, if that is not enough, the
 * oldest single-attempt ones are dropped down to 90 % of `maxKeys`. The slack makes the O(n) sweep rare (at most once
 * per tenth of `maxKeys` new counters), and the store needs no disposal nor fake timers in tests.
 */
export function createMemoryRateLimitStore(
  options: MemoryRateLimitStoreOptions = {},
): MemoryRateLimitStore {
  const { maxKeys = MEMORY_RATE_LIMIT_MAX_KEYS } = options;
  const lowWater = Math.floor(maxKeys * 0.9);
  const counters = new Map<string, Counter>();

  function makeRoom(nowMs: number): void {
    for (const [key, counter] of counters) {
      if (counter.expiresAtMs <= nowMs) counters.delete(key);
    }
    // Then single attempts, oldest first (Maps iterate in insertion order). A flood of new keys
    // is made of those; a counter that has climbed (an account under attack) is never dropped,
    // or the flood would hand the attacker a fresh allowance.
    for (const [key, counter] of counters) {
      if (counters.size <= lowWater) break;
      if (counter.count === 1) counters.delete(key);
    }
  }

  return {
    get size() {
      return counters.size;
    },

    async get(key, nowMs) {
      const counter = counters.get(key);
      return counter !== undefined && counter.expiresAtMs > nowMs ? counter.count : 0;
    },

    async increment(key, ttlMs, nowMs) {
      const existing = counters.get(key);
      if (existing !== undefined && existing.expiresAtMs > nowMs) {
        existing.count += 1;
        return existing.count;
      }
      if (existing !== undefined) counters.delete(key);
      if (counters.size >= maxKeys) makeRoom(nowMs);
      // Still full of climbing counters: fail closed for the new key (refused as over its limit)
      // rather than forget one of them.
      if (counters.size >= maxKeys) return Number.MAX_SAFE_INTEGER;
      counters.set(key, { count: 1, expiresAtMs: nowMs + ttlMs });
      return 1;
    },
  };
}
