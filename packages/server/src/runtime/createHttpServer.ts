import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { READINESS_CHECK_TIMEOUT_MS, REQUEST_BODY_MAX_BYTES } from '../defaults';
import type { Metrics } from './createMetrics';
import { GRAPHQL_PATH, createYogaApp } from './createYogaApp';
import type { ContextFactory, ParleyYoga } from './createYogaApp';
import { attachGraphQLWebSocket } from './attachGraphQLWebSocket';
import { trustedDocumentsFor } from './plugins/trustedDocuments';
import { FEEDS_PREFIX } from '../feeds/atomFeeds';
import type { FeedAnswer, FeedHandler } from '../feeds/atomFeeds';
import { COMMENTS_HTML_PATH } from '../feeds/commentsHtml';
import { STREAM_PAGE_PATH, createStreamPage } from './streamPage';
import type { StreamPageFiles, StreamPageHandler } from './streamPage';
import type { TrustedDocumentsOptions } from './plugins/trustedDocuments';
import type { ReadCacheOptions } from '../readCache/useReadCache';
import { createFastReads } from '../readCache/fastReads';
import type { WebSocketLimits } from './attachGraphQLWebSocket';
import { createOriginPolicy } from './plugins/originPolicy';
import type { OriginPolicy } from './plugins/originPolicy';
import { createStaticHandler } from './serveStatic';
import { createDocumentSecurity } from './documentSecurity';
import { operationNameIn, operationOf } from './plugins/operationName';
import type { AppRoute } from './serveStatic';
import { clientIp } from './clientIp';
import { sendJson, withTimeout } from './httpHelpers';
import type { ProviderRoutes } from '../auth/providers/providerRoutes';
import { PROVIDERS_PREFIX } from '../auth/providers/providerSignIn';
import { EXPORTS_PREFIX, IMPORTS_PREFIX } from '../portability/importJobs';
import type { PortabilityRoutes } from '../portability/importJobs';

/** Liveness endpoint for load balancers and orchestrators: the database and Redis answer. */
export const HEALTH_PATH = '/healthz';
/**
 * Readiness endpoint: every dependency answers and the data folder has room; 503 naming what
 * is wrong otherwise, so an orchestrator stops sending traffic and an operator sees why.
 */
export const READY_PATH = '/readyz';
/** Prometheus scrape endpoint. */
export const METRICS_PATH = '/metrics';
/**
 * How long `close()` lets in-flight HTTP requests finish before cutting them, in ms. Keep-alive
 * and idle sockets are closed at once; an SSE subscription would otherwise hold shutdown forever.
 */
export const SHUTDOWN_GRACE_MS = 5000;

/** Options of {@link createHttpServer}. */
export interface CreateHttpServerOptions {
  /** The executable schema (the real one, or a test schema). */
  schema: GraphQLSchema;
  /** Builds each operation's context from the bearer token and the request. */
  context: ContextFactory;
  /** The sites' permitted origins, for CORS and frame-ancestors (cached briefly). */
  getAllowedOrigins: () => Promise<string[]>;
  /** The server's public address; its origin is always allowed. @default undefined */
  publicUrl?: string;
  /** The custom stylesheet's URL (`customCssUrl`), whose origin the stream's CSP allows. */
  customStylesheets?: () => Promise<string[]>;
  /** URL prefix → directory of files to serve (bundles, the console). @default {} */
  staticRoutes?: Record<string, string | AppRoute>;
  /** The process logger. */
  logger: Logger;
  /** Metrics registry and instruments (see `createMetrics`). */
  metrics: Metrics;
  /**
   * The documents run by id, and whether other text may run.
   * @default the clients' manifest; arbitrary text outside production
   */
  trustedDocuments?: TrustedDocumentsOptions;
  /** The shared read cache of anonymous reads; none when absent. */
  readCache?: ReadCacheOptions;
  /** The stream's built files, to answer its page with the thread rendered (streamPage.ts). */
  streamPage?: StreamPageFiles;
  /** The Atom feeds under `/feeds/` (feeds/atomFeeds.ts); without it those paths are 404. */
  feeds?: FeedHandler;
  /** A story's comments as crawlable HTML (feeds/commentsHtml.ts); without it that path is 404. */
  commentsHtml?: FeedHandler;
  /** Provider sign-in under `/auth/providers/` (auth/providers/providerRoutes.ts); else 404. */
  providerRoutes?: ProviderRoutes;
  /** Import uploads and export downloads under `/api/` (portability/importJobs.ts); else 404. */
  portabilityRoutes?: PortabilityRoutes;
  /** Hide field suggestions and GraphiQL. @default false */
  production?: boolean;
  /** Largest HTTP body, in bytes. @default REQUEST_BODY_MAX_BYTES */
  maxRequestBodyBytes?: number;
  /** WebSocket bounds (sockets per address, operations, message size…). @default WS_LIMITS */
  webSocketLimits?: Partial<WebSocketLimits>;
  /** Viewers whose live results are alike share one execution (see attachGraphQLWebSocket). */
  viewerClass?: (context: unknown) => string | undefined;
  /** Extra readiness check for `/healthz` (database ping); a rejection answers 503. */
  healthCheck?: () => Promise<void>;
  /**
   * The checks of `/readyz`, by name (`database`, `redis`, `disk`…); each resolves when fine and
   * rejects with what is wrong. Each is given READINESS_CHECK_TIMEOUT_MS. @default {}
   */
  readinessChecks?: Record<string, () => Promise<void>>;
  /** Proxy hops in front of the server (`TRUST_PROXY`), for the caller's IP. @default 0 */
  trustedProxies?: number;
  /** When set, `/metrics` requires `Authorization: Bearer <token>`. @default undefined (public) */
  metricsToken?: string;
}

/** A running (or ready to run) Parley HTTP server. */
export interface HttpServer {
  /** The Node server, for tests and for attaching more upgrade handlers. */
  server: Server;
  /** The GraphQL handler; `yoga.fetch` runs operations in process. */
  yoga: ParleyYoga;
  /** CORS and frame-ancestors; `invalidate()` when a site's permitted origins change. */
  originPolicy: OriginPolicy;
  /** Starts listening; resolves the bound port (useful with port 0). */
  listen(port: number, host: string): Promise<number>;
  /** Ends every WebSocket and HTTP connection; resolves when the server is fully closed. */
  close(): Promise<void>;
}

/** The path of a request target, or undefined when it is not a URL at all. */
function pathOf(target: string | undefined): string | undefined {
  try {
    return new URL(target ?? '/', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

/** An `X-Request-Id` kept as given (a proxy's); anything else is replaced by a UUID. */
const SANE_REQUEST_ID = /^[\w.:-]{1,64}$/;

/** Fixed route labels for metrics, so a scan of random URLs cannot explode label cardinality. */
type RouteLabel =
  | 'graphql'
  | 'healthz'
  | 'readyz'
  | 'metrics'
  | 'feed'
  | 'comments_html'
  | 'auth'
  | 'portability'
  | 'static'
  | 'not_found';

/**
 * One process, one port: GraphQL over HTTP and graphql-ws on `/graphql`, static files under the
 * given prefixes, `/healthz` and `/metrics`.
 */
export function createHttpServer({
  schema,
  context,
  getAllowedOrigins,
  publicUrl,
  customStylesheets,
  staticRoutes = {},
  logger,
  metrics,
  production = false,
  maxRequestBodyBytes = REQUEST_BODY_MAX_BYTES,
  healthCheck,
  readinessChecks = {},
  trustedProxies = 0,
  metricsToken,
  webSocketLimits,
  viewerClass,
  trustedDocuments = trustedDocumentsFor(production),
  readCache,
  streamPage: streamPageFiles,
  feeds,
  commentsHtml,
  providerRoutes,
  portabilityRoutes,
}: CreateHttpServerOptions): HttpServer {
  const originPolicy = createOriginPolicy({ getAllowedOrigins, publicUrl, logger });
  const yoga = createYogaApp({
    schema,
    context,
    originPolicy,
    logger,
    production,
    maxRequestBodyBytes,
    trustedProxies,
    trustedDocuments,
    readCache,
  });
  const documents = createDocumentSecurity({
    originPolicy,
    publicUrl,
    stylesheets: customStylesheets,
  });
  const serveStatic = createStaticHandler({ routes: staticRoutes, documents });
  // Kept answers to anonymous GETs go out before yoga (fastReads.ts).
  const fastRead = readCache
    ? createFastReads({
        cache: readCache.cache,
        documents: trustedDocuments.documents,
        sharedMaxAgeSeconds: readCache.sharedMaxAgeSeconds,
      })
    : undefined;
  // Loaded with the first request of the page (it imports the stream's server build).
  let streamPage: Promise<StreamPageHandler | undefined> | undefined;
  const renderStreamPage = (req: IncomingMessage, res: ServerResponse) =>
    (streamPage ??= streamPageFiles
      ? createStreamPage({
          files: streamPageFiles,
          documents,
          logger,
          // In process, with the caller's request as yoga's server context (their IP for limits).
          fetchGraphQL: async (url, init, request) => yoga.fetch(url, init, { req: request }),
        }).catch((error: unknown) => {
          logger.warn({ err: error }, 'The stream could not be loaded for server rendering');
          return undefined;
        })
      : Promise.resolve(undefined)).then((handler) => handler?.(req, res) ?? false);

  /** Routes a request; `label` is set before any byte is written, so the metric sees it. */
  async function route(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    label: (route: RouteLabel) => void,
  ): Promise<void> {
    if (pathname === GRAPHQL_PATH) {
      label('graphql');
      const hit = req.method === 'GET' ? await fastRead?.(req) : undefined;
      if (hit) res.writeHead(200, hit.headers).end(hit.body);
      else await yoga(req, res);
      return;
    }
    if (pathname === HEALTH_PATH) {
      label('healthz');
      const healthy = await answersInTime(healthCheck?.() ?? Promise.resolve()).then(
        () => true,
        (error: unknown) => (logger.warn({ err: error }, 'Health check failed'), false),
      );
      sendJson(res, healthy ? 200 : 503, { status: healthy ? 'ok' : 'error' });
      return;
    }
    if (pathname === READY_PATH) {
      label('readyz');
      const entries = await Promise.all(
        Object.entries(readinessChecks).map(async ([name, check]) => {
          const outcome = await answersInTime(check()).then(
            () => 'ok',
            (error: unknown) => (error instanceof Error ? error.message : String(error)),
          );
          return [name, outcome] as const;
        }),
      );
      const ready = entries.every(([, outcome]) => outcome === 'ok');
      if (!ready) logger.warn({ checks: Object.fromEntries(entries) }, 'Not ready');
      sendJson(res, ready ? 200 : 503, {
        status: ready ? 'ok' : 'unavailable',
        checks: Object.fromEntries(entries),
      });
      return;
    }
    if (pathname === METRICS_PATH) {
      label('metrics');
      if (metricsToken !== undefined && !bearerMatches(req.headers.authorization, metricsToken)) {
        res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
        return;
      }
      const body = await metrics.registry.metrics();
      res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body);
      return;
    }
    const reading = req.method === 'GET' || req.method === 'HEAD';
    // Labelled before the answer: a feed that fails is counted as a feed's failure.
    if (feeds && reading && pathname.startsWith(FEEDS_PREFIX)) {
      label('feed');
      if (sendFeedAnswer(req, res, await feeds(new URL(req.url ?? pathname, 'http://feeds'))))
        return;
    }
    if (commentsHtml && reading && pathname === COMMENTS_HTML_PATH) {
      label('comments_html');
      if (sendFeedAnswer(req, res, await commentsHtml(new URL(req.url ?? pathname, 'http://x'))))
        return;
    }
    if (
      portabilityRoutes &&
      (pathname.startsWith(IMPORTS_PREFIX) || pathname.startsWith(EXPORTS_PREFIX))
    ) {
      label('portability');
      if (await portabilityRoutes(req, res, pathname)) return;
    }
    if (providerRoutes && pathname.startsWith(PROVIDERS_PREFIX)) {
      label('auth');
      if (await providerRoutes(req, res, pathname, clientIp(req, trustedProxies))) return;
    }
    label('static');
    if (
      pathname === STREAM_PAGE_PATH &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      (await renderStreamPage(req, res))
    )
      return;
    if (await serveStatic(req, res)) return;
    label('not_found');
    sendJson(res, 404, { error: 'Not found' });
  }

  // The operations a metric is labelled with: Parley's own (a request's own text could name any).
  const ownOperations = new Set(
    [...trustedDocuments.documents.values()].map((text) => operationNameIn(text)),
  );
  /** Set by `close()`: from then on each answer ends its connection. */
  let closing = false;
  const server = createServer((req, res) => {
    const started = performance.now();
    // A keep-alive connection that keeps bringing requests is never idle, so `close()` would
    // serve it until the grace period cut it (mid-request, 5 s later): once closing, each
    // connection is closed after the answer it is getting.
    if (closing) res.setHeader('connection', 'close');
    // A request that came before `close()` is answered with the connection kept: closed once
    // that answer is out (it is then idle), not at the cut.
    res.once('finish', () => {
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    // Node's parser takes request targets the URL parser refuses (`//[`): those get a 400, and
    // nothing below (the log line included, in a 'close' listener) parses the target again.
    const pathname = pathOf(req.url);
    const stopTimer = metrics.httpRequestDuration.startTimer({ method: req.method ?? 'GET' });
    let label: RouteLabel = 'not_found';
    // A proxy's id for the request (only behind one: a client's own would let it pose as
    // another request in the log), when sane; else one of ours. Sent back, and in the request's
    // log line, so a reader's report can be found.
    const given = trustedProxies > 0 ? req.headers['x-request-id'] : undefined;
    const reqId = typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('x-request-id', reqId);
    // 'close' fires for finished and for aborted responses alike: every request is counted once.
    res.once('close', () => {
      const status = res.statusCode;
      stopTimer({ route: label, status: String(status) });
      const operation = operationOf(req);
      const ms = performance.now() - started;
      if (label === 'graphql') {
        metrics.operationDuration.observe(
          { operation: operation && ownOperations.has(operation) ? operation : 'other' },
          ms / 1000,
        );
      }
      // One line per request: never the query string (it can carry variables), never a body.
      logger.info(
        {
          reqId,
          method: req.method,
          // A replies feed's path holds its reader's key: as good as their sign-in.
          path: pathname === undefined ? '(not a URL)' : loggedPath(pathname),
          route: label,
          operation,
          status,
          ms: Math.round(ms * 10) / 10,
          ...(res.writableFinished ? {} : { aborted: true }),
        },
        'request',
      );
    });
    if (pathname === undefined) {
      sendJson(res, 400, { error: 'Not a valid request URL.' });
      return;
    }
    route(req, res, pathname, (routed) => {
      label = routed;
    }).catch((error: unknown) => {
      logger.error({ err: error }, 'Unhandled error while serving a request');
      if (!res.headersSent) sendJson(res, 500, { error: 'Unexpected error.' });
      else res.destroy();
    });
  });
  const webSocket = attachGraphQLWebSocket({
    server,
    yoga,
    logger,
    activeWebSockets: metrics.activeWebSockets,
    trustedProxies,
    trustedDocuments,
    isOriginAllowed: (origin) => originPolicy.isAllowed(origin),
    limits: webSocketLimits,
    viewerClass,
  });
  metrics.watch({
    subscriptions: webSocket.subscriptions,
    sharedExecutions: webSocket.sharedExecutions,
  });

  return {
    server,
    yoga,
    originPolicy,
    listen: (port, host) =>
      new Promise<number>((resolvePort, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolvePort((server.address() as AddressInfo).port);
        });
      }),
    close: async () => {
      closing = true;
      await webSocket.close();
      if (!server.listening) return;
      const closed = new Promise<void>((resolveClose, reject) =>
        server.close((error) => (error ? reject(error) : resolveClose())),
      );
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      cut.unref();
      await closed.finally(() => clearTimeout(cut));
      await yoga.dispose();
    },
  };
}

/** `check`, or a rejection saying it did not answer within READINESS_CHECK_TIMEOUT_MS. */
function answersInTime(check: Promise<void>): Promise<void> {
  const ms = READINESS_CHECK_TIMEOUT_MS;
  return withTimeout(check, ms, () => new Error(`no answer within ${ms} ms`));
}

/** Constant-time check of `Authorization: Bearer <token>`, so timing does not leak the token. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A request's path as the log keeps it: a private feed's key left out. */
export function loggedPath(pathname: string): string {
  return pathname.startsWith('/feeds/replies/') ? '/feeds/replies/[key].atom' : pathname;
}

/**
 * Writes a feed's (or the comments' HTML) answer: 304 to a client holding its ETag, no body to a
 * HEAD. False when there was none (the path named nothing), so routing goes on.
 */
function sendFeedAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  answer: FeedAnswer | undefined,
): boolean {
  if (!answer) return false;
  const held =
    answer.headers['etag'] !== undefined && req.headers['if-none-match'] === answer.headers['etag'];
  res
    .writeHead(held ? 304 : answer.status, answer.headers)
    .end(held || req.method === 'HEAD' ? undefined : answer.body);
  return true;
}
