import type { Plugin, YogaServerOptions } from 'graphql-yoga';
import type { Logger } from 'pino';

/**
 * How long the sites' permitted origins are reused before asking storage again, in ms. A change
 * of a site clears the list at once on every process (`sitesChanged` on the pub/sub, through
 * Redis when there is one); this expiry only bounds how long a lost announcement (Redis away at
 * that moment) keeps a stale list.
 */
export const ALLOWED_ORIGINS_CACHE_TTL_MS = 300_000;

/** How long a browser may reuse a CORS preflight answer, in seconds. */
export const CORS_MAX_AGE_SECONDS = 600;

/**
 * Request headers cross-origin clients may send: the bearer token, JSON or multipart bodies,
 * and the transport's `Idempotency-Key` on mutations (its retries must never post twice).
 */
export const CORS_ALLOWED_HEADERS = Object.freeze([
  'Authorization',
  'Content-Type',
  'Accept',
  'Idempotency-Key',
]);

/** Methods the GraphQL endpoint answers cross-origin. */
export const CORS_ALLOWED_METHODS = Object.freeze(['GET', 'POST', 'OPTIONS']);

/** Response header that limits which pages may frame ours (the stream iframe, the console). */
export const CSP_HEADER = 'Content-Security-Policy';

/** Options of {@link createOriginPolicy}. */
export interface OriginPolicyOptions {
  /** The sites' permitted origins (e.g. from storage); results are cached {@link ALLOWED_ORIGINS_CACHE_TTL_MS}. */
  getAllowedOrigins: () => Promise<string[]>;
  /** The server's own public address; its origin is always allowed. @default undefined */
  publicUrl?: string;
  /** Cache time to live, in ms. @default ALLOWED_ORIGINS_CACHE_TTL_MS */
  cacheTtlMs?: number;
  /** Where a failed origin lookup is reported. */
  logger?: Pick<Logger, 'error'>;
  /** Clock, for tests. @default Date.now */
  now?: () => number;
}

/** Which origins may call the API and frame Parley's pages. */
export interface OriginPolicy {
  /** Forgets the cached origins: the next request loads them again (a site changed). */
  invalidate(): void;
  /** The normalized allowed origins (cached), the public origin first. */
  allowedOrigins(): Promise<string[]>;
  /** True when `origin` (an `Origin` header value) is allowed. */
  isAllowed(origin: string | null): Promise<boolean>;
  /** The value of {@link CSP_HEADER}: `frame-ancestors 'self' <origins>`. */
  contentSecurityPolicy(): Promise<string>;
}

/**
 * Creates the origin policy. Origins are normalized through `URL` (scheme://host:port, no path)
 * and anything unparsable is dropped: an origin is pasted into a header, so a stray `;` or space
 * from an admin form must not be able to add directives to the CSP.
 */
export function createOriginPolicy({
  getAllowedOrigins,
  publicUrl,
  cacheTtlMs = ALLOWED_ORIGINS_CACHE_TTL_MS,
  logger,
  now = Date.now,
}: OriginPolicyOptions): OriginPolicy {
  const own = publicUrl === undefined ? [] : [normalizeOrigin(publicUrl)].filter(isString);
  let cached: { at: number; origins: Promise<string[]> } | undefined;

  async function load(): Promise<string[]> {
    try {
      const origins = (await getAllowedOrigins()).map(normalizeOrigin).filter(isString);
      // None yet (not installed): not cached, so the origins the install wizard just saved
      // frame the stream at once — its done step links straight to the example page.
      if (origins.length === 0) cached = undefined;
      return [...new Set([...own, ...origins])];
    } catch (error) {
      // Fail closed: without the list, only our own origin is trusted. Not cached, so the next
      // request retries storage.
      logger?.error({ err: error }, 'Could not load the permitted origins');
      cached = undefined;
      return own;
    }
  }

  const policy: OriginPolicy = {
    invalidate() {
      cached = undefined;
    },
    allowedOrigins() {
      if (cached === undefined || now() - cached.at >= cacheTtlMs) {
        // The promise is cached, not the value: concurrent requests share one lookup.
        cached = { at: now(), origins: load() };
      }
      return cached.origins;
    },
    async isAllowed(origin) {
      if (origin === null) return false;
      return (await policy.allowedOrigins()).includes(origin);
    },
    async contentSecurityPolicy() {
      return ["frame-ancestors 'self'", ...(await policy.allowedOrigins())].join(' ');
    },
  };
  return policy;
}

/**
 * yoga's `cors` option for a policy: an allowed origin is echoed (never `*`, and no credentials:
 * Parley uses bearer tokens, not cookies); any other origin gets no CORS headers at all, so the
 * browser blocks the response.
 */
export function corsOptions(
  policy: OriginPolicy,
): NonNullable<YogaServerOptions<object, object>['cors']> {
  return async (request: Request) => {
    const origin = request.headers.get('origin');
    if (origin === null || !(await policy.isAllowed(origin))) return false;
    return {
      origin,
      credentials: false,
      methods: [...CORS_ALLOWED_METHODS],
      allowedHeaders: [...CORS_ALLOWED_HEADERS],
      maxAge: CORS_MAX_AGE_SECONDS,
    };
  };
}

/**
 * A yoga plugin that adds the frame-ancestors CSP and `Vary: Origin` (the CORS answer depends on
 * the origin, so a shared cache must not serve one site's answer to another).
 */
export function useOriginPolicy(policy: OriginPolicy): Plugin {
  return {
    async onResponse({ response }) {
      response.headers.set(CSP_HEADER, await policy.contentSecurityPolicy());
      const vary = response.headers.get('vary');
      if (vary === null || !/\borigin\b/i.test(vary)) {
        response.headers.set('vary', vary === null ? 'Origin' : `${vary}, Origin`);
      }
    },
  };
}

/** `https://a.example/path` → `https://a.example`; undefined when it is not an http(s) URL. */
export function normalizeOrigin(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function isString(value: string | undefined): value is string {
  return value !== undefined;
}
