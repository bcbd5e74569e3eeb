import { createHash, randomBytes } from 'node:crypto';
import type { Cache } from '@graphql-yoga/plugin-response-cache';
import type { ExecutionResult } from 'graphql';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../runtime/createLogger';

/**
 * The shared read cache: anonymous read results, kept by graphql-yoga's response-cache plugin
 * (useReadCache.ts) in one of two stores — process memory, or Redis when `REDIS_URL` is set so
 * every instance shares one cache — and dropped by the events that change what they show.
 *
 * The stores are ours, not `createInMemoryCache` / `@envelop/response-cache-redis`: the memory
 * one of the library is bounded by entries, not bytes; the Redis one finds a type's results with
 * `KEYS` (blocking Redis), keeps its entity sets forever (they outlive the results) and ignores a
 * key prefix. Both of ours also close the race every cache of reads has: a read that began
 * before an invalidation and finishes after it must not store what it read. Each store counts
 * invalidations (a generation); a read notes the generation when it misses, and its result is
 * stored only if no invalidation happened in between (in Redis, checked atomically by a script).
 */

/** What a result holds, as the plugin names it: a type, or one object of it. */
export interface CacheEntityRecord {
  typename: string;
  id?: number | string;
}

/** A store the response-cache plugin writes results to. */
export interface ReadStore extends Cache {
  /** Drops every result holding one of `entities`; resolves once they are gone. */
  invalidate(entities: Iterable<CacheEntityRecord>): Promise<void>;
}

/** What a store is keyed by: `Type` and `Type:id`. */
function entityKeys(entities: Iterable<CacheEntityRecord>): string[] {
  const keys = new Set<string>();
  for (const { typename, id } of entities) {
    keys.add(typename);
    if (id !== undefined && id !== null) keys.add(`${typename}:${id}`);
  }
  return [...keys];
}

/** A key of `invalidate`'s entities: `Type:id`, or `Type` for every result holding one. */
function invalidationKey({ typename, id }: CacheEntityRecord): string {
  return id === undefined || id === null ? typename : `${typename}:${id}`;
}

/**
 * The generations reads began at, by response id: the oldest one when several readers miss the
 * same result at once. Bounded: a read that never stores (an error) leaves its entry to expiry.
 */
function createMissLog() {
  const began = new LRUCache<string, number>({ max: 10_000, ttl: 60_000 });
  return {
    missed(id: string, generation: number): void {
      const earlier = began.get(id);
      began.set(id, earlier === undefined ? generation : Math.min(earlier, generation));
    },
    /** The generation the read of `id` began at (and forgets it), or undefined. */
    take(id: string): number | undefined {
      const generation = began.get(id);
      began.delete(id);
      return generation;
    },
  };
}

/** Options of {@link createMemoryReadStore}. */
export interface MemoryReadStoreOptions {
  /** Most bytes of cached results (their JSON length). */
  maxBytes: number;
}

/** Results in process memory: an LRU bounded in bytes. */
export function createMemoryReadStore({ maxBytes }: MemoryReadStoreOptions): ReadStore {
  const byEntity = new Map<string, Set<string>>();
  const entitiesOf = new Map<string, string[]>();
  const misses = createMissLog();
  let generation = 0;
  const forget = (id: string) => {
    for (const key of entitiesOf.get(id) ?? []) {
      const ids = byEntity.get(key);
      ids?.delete(id);
      if (ids?.size === 0) byEntity.delete(key);
    }
    entitiesOf.delete(id);
  };
  // The result itself is kept (nothing reads it but the serializer, which copies), its size
  // measured once as its JSON's length.
  const results = new LRUCache<string, { result: ExecutionResult; bytes: number }>({
    maxSize: maxBytes,
    sizeCalculation: (value) => value.bytes,
    dispose: (_value, id) => forget(id),
  });
  return {
    get(id) {
      const entry = results.get(id);
      if (entry) return entry.result;
      misses.missed(id, generation);
      return undefined;
    },
    set(id, data, entities, ttl) {
      if (misses.take(id) !== generation) return;
      const bytes = Math.max(1, JSON.stringify(data).length);
      if (bytes > maxBytes) return;
      const keys = entityKeys(entities);
      results.set(id, { result: data, bytes }, { ttl: Number.isFinite(ttl) ? ttl : undefined });
      entitiesOf.set(id, keys);
      for (const key of keys) {
        let ids = byEntity.get(key);
        if (!ids) byEntity.set(key, (ids = new Set()));
        ids.add(id);
      }
    },
    async invalidate(entities) {
      generation += 1;
      for (const entity of entities) {
        for (const id of [...(byEntity.get(invalidationKey(entity)) ?? [])]) results.delete(id);
      }
    },
  };
}

/** Options of {@link createRedisReadStore}. */
export interface RedisReadStoreOptions {
  /** A client that fails fast while Redis is away (no offline queue); the caller owns it. */
  redis: Redis;
  /** Prefix of every key, so several installs (or test runs) share one Redis. */
  prefix: string;
  /** Most bytes of results this process keeps decoded (their JSON length). */
  maxMemoBytes: number;
}

/** Length of the stamp a stored result starts with (12 characters of base64url). */
const STAMP_LENGTH = 12;

// KEYS: generation, the result, then its entity sets. ARGV: the generation the read began at,
// the JSON, the TTL in ms, the result's id. Stores nothing if an invalidation came in between.
const STORE_IF_CURRENT = `
if (redis.call('GET', KEYS[1]) or '0') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
for i = 3, #KEYS do
  redis.call('SADD', KEYS[i], ARGV[4])
  redis.call('PEXPIRE', KEYS[i], ARGV[3])
end
return 1`;

/**
 * Results in Redis, shared by every instance that names the same Redis and prefix.
 *
 * Each stored result starts with a stamp, new at every store. A process keeps the results it
 * has read decoded (an LRU bounded in bytes), under their stamp; a hit then reads only the stamp
 * from Redis (`GETRANGE`, 12 bytes) and, when it is the kept one, answers with the kept result,
 * whose bytes fastReads.ts has already encoded. Profiled under bench:read, getting and parsing
 * the whole JSON of the stream's first page, then encoding it again, was most of a hit's cost.
 * Correctness stays with Redis: an invalidated result is gone from it, so its stamp is too.
 */
export function createRedisReadStore({
  redis,
  prefix,
  maxMemoBytes,
}: RedisReadStoreOptions): ReadStore {
  const generationKey = `${prefix}generation`;
  const resultKey = (id: string) => `${prefix}result:${id}`;
  const entityKey = (key: string) => `${prefix}entity:${key}`;
  const misses = createMissLog();
  const memo = new LRUCache<string, { stamp: string; result: ExecutionResult; bytes: number }>({
    maxSize: maxMemoBytes,
    sizeCalculation: (value) => value.bytes,
  });
  const values = (answers: [Error | null, unknown][] | null) =>
    (answers ?? []).map(([error, value]) => {
      if (error) throw error;
      return value;
    });
  return {
    async get(id) {
      const kept = memo.get(id);
      if (kept) {
        const [stamp, generation] = values(
          await redis
            .multi()
            .getrange(resultKey(id), 0, STAMP_LENGTH - 1)
            .get(generationKey)
            .exec(),
        );
        if (stamp === kept.stamp) return kept.result;
        memo.delete(id);
        if (stamp === '') {
          misses.missed(id, Number(generation ?? 0));
          return undefined;
        }
      }
      const [stored, generation] = values(
        await redis.multi().get(resultKey(id)).get(generationKey).exec(),
      );
      if (typeof stored === 'string') {
        // Stored without a stamp, by an older process (a rolling upgrade): used, not kept.
        if (stored.startsWith('{')) return JSON.parse(stored) as ExecutionResult;
        const result = JSON.parse(stored.slice(STAMP_LENGTH)) as ExecutionResult;
        const bytes = stored.length;
        if (bytes <= maxMemoBytes)
          memo.set(id, { stamp: stored.slice(0, STAMP_LENGTH), result, bytes });
        return result;
      }
      misses.missed(id, Number(generation ?? 0));
      return undefined;
    },
    async set(id, data, entities, ttl) {
      const began = misses.take(id);
      if (began === undefined) return;
      const keys = entityKeys(entities).map(entityKey);
      // A result is not kept forever: the TTL also bounds what a missed event could leave.
      const ttlMs = Math.max(1, Math.round(Number.isFinite(ttl) ? ttl : 60_000));
      await redis.eval(
        STORE_IF_CURRENT,
        2 + keys.length,
        generationKey,
        resultKey(id),
        ...keys,
        String(began),
        randomBytes(9).toString('base64url') + JSON.stringify(data),
        String(ttlMs),
        id,
      );
    },
    async invalidate(entities) {
      const keys = [...entities].map((entity) => entityKey(invalidationKey(entity)));
      // The generation first: a read storing from now on began before it and is refused.
      const pipeline = redis.multi().incr(generationKey);
      for (const key of keys) pipeline.smembers(key);
      const answers = (await pipeline.exec()) ?? [];
      const ids = new Set<string>();
      for (const [error, members] of answers.slice(1)) {
        if (error) throw error;
        for (const id of members as string[]) ids.add(id);
      }
      const doomed = [...[...ids].map(resultKey), ...keys];
      if (doomed.length > 0) await redis.del(...doomed);
    },
  };
}

/** The read cache a server runs with. */
export interface ReadCache {
  /** The store, as the response-cache plugin uses it: failures read as misses, logged. */
  store: Cache;
  /**
   * Drops every cached result holding one of `entities`. Resolves when they are gone, or, if the
   * store failed, once this instance has stopped reading from it (until an invalidation works).
   */
  invalidate(
    entities: Iterable<CacheEntityRecord> | Promise<Iterable<CacheEntityRecord>>,
  ): Promise<void>;
  /** Resolves when every invalidation started so far has settled (a mutation's answer waits). */
  settled(): Promise<void>;
  /**
   * The store was out of reach (its connection closed): while it was, another instance may have
   * failed to drop what it changed. Reads go around the cache until it has been emptied.
   */
  lost(): void;
}

/**
 * Every cached read: what a change to the settings, the sites or the install drops (any view may
 * show them). The plugin names only objects with an id (Settings has none), so every result is
 * also filed under this one name.
 */
export const EVERY_READ: readonly CacheEntityRecord[] = Object.freeze([{ typename: 'Query' }]);

/**
 * `result`, serialized once: yoga writes a result with its `stringify` when it has one, and a
 * kept answer (the same object on every hit from memory) is the same text each time. Profiled
 * under the read bench, serializing the stream's first page was the largest cost of a hit.
 */
function withKeptJson(result: ExecutionResult): ExecutionResult {
  const kept = result as ExecutionResult & { stringify?: (value: unknown) => string };
  if (!kept.stringify) {
    let json: string | undefined;
    // Enumerable: the plugin answers a hit with a copy of the result, which must carry it.
    kept.stringify = (value) => (json ??= JSON.stringify(value));
  }
  return kept;
}

/** The ETag a stored answer went out with. */
function etagOf(result: ExecutionResult | null | undefined): string | undefined {
  return (result?.extensions as { http?: { headers?: Record<string, string> } } | undefined)?.http
    ?.headers?.['ETag'];
}

/** Most entities a process keeps to drop again; past that, it drops the whole cache. */
const MAX_FAILED_ENTITIES = 1000;

/** How often a failed invalidation is tried again, in ms. */
const INVALIDATION_RETRY_MS = 1000;

/**
 * Wraps a store so the cache never fails a request and never serves what it may have failed to
 * drop: a failed invalidation makes this instance read around the cache until that invalidation,
 * tried again every second, succeeds. A failed read is a miss, and more: the store (Redis) is
 * shared, and while this instance could not reach it another may have failed to drop what it
 * changed, and may not have redone it yet when the store is back. So after a failed read, or a
 * lost connection ({@link ReadCache.lost}), this instance reads around the cache until it has
 * emptied it. An instance that neither read nor lost its connection while the store was away (a
 * paused Redis, and no traffic) can still read what another failed to drop until that one's
 * retry, at most a second after the store is back.
 */
export function createReadCache({
  store,
  logger,
  onLookup,
}: {
  store: ReadStore;
  logger: Pick<Logger, 'warn'>;
  /** Told whether each lookup found an answer (the metric). */
  onLookup?(hit: boolean): void;
}): ReadCache {
  const pending = new Set<Promise<void>>();
  // What failed to be dropped, by invalidation key; and how many failures there have been.
  let failed = new Map<string, CacheEntityRecord>();
  let failures = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const warn = (error: unknown, message: string) => logger.warn({ err: error }, message);

  const run = (
    given: Iterable<CacheEntityRecord> | Promise<Iterable<CacheEntityRecord>>,
  ): Promise<void> => {
    let entities: CacheEntityRecord[] = [];
    const done = Promise.resolve(given)
      .then((list) => store.invalidate((entities = [...list])))
      .then(
        () => undefined,
        (error: unknown) => {
          warn(
            error,
            'Read cache: an invalidation failed; reading around the cache until it works',
          );
          // Entities that could not even be listed (a database error): drop the whole cache.
          redo(entities.length > 0 ? entities : EVERY_READ);
        },
      );
    pending.add(done);
    void done.finally(() => pending.delete(done));
    return done;
  };
  /**
   * Reads go around the cache until `entities` are dropped, tried again every second. Each entity
   * once (by its key); past {@link MAX_FAILED_ENTITIES} of them, the whole cache instead.
   */
  const redo = (entities: readonly CacheEntityRecord[]) => {
    failures += 1;
    for (const entity of entities) failed.set(invalidationKey(entity), entity);
    if (failed.size > MAX_FAILED_ENTITIES) {
      failed = new Map(EVERY_READ.map((entity) => [invalidationKey(entity), entity]));
    }
    retry ??= setTimeout(retryFailed, INVALIDATION_RETRY_MS);
    retry.unref?.();
  };
  // Reads keep going around the cache until the retry has finished, not only begun; and if
  // anything failed meanwhile, the retry does not count (what it listed may miss what that
  // failure left behind): the next one, a second later, covers both.
  const retryFailed = () => {
    retry = undefined;
    const began = failures;
    const done = store.invalidate([...failed.values()]).then(
      () => {
        if (failures === began) failed = new Map();
        else redo([]);
      },
      (error: unknown) => {
        warn(error, 'Read cache: an invalidation failed again; still reading around the cache');
        redo([]);
      },
    );
    pending.add(done);
    void done.finally(() => pending.delete(done));
  };

  const lookUp = async (id: string): Promise<ExecutionResult | undefined> => {
    if (failed.size > 0) return undefined;
    try {
      // `If-None-Match` asks with an ETag: the key and the answer's version.
      const [key = id, version] = id.split('.');
      const result = await store.get(key);
      // An invalidation may have failed while this read was out: then it is not to be trusted.
      if (failed.size > 0) return undefined;
      if (version !== undefined && etagOf(result) !== id) return undefined;
      return result ? withKeptJson(result) : undefined;
    } catch (error) {
      warn(error, 'Read cache: a read failed; reading around the cache until it is emptied');
      redo(EVERY_READ);
      return undefined;
    }
  };

  return {
    store: {
      async get(id) {
        const found = await lookUp(id);
        onLookup?.(found !== undefined);
        return found;
      },
      async set(id, data, entities, ttl) {
        // The plugin's ETag is the key, the question: a client holding an answer since changed
        // would be told "304 Not Modified". The answer's hash goes in it (the same object is
        // the response being sent, so it gets the same ETag).
        const headers = (data.extensions as { http?: { headers?: Record<string, string> } })?.http
          ?.headers;
        if (headers) {
          const version = createHash('sha256')
            .update(JSON.stringify(data.data))
            .digest('base64url');
          headers['ETag'] = `${id}.${version.slice(0, 16)}`;
        }
        if (failed.size > 0) return;
        try {
          await store.set(id, data, [...entities, ...EVERY_READ], ttl);
        } catch (error) {
          warn(error, 'Read cache: a write failed; the result was not kept');
        }
      },
      invalidate: (entities) => run(entities),
    },
    invalidate: run,
    async settled() {
      while (pending.size > 0) await Promise.all(pending);
    },
    lost: () => redo(EVERY_READ),
  };
}
