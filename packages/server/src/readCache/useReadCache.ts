import { createHash } from 'node:crypto';
import { useResponseCache } from '@graphql-yoga/plugin-response-cache';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ReadCache } from './createReadCache';

/** Options of {@link useReadCache}. */
export interface ReadCacheOptions {
  /** Where results live and how they are dropped. */
  cache: ReadCache;
  /**
   * Longest a result is kept, in ms. Events drop results as soon as what they show changes; the
   * TTL bounds what a change made outside any event (a database edited by hand) leaves behind.
   */
  ttlMs: number;
  /** `s-maxage` of a cacheable answer, in seconds: how long a CDN in front may keep it. */
  sharedMaxAgeSeconds: number;
}

/** Longest a cached list of latest comments (recent.js) goes without a site's newest comment. */
export const RECENT_TTL_MS = 10_000;

/**
 * Caches anonymous reads (graphql-yoga's response-cache plugin over our stores): a request with
 * no `Authorization` header is answered from the cache when the same document and variables were
 * answered before and nothing they show has changed since. The cache key is also the answer's
 * `ETag`; a `GET` with a matching `If-None-Match` gets `304`.
 *
 * Not cached: answers with errors; answers with a null root field but `viewer` (a story that
 * does not exist yet: the stream's next request creates it); `commentCounts` (a list of numbers
 * holds no entity an event could name). A mutation's answer waits for the invalidations it
 * started, so a moderator's rejection has left every cached view when their request returns.
 */
export function useReadCache({ cache, ttlMs, sharedMaxAgeSeconds }: ReadCacheOptions): Plugin[] {
  const anonymous = (request: Request) => !request.headers.has('authorization');
  // An operation over WebSocket has no request (its context holds the upgrade's `req`): a query
  // sent there (a script's) is neither read from the cache nor kept, and must not crash on it —
  // it closed the socket with 4500 before.
  const overHttp = (request: Request | undefined): request is Request => request !== undefined;
  return [
    useResponseCache({
      // On for signed-in POSTs too, so that a moderator's mutation drops the entities it returns
      // (a closed story, a renamed user); a signed-in reader's answers are never kept (their key
      // is marked private, and the store neither reads nor writes such keys).
      cache: {
        get: (id) => (id.startsWith(PRIVATE) ? undefined : cache.store.get(id)),
        set: (id, ...rest) => (id.startsWith(PRIVATE) ? undefined : cache.store.set(id, ...rest)),
        invalidate: (entities) => cache.store.invalidate(entities),
      },
      session: (request) => (overHttp(request) && anonymous(request) ? null : PRIVATE),
      // Not for a signed-in GET at all: its If-None-Match may name an anonymous answer to the
      // same URL (a browser revalidating what it kept before sign-in), which must not be a 304.
      enabled: (request) => overHttp(request) && (anonymous(request) || request.method !== 'GET'),
      ttl: ttlMs,
      // commentsSince: every reconnecting reader asks with a `since` of its own (nothing to
      // share), and its answer names no story an event would drop it by.
      // recentComments: a removal or an edit drops a list at once (its comments are entities),
      // and so does a new comment on a story the list shows; one on another story of the site
      // shows within RECENT_TTL_MS.
      ttlPerSchemaCoordinate: {
        'Query.commentCounts': 0,
        'Query.commentsSince': 0,
        'Query.recentComments': RECENT_TTL_MS,
      },
      includeExtensionMetadata: false,
      // Synchronous and cheap (the library's default hashes with WebCrypto, a promise per read).
      buildResponseCacheKey: readCacheKey,
      shouldCacheResult: ({ cacheKey, result }) =>
        !cacheKey.startsWith(PRIVATE) && !result.errors?.length && !hasNullRoot(result),
    }),
    {
      // No answer leaves before the invalidations started so far are done: a mutation's own, and
      // (rarely, briefly) another's, so no reader is told of a change the cache still hides.
      onResultProcess: () => cache.settled(),
      onResponse({ request, response }) {
        if (request.method !== 'GET' || response.status !== 200) return;
        const cacheControl = !anonymous(request)
          ? 'private, no-cache'
          : response.headers.has('etag')
            ? `public, max-age=0, s-maxage=${sharedMaxAgeSeconds}`
            : 'no-store';
        response.headers.set('cache-control', cacheControl);
        // One URL, two answers: a cache must not give the anonymous one to a signed-in reader.
        response.headers.append('vary', 'Authorization');
      },
    },
  ];
}

/** What a cached answer is keyed by (the fast path of fastReads.ts builds the same). */
export function readCacheKey({
  operationName,
  documentString,
  variableValues,
  sessionId,
}: {
  operationName?: string | null;
  documentString: string;
  variableValues?: Record<string, unknown> | null;
  sessionId?: string | null;
}): string {
  const question = `${operationName ?? ''}\0${documentString}\0${JSON.stringify(variableValues)}`;
  return (sessionId ?? '') + createHash('sha256').update(question).digest('base64url');
}

/** Marks the cache key of a signed-in reader's answer: never kept. */
const PRIVATE = 'private:';

/** A null root field but `viewer` (null for every anonymous reader). */
function hasNullRoot(result: ExecutionResult): boolean {
  return Object.entries(result.data ?? {}).some(
    ([field, value]) => value === null && field !== 'viewer',
  );
}
