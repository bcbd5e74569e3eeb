import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prefix of every Parley metric name (Prometheus convention: one namespace per service). */
export const METRICS_PREFIX = 'parley_';

/**
 * Histogram buckets for request durations, in seconds: from a cached query (~5 ms) to a slow
 * upload; prom-client's defaults stop at 10 s, which hides nothing here, but start too coarse.
 */
export const HTTP_DURATION_BUCKETS_SECONDS = Object.freeze([
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
]);

/**
 * Buckets of the pub/sub lag, in seconds: in one process an event arrives within a millisecond;
 * through Redis a few; a backed-up subscriber connection shows as seconds.
 */
export const PUBSUB_LAG_BUCKETS_SECONDS = Object.freeze([
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
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
  /**
   * `parley_graphql_operation_duration_seconds{operation}` over HTTP: `operation` is the name of
   * one of Parley's trusted documents, or `other` (a name in a request's own text is not a label).
   */
  operationDuration: Histogram<'operation'>;
  /** `parley_read_cache_lookups_total{result}`: `hit` or `miss` of the shared read cache. */
  readCacheLookups: Counter<'result'>;
  /** `parley_rate_limit_refusals_total{action}`: requests refused by a rate limit. */
  rateLimitRefusals: Counter<'action'>;
  /**
   * `parley_emails_total{result}`: `sent` (SMTP), `filed` (the outbox), `queued` (to try again)
   * or `failed` (given up).
   */
  emails: Counter<'result'>;
  /**
   * `parley_webhook_deliveries_total{result}`: attempts `delivered`, `retrying` (to try again) or
   * `failed` (given up).
   */
  webhookDeliveries: Counter<'result'>;
  /** `parley_job_runs_total{job,result}`: runs of the background jobs, `ok` or `failed`. */
  jobRuns: Counter<'job' | 'result'>;
  /** `parley_graphql_subscriptions_active`: running operations on sockets, counted when scraped. */
  activeSubscriptions: Gauge;
  /**
   * `parley_graphql_subscription_executions_shared`: executions fanned out to several readers
   * (one per story and operation for its anonymous readers), counted when scraped.
   */
  sharedExecutions: Gauge;
  /** `parley_db_pool_connections{state}` (PostgreSQL): `total`, `idle`, `waiting` clients. */
  dbPool: Gauge<'state'>;
  /**
   * `parley_pubsub_lag_seconds{topic}`: from an event's publication (in any process) to its
   * arrival in this one, once per event (createPubSub's `onDelivered`).
   */
  pubsubLag: Histogram<'topic'>;
  /** What the scraped gauges read (each set once by whoever owns the numbers). */
  watch(sources: {
    subscriptions?(): number;
    sharedExecutions?(): number;
    pool?(): Record<'total' | 'idle' | 'waiting', number>;
  }): void;
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
  let countSubscriptions: (() => number) | undefined;
  let countShared: (() => number) | undefined;
  let readPool: (() => Record<'total' | 'idle' | 'waiting', number>) | undefined;
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
    operationDuration: new Histogram({
      name: `${METRICS_PREFIX}graphql_operation_duration_seconds`,
      help: "Duration of GraphQL requests over HTTP, by operation (Parley's own; others are `other`).",
      labelNames: ['operation'],
      buckets: [...HTTP_DURATION_BUCKETS_SECONDS],
      registers: [registry],
    }),
    readCacheLookups: new Counter({
      name: `${METRICS_PREFIX}read_cache_lookups_total`,
      help: 'Lookups of the shared read cache, by result (hit, miss).',
      labelNames: ['result'],
      registers: [registry],
    }),
    rateLimitRefusals: new Counter({
      name: `${METRICS_PREFIX}rate_limit_refusals_total`,
      help: 'Requests refused by a rate limit, by action.',
      labelNames: ['action'],
      registers: [registry],
    }),
    emails: new Counter({
      name: `${METRICS_PREFIX}emails_total`,
      help: 'Emails, by result (sent over SMTP, filed in the outbox, failed).',
      labelNames: ['result'],
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: `${METRICS_PREFIX}webhook_deliveries_total`,
      help: 'Webhook delivery attempts, by result (delivered, retrying, failed).',
      labelNames: ['result'],
      registers: [registry],
    }),
    jobRuns: new Counter({
      name: `${METRICS_PREFIX}job_runs_total`,
      help: 'Runs of the background jobs, by job and result (ok, failed).',
      labelNames: ['job', 'result'],
      registers: [registry],
    }),
    activeSubscriptions: new Gauge({
      name: `${METRICS_PREFIX}graphql_subscriptions_active`,
      help: 'GraphQL operations running on WebSockets (subscriptions, mostly).',
      registers: [registry],
      collect() {
        this.set(countSubscriptions?.() ?? 0);
      },
    }),
    sharedExecutions: new Gauge({
      name: `${METRICS_PREFIX}graphql_subscription_executions_shared`,
      help: 'Subscription executions whose results go to every anonymous reader of a story.',
      registers: [registry],
      collect() {
        this.set(countShared?.() ?? 0);
      },
    }),
    dbPool: new Gauge({
      name: `${METRICS_PREFIX}db_pool_connections`,
      help: 'PostgreSQL pool clients, by state (total, idle, waiting for a client).',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const pool = readPool?.();
        if (!pool) return;
        for (const state of ['total', 'idle', 'waiting'] as const) this.set({ state }, pool[state]);
      },
    }),
    pubsubLag: new Histogram({
      name: `${METRICS_PREFIX}pubsub_lag_seconds`,
      help: 'Time from the publication of a live-update event to its arrival in this process.',
      labelNames: ['topic'],
      buckets: [...PUBSUB_LAG_BUCKETS_SECONDS],
      registers: [registry],
    }),
    watch(sources) {
      countSubscriptions = sources.subscriptions ?? countSubscriptions;
      countShared = sources.sharedExecutions ?? countShared;
      readPool = sources.pool ?? readPool;
    },
  };
}
