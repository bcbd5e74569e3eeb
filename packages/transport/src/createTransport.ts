import {
  Client,
  fetchExchange,
  makeOperation,
  mapExchange,
  subscriptionExchange,
} from '@urql/core';
import { createResilientFetch } from './createResilientFetch';
import { DEFAULTS } from './defaults';
import { lazily } from './lazily';
import { documentId, lruCacheExchange } from './lruCacheExchange';
import { mutationKeyExchange } from './mutationKeyExchange';
import { withReactNativeFiles } from './reactNativeFiles';
import { toTransportError } from './TransportError';
import type {
  ReportContext,
  SocketStatus,
  StorageOptions,
  Transport,
  TransportOptions,
  TransportStorage,
} from './types';

/**
 * Creates the network layer of a Parley client: an urql Client whose queries and mutations are
 * POSTed with a per-attempt timeout and fixed retries, cached in a bounded LRU, and whose
 * subscriptions share one graphql-ws socket; plus error reports and offline storage.
 * Nothing is opened until it is used: the socket connects with the first subscription, the
 * storage probes its backend on first access, Sentry loads only when a DSN is given.
 */
export function createTransport(options: TransportOptions): Transport {
  const {
    url,
    getToken = () => null,
    requestTimeoutMs = DEFAULTS.requestTimeoutMs,
    retryDelaysMs = DEFAULTS.retryDelaysMs,
    fetch: fetchImpl = globalThis.fetch.bind(globalThis),
    persisted,
  } = options;
  const wsUrl = options.wsUrl ?? toWebSocketUrl(url);
  const cache = withDefaults(DEFAULTS.queryCache, options.queryCache);
  const socketOptions = {
    timeoutMs: options.socket?.timeoutMs ?? DEFAULTS.socket.timeoutMs,
    backoff: withDefaults(DEFAULTS.socket.backoff, options.socket?.backoff),
  };
  const reports = withDefaults(DEFAULTS.errorReports, options.errorReports);
  const storageOptions = withDefaults(DEFAULTS.storage, options.storage);

  const lifetime = new AbortController();
  let disposed = false;

  // Without a DSN the Sentry code never loads (a no-op, or a console line in development). With
  // one, the reporter module and the SDK arrive as lazy chunks; calls made meanwhile wait, in order.
  // The reporter's own chunk is small and loads with the first breadcrumb, so a report carries the
  // operations that led to it; the reporter loads the SDK itself only with the first report.
  const reporter = reports.dsn
    ? lazily(() => import('./createErrorReporter').then((m) => m.createErrorReporter(reports)))
    : undefined;
  const reportError = (error: unknown, context?: ReportContext): void => {
    if (disposed) return;
    if (reporter) void reporter.get().then((r) => r.report(error, context), ignore);
    else if (reports.development) console.error('[parley]', error, ...(context ? [context] : []));
  };
  const addBreadcrumb = (message: string, data?: Record<string, unknown>): void => {
    if (disposed || !reporter) return;
    void reporter
      .get()
      .then((r) => r.addBreadcrumb({ category: 'graphql', message, data }), ignore);
  };

  // The token is read for every request and every socket connection. When a request sees a
  // different token than the previous read (sign in / out), the socket is restarted so live
  // updates are authorized as the same user as the requests.
  let lastToken: string | null | undefined;
  const readToken = async (): Promise<string | null> => {
    const raw = await getToken();
    // An empty string means signed out, like null: no header, no connection param.
    const token = raw === undefined || raw === null || raw === '' ? null : raw;
    if (lastToken !== undefined && token !== lastToken) socket.value?.tokenChanged();
    lastToken = token;
    return token;
  };
  const getHeaders = async (): Promise<Record<string, string>> => {
    const token = await readToken();
    return token ? { authorization: `Bearer ${token}` } : {};
  };

  // The socket (graphql-ws and its supervision) loads with the first subscription, which is
  // also when it would connect; status listeners registered before that are kept here.
  const statusListeners = new Set<(status: SocketStatus) => void>();
  const emitStatus = (status: SocketStatus): void => {
    for (const listener of statusListeners) {
      try {
        listener(status);
      } catch (error) {
        // One broken listener must not silence the others (or the socket's own handling).
        reportError(error, { during: 'onStatusChange' });
      }
    }
  };
  const socket = lazily(() =>
    import('./createSocket').then((m) => {
      const created = m.createSocket({
        url: wsUrl,
        getToken: readToken,
        timeoutMs: socketOptions.timeoutMs,
        backoff: socketOptions.backoff,
        WebSocket: options.WebSocket,
        onError: reportError,
      });
      created.onStatusChange(emitStatus);
      // A socket created while the browser is offline starts so, with no change to report.
      if (created.status !== 'idle') emitStatus(created.status);
      return created;
    }),
  );

  const shared = {
    fetch: fetchImpl,
    getHeaders,
    timeoutMs: requestTimeoutMs,
    signal: lifetime.signal,
  };
  const fetchWithRetry = createResilientFetch({ ...shared, retryDelaysMs });
  const fetchOnce = createResilientFetch({ ...shared, retryDelaysMs: [] });

  const client = new Client({
    url,
    fetch: fetchWithRetry,
    // Queries by id fit in a URL: GET, which a cache in front of the server can keep. Text POSTs.
    preferGetMethod: !!persisted && 'within-url-limit',
    requestPolicy: 'cache-first',
    exchanges: [
      mapExchange({
        onOperation(operation) {
          // urql leaves the text out of a request whose extensions name a persisted query. The
          // id is not the SHA-256 urql's type (Apollo's protocol) expects: it names the document
          // in the server's list, which is all trusted documents need (see `documentId`).
          if (persisted)
            operation.extensions = {
              ...operation.extensions,
              persistedQuery: { documentId: documentId(operation.query) } as never,
            };
          if (operation.kind !== 'mutation' || !operation.variables) return operation;
          const variables = withReactNativeFiles(operation.variables);
          return variables === operation.variables
            ? operation
            : makeOperation('mutation', { ...operation, variables }, operation.context);
        },
        onResult(result) {
          const error = result.error && toTransportError(result.error);
          addBreadcrumb(
            `${result.operation.kind} ${operationName(result.operation.query)}`,
            error ? { code: error.code } : undefined,
          );
          return error ? { ...result, error } : result;
        },
      }),
      mutationKeyExchange({ fetchOnce }),
      lruCacheExchange({ max: cache.max, ttlMs: cache.ttlMs }),
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query ?? '' };
          return {
            subscribe(sink) {
              let unsubscribe: (() => void) | undefined;
              let cancelled = false;
              if (disposed) {
                sink.complete();
                return { unsubscribe: ignore };
              }
              socket.get().then((loaded) => {
                if (!cancelled) unsubscribe = loaded.client.subscribe(input, sink);
              }, sink.error);
              return {
                unsubscribe() {
                  cancelled = true;
                  unsubscribe?.();
                },
              };
            },
          };
        },
      }),
      fetchExchange,
    ],
  });

  const storage = createLazyStorage(storageOptions);

  return {
    client,
    storage,
    get status() {
      return socket.value?.status ?? 'idle';
    },
    reportError,
    onStatusChange(listener) {
      statusListeners.add(listener);
      return () => void statusListeners.delete(listener);
    },
    lastHeard: () => socket.value?.lastHeard(),
    tokenChanged: () => socket.value?.tokenChanged(),
    async dispose() {
      disposed = true;
      lifetime.abort();
      statusListeners.clear();
      await Promise.all([
        socket.started && socket.get().then((s) => s.dispose(), ignore),
        reporter?.started && reporter.get().then((r) => r.dispose(), ignore),
      ]);
    },
  };
}

/** `http(s)://host/graphql` → `ws(s)://host/graphql`; a relative URL resolves against the page. */
export function toWebSocketUrl(url: string): string {
  const base = typeof location === 'undefined' ? undefined : location.href;
  const parsed = new URL(url, base);
  parsed.protocol = parsed.protocol === 'https:' ? 'wss:' : 'ws:';
  return parsed.toString();
}

/**
 * Offline storage whose backends load with its first use. Every method is async already, and
 * `backend` reads `'memory'` until the probe has run, as `createStorage` itself documents.
 */
function createLazyStorage(options: Required<StorageOptions>): TransportStorage {
  const storage = lazily(() => import('./createStorage').then((m) => m.createStorage(options)));
  const use = <R>(run: (loaded: TransportStorage) => Promise<R>): Promise<R> =>
    storage.get().then(run);
  return {
    get backend() {
      return storage.value?.backend ?? 'memory';
    },
    get: <T>(key: string) => use((s) => s.get<T>(key)),
    set: (key, value) => use((s) => s.set(key, value)),
    remove: (key) => use((s) => s.remove(key)),
    keys: () => use((s) => s.keys()),
    usage: () => use((s) => s.usage()),
  };
}

function ignore(): void {}

/**
 * `defaults` overridden by the given values that are not undefined. A spread would let an
 * explicit `{ max: undefined }` erase a default (an unbounded cache, a NaN backoff).
 */
function withDefaults<D extends object, G extends object>(
  defaults: D,
  given: G | undefined,
): Widen<D> & G {
  const merged: Record<string, unknown> = { ...(defaults as Record<string, unknown>) };
  for (const [key, value] of Object.entries(given ?? {})) {
    if (value !== undefined) merged[key] = value;
  }
  return merged as Widen<D> & G;
}

/** DEFAULTS' literal figures (`max: 100`) as the option types they default (`number`). */
type Widen<T> = {
  [K in keyof T]: T[K] extends number ? number : T[K] extends string ? string : T[K];
};

function operationName(query: { definitions: readonly unknown[] }): string {
  for (const definition of query.definitions) {
    const name = (definition as { name?: { value?: string } }).name?.value;
    if (name) return name;
  }
  return 'anonymous';
}
