import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prefix of every Parley metric name (Prometheus convention: one namespace per service). */
export const METRICS_PREFIX = 'parley_';

/**
 * Histogram buckets for request durations, in seconds: from a cached query (~5 ms) to a slow
 * upload; prom-client's defaults stop at 10 s, which hides nothing here, but start too coarse.
 */
export const HTTP_DURATION_BUCKETS_SECONDS = Object.freeze([
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
]);

/** Labels of the request-duration histogram; `route` is a fixed set, never the raw URL. */
export type HttpMetricLabel = 'method' | 'route' | 'status';

/** The server's metrics, on a registry of their own. */
export interface Metrics {
  /** The registry `/metrics` serializes. */
  registry: Registry;
  /** `parley_http_request_duration_seconds{method,route,status}`. */
  httpRequestDuration: Histogram<HttpMetricLabel>;
  /** `parley_websocket_connections_active`: open graphql-ws sockets. */
  activeWebSockets: Gauge;
}

/** Options of {@link createMetrics}. */
export interface CreateMetricsOptions {
  /** Also collect Node's default metrics (event loop lag, heap, GC, handles). @default true */
  defaultMetrics?: boolean;
}

/**
 * Creates a registry with the HTTP and WebSocket metrics. A registry per server (not prom-client's
 * global one) lets tests and multi-server processes create several without name clashes.
 */
export function createMetrics({ defaultMetrics = true }: CreateMetricsOptions = {}): Metrics {
  const registry = new Registry();
  if (defaultMetrics) collectDefaultMetrics({ register: registry, prefix: METRICS_PREFIX });
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: `${METRICS_PREFIX}http_request_duration_seconds`,
      help: 'Duration of HTTP requests, by method, route and status code.',
      labelNames: ['method', 'route', 'status'],
      buckets: [...HTTP_DURATION_BUCKETS_SECONDS],
      registers: [registry],
    }),
    activeWebSockets: new Gauge({
      name: `${METRICS_PREFIX}websocket_connections_active`,
      help: 'Open GraphQL WebSocket connections.',
      registers: [registry],
    }),
  };
}
