import { Kind } from '@0no-co/graphql.web';
import type { DocumentNode } from '@0no-co/graphql.web';
import { createRequest, formatDocument, makeOperation, stringifyDocument } from '@urql/core';
import type { Client, Exchange, Operation, OperationResult } from '@urql/core';
import { LRU } from 'tiny-lru';
import { filter, map, merge, pipe, share, tap } from 'wonka';

declare module '@urql/core' {
  interface OperationContext {
    /**
     * `false`: do not keep this query's result. A mutation then neither invalidates nor refetches
     * it — for a query whose caller keeps its own state after the first answer (the stream's
     * thread, which applies posts, reactions and live events itself and would otherwise reload
     * the whole thread after each of them). @default true
     */
    cacheResult?: boolean;
  }
}

/** Options of {@link lruCacheExchange}. */
export interface LruCacheExchangeOptions {
  /** Most cached query results; the least recently used is evicted first. */
  max: number;
  /** Time a cached result stays usable, in ms. */
  ttlMs: number;
  /** Clock in ms; `Date.now` so that tests' fake timers move it. @default Date.now */
  now?: () => number;
}

interface Entry {
  result: OperationResult;
  typenames: string[];
  /** `now()` from which the entry is no longer used. */
  expiresAt: number;
}

/**
 * A document cache like urql's `cacheExchange`, but bounded: at most `max` results, each usable
 * for `ttlMs`, least recently used evicted first (urql's own keeps every result forever, which a
 * long-lived console would grow without limit).
 *
 * A mutation result invalidates every cached query that contains one of the typenames the
 * mutation returned (plus `context.additionalTypenames`); still-active queries among them are
 * fetched again at once, so a list never shows stale data after posting.
 */
export function lruCacheExchange(options: LruCacheExchangeOptions): Exchange {
  const { max, ttlMs, now = Date.now } = options;

  return ({ forward, client }) => {
    const byTypename = new Map<string, Set<number>>();
    // tiny-lru rather than lru-cache: an exact LRU at a sixth of the size (1 KB against 5.5 KB
    // gzipped), which the transport's 15 KB budget needs. Version 11, not 13: 13's class adds
    // what this cache does not use (onEvict, peek, stats) and weighs 1.6 KB in the first render.
    // Expiry is checked here, on the clock tests control, so that a result cached for `ttlMs` is
    // not used at `ttlMs`. tiny-lru reads a max of 0 as "unbounded"; here it means no cache at all.
    const enabled = max >= 1 && ttlMs > 0;
    const results = new LRU<Entry>(Math.max(1, max));
    const unindex = (key: number, entry: Entry) => {
      for (const typename of entry.typenames) byTypename.get(typename)?.delete(key);
    };
    /** The entry under `key`, without making it the most recently used. */
    const peek = (key: number): Entry | undefined => results.items[key]?.value;

    const isFresh = (key: number): boolean => {
      const entry = peek(key);
      if (entry && now() < entry.expiresAt) return true;
      if (entry) forget(key, entry);
      return false;
    };

    // Decided once per operation: the two branches below must agree even if the clock ticks
    // past an entry's expiry between them (else one operation gets a hit AND a request, or none).
    const decisions = new WeakMap<Operation, boolean>();
    const isCached = (operation: Operation): boolean => {
      let cached = decisions.get(operation);
      if (cached === undefined) {
        cached =
          operation.kind === 'query' &&
          operation.context.requestPolicy !== 'network-only' &&
          (operation.context.requestPolicy === 'cache-only' || isFresh(operation.key));
        decisions.set(operation, cached);
      }
      return cached;
    };

    return (operations$) => {
      const shared$ = pipe(operations$, share);

      const cached$ = pipe(
        shared$,
        filter((op) => isCacheable(op) && isCached(op)),
        map((operation): OperationResult => {
          const entry = results.get(operation.key);
          const result: OperationResult = entry
            ? { ...entry.result, operation: withOutcome(operation, 'hit') }
            : emptyResult(operation);
          if (operation.context.requestPolicy === 'cache-and-network') {
            result.stale = true;
            refetch(client, operation);
          }
          return result;
        }),
      );

      const forwarded$ = pipe(
        merge([
          pipe(
            shared$,
            filter((op) => isCacheable(op) && !isCached(op)),
            map((op) => withTypenames(withOutcome(op, 'miss'))),
          ),
          pipe(
            shared$,
            filter((op) => !isCacheable(op)),
          ),
        ]),
        forward,
        tap((result) => {
          const { operation } = result;
          const typenames = collectTypenames(result.data).concat(
            operation.context.additionalTypenames ?? [],
          );
          if (operation.kind === 'mutation') {
            invalidate(typenames);
          } else if (
            enabled &&
            operation.kind === 'query' &&
            operation.context.cacheResult !== false &&
            result.data &&
            !result.error
          ) {
            const previous = peek(operation.key);
            if (previous) unindex(operation.key, previous);
            const evicted = results.setWithEvicted(operation.key, {
              result,
              typenames,
              expiresAt: now() + ttlMs,
            });
            // Keep the typename index in step with evictions.
            if (evicted) unindex(evicted.key as number, evicted.value);
            for (const typename of typenames) indexOf(typename).add(operation.key);
          }
        }),
      );

      return merge([cached$, forwarded$]);
    };

    function forget(key: number, entry: Entry): void {
      results.delete(key);
      unindex(key, entry);
    }

    function indexOf(typename: string): Set<number> {
      let keys = byTypename.get(typename);
      if (!keys) byTypename.set(typename, (keys = new Set()));
      return keys;
    }

    function invalidate(typenames: string[]): void {
      const stale = new Set<number>();
      for (const typename of typenames) {
        for (const key of byTypename.get(typename) ?? []) stale.add(key);
      }
      for (const key of stale) {
        const entry = peek(key);
        if (!entry) continue;
        forget(key, entry);
        refetch(client, entry.result.operation);
      }
    }
  };
}

/** Queries and mutations go through the cache; subscriptions and teardowns pass by. */
function isCacheable(operation: Pick<Operation, 'kind'>): boolean {
  return operation.kind === 'query' || operation.kind === 'mutation';
}

/**
 * The text the transport sends for `document`: what goes through the cache with `__typename` in
 * every selection set ({@link withTypenames}), subscriptions as written. The persisted-documents
 * manifest holds these texts, so a server can tell our clients' documents from any other.
 */
export function documentText(document: DocumentNode): string {
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const kind = operation && 'operation' in operation ? operation.operation : 'query';
  return stringifyDocument(isCacheable({ kind }) ? formatDocument(document) : document);
}

/**
 * The id a client sends instead of `document`'s text: urql's key of the document (a hash of its
 * text, which urql computes for every operation anyway), in base 36. The server looks the id up
 * in the persisted-documents manifest, written with this same function, which fails on two
 * documents with one id; trust comes from that list, not from the hash.
 */
export function documentId(document: DocumentNode): string {
  const { query } = createRequest(document, undefined);
  return ((query as typeof query & { __key: number }).__key >>> 0).toString(36);
}

function withOutcome(operation: Operation, cacheOutcome: 'hit' | 'miss'): Operation {
  return makeOperation(operation.kind, operation, {
    ...operation.context,
    meta: { ...operation.context.meta, cacheOutcome },
  });
}

/** Adds `__typename` to every selection set, so results say which types they contain. */
function withTypenames(operation: Operation): Operation {
  const query = formatDocument(operation.query);
  if (query === operation.query) return operation;
  const formatted = makeOperation(operation.kind, operation);
  formatted.query = query;
  return formatted;
}

/** urql re-runs the operation only if something still listens to it. */
function refetch(client: Client, operation: Operation): void {
  client.reexecuteOperation(
    makeOperation(operation.kind, operation, { requestPolicy: 'network-only' }),
  );
}

function emptyResult(operation: Operation): OperationResult {
  return {
    operation: withOutcome(operation, 'miss'),
    data: undefined,
    error: undefined,
    extensions: undefined,
    stale: false,
    hasNext: false,
  };
}

/** Every `__typename` in a result, once each. */
export function collectTypenames(data: unknown, into = new Set<string>()): string[] {
  if (Array.isArray(data)) {
    for (const item of data) collectTypenames(item, into);
  } else if (data && typeof data === 'object') {
    for (const [key, value] of Object.entries(data)) {
      if (key === '__typename' && typeof value === 'string') into.add(value);
      else collectTypenames(value, into);
    }
  }
  return [...into];
}
