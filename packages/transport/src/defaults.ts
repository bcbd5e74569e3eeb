/**
 * The transport's defaults. Each figure is written here once; every other module and every test
 * reads it from here.
 */

/** A request with no complete response after this long is aborted and counts as a failed attempt. */
export const REQUEST_TIMEOUT_MS = 15_000;

/** Waits before the second and third attempt of a failed request. */
export const RETRY_DELAYS_MS: readonly number[] = Object.freeze([1_000, 3_000]);

/** Most query results kept in the cache; the least recently used is evicted first. */
export const QUERY_CACHE_MAX_ENTRIES = 100;

/** How long a cached query result stays fresh. */
export const QUERY_CACHE_TTL_MS = 900_000;

/** Connection-ack and keep-alive pong time-out of the subscription socket. */
export const SOCKET_TIMEOUT_MS = 30_000;

/** First reconnect wait. */
export const SOCKET_BACKOFF_MIN_MS = 100;

/** Longest reconnect wait. */
export const SOCKET_BACKOFF_MAX_MS = 10_000;

/** Growth of the reconnect wait per attempt. */
export const SOCKET_BACKOFF_FACTOR = 2;

/** Most breadcrumbs kept in an error report. */
export const ERROR_REPORT_MAX_BREADCRUMBS = 100;

/** Longest string value (message, breadcrumb) in an error report, in characters. */
export const ERROR_REPORT_MAX_VALUE_LENGTH = 250;

/** How often queued error reports (and client reports) are flushed. */
export const ERROR_REPORT_FLUSH_INTERVAL_MS = 60_000;

/** Largest serialized error report; bigger ones are trimmed, or dropped if they cannot be. */
export const ERROR_REPORT_MAX_SERIALIZED_BYTES = 102_400;

/** Offline storage quota, in bytes (UTF-8 of key + JSON value). */
export const STORAGE_MAX_BYTES = 4_980_736;

/** Prefix / database name that keeps Parley's offline data apart from the host's. */
export const STORAGE_NAMESPACE = 'parley';

/** The defaults of every transport option, as one frozen object (the README's table). */
export const DEFAULTS = Object.freeze({
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  retryDelaysMs: RETRY_DELAYS_MS,
  queryCache: Object.freeze({ max: QUERY_CACHE_MAX_ENTRIES, ttlMs: QUERY_CACHE_TTL_MS }),
  socket: Object.freeze({
    timeoutMs: SOCKET_TIMEOUT_MS,
    backoff: Object.freeze({
      minMs: SOCKET_BACKOFF_MIN_MS,
      maxMs: SOCKET_BACKOFF_MAX_MS,
      factor: SOCKET_BACKOFF_FACTOR,
    }),
  }),
  errorReports: Object.freeze({
    maxBreadcrumbs: ERROR_REPORT_MAX_BREADCRUMBS,
    maxValueLength: ERROR_REPORT_MAX_VALUE_LENGTH,
    flushIntervalMs: ERROR_REPORT_FLUSH_INTERVAL_MS,
    maxSerializedBytes: ERROR_REPORT_MAX_SERIALIZED_BYTES,
  }),
  storage: Object.freeze({ maxBytes: STORAGE_MAX_BYTES, namespace: STORAGE_NAMESPACE }),
});
