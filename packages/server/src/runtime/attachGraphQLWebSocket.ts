import type { IncomingMessage, Server } from 'node:http';
import type { ExecutionArgs, ExecutionResult, GraphQLFormattedError } from 'graphql';
import { GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import type { Gauge } from 'prom-client';
import { WebSocket, WebSocketServer } from 'ws';
import { GRAPHQL_PATH, WS_CONTEXT_INIT, parseBearer } from './createYogaApp';
import { documentRefusal, resolveTrustedDocument } from './plugins/trustedDocuments';
import type { TrustedDocumentsOptions } from './plugins/trustedDocuments';
import type { ContextInit, ParleyYoga } from './createYogaApp';
import { UNEXPECTED_ERROR_MESSAGE, codeRequestError, createMaskError } from './plugins/maskError';
import { clientIp } from './clientIp';
import { rateLimitNetwork } from '../db/store/ipBans';

/** The per-address socket count's key: an IPv6 caller by their /64, as the rate limits count. */
const networkOf = (ip: string | undefined): string =>
  ip === undefined ? '' : rateLimitNetwork(ip);
import { ACCESS_CHECK_ONLY, createSubscriptionSharing } from './shareSubscriptions';
import { WS_LIMITS } from '../defaults';
import type { ServerErrorCode } from '@parley/contract';

/** WebSocket close code "going away" (RFC 6455 §7.4.1): the server is shutting down. */
export const CLOSE_GOING_AWAY = 1001;
/**
 * Close code of a socket that fell too far behind its live results (shareSubscriptions.ts), or
 * whose shared execution failed: not one of graphql-ws's fatal codes, so the client reconnects.
 */
export const CLOSE_FELL_BEHIND = 4110;

/** How long `close()` waits for clients to answer the close frame before cutting them, in ms. */
export const WS_CLOSE_GRACE_MS = 1000;

/** graphql-ws `connectionParams` key holding the bearer token. */
export const CONNECTION_PARAMS_AUTHORIZATION = 'authorization';

/** Options of {@link attachGraphQLWebSocket}. */
export interface AttachGraphQLWebSocketOptions {
  /** The HTTP server whose upgrades on `/graphql` become graphql-ws connections. */
  server: Server;
  /** The yoga app: its envelop plugins (masking, armor, context) run for WS operations too. */
  yoga: ParleyYoga;
  /** Where unexpected errors go. */
  logger: Logger;
  /**
   * Bounds: sockets per address, operations per socket and per story, message size (`ws` closes
   * the socket with 1009 above it), time to `connection_init` (graphql-ws closes with 4408).
   * @default WS_LIMITS
   */
  limits?: Partial<WebSocketLimits>;
  /** Counts open sockets. */
  activeWebSockets: Pick<Gauge, 'inc' | 'dec'>;
  /** Proxy hops in front of the server (`TRUST_PROXY`), for the caller's IP. @default 0 */
  trustedProxies?: number;
  /**
   * Whether a browser page of this origin may open a socket. Browsers send no CORS preflight
   * for WebSockets, so without it any page could run operations through a visitor's browser;
   * clients that are not browsers send no `Origin` and are let in. @default every origin
   */
  isOriginAllowed?: (origin: string) => Promise<boolean>;
  /** The documents run by id, and whether other text may run (as over HTTP). */
  trustedDocuments: TrustedDocumentsOptions;
  /**
   * The class of viewers an operation's context belongs to whose subscription results are the
   * same for every member (e.g. anonymous readers); undefined for a context whose results are
   * its own. Subscribers of one class, document and variables share one execution
   * (shareSubscriptions.ts). @default none: every subscription executes on its own
   */
  viewerClass?: (context: unknown) => string | undefined;
}

/** HTTP status refusing the upgrade of a page whose origin is not permitted. */
export const ORIGIN_REFUSED_STATUS = 403;
/** HTTP status refusing the upgrade of an address that has too many sockets open. */
export const TOO_MANY_SOCKETS_STATUS = 429;

/** Bounds of the WebSocket endpoint (see `WS_LIMITS`). */
export type WebSocketLimits = { [K in keyof typeof WS_LIMITS]: number };

/** What Yoga's envelop hands to graphql-ws through `rootValue` (the Yoga + graphql-ws recipe). */
type Run = (
  args: ExecutionArgs,
) => Promise<ExecutionResult | AsyncIterable<ExecutionResult>> | ExecutionResult;
type Enveloped = {
  execute: Run;
  subscribe: Run;
  shareKey: string | undefined;
  /** Closes the operation's socket (a shared subscriber that fell behind). */
  drop: () => void;
};

/**
 * graphql-ws on the server's `/graphql`, running every operation through yoga's envelop (the
 * recipe in examples/transport-demo), so masking, armor and the context factory behave as over
 * HTTP. Returns `close()`, which ends every socket: ws 8's `close()` leaves them open.
 */
export function attachGraphQLWebSocket({
  server,
  yoga,
  logger,
  activeWebSockets,
  trustedProxies = 0,
  isOriginAllowed = async () => true,
  limits: given = {},
  trustedDocuments,
  viewerClass = () => undefined,
}: AttachGraphQLWebSocketOptions): {
  close(): Promise<void>;
  /** Operations running on the open sockets now (for the metric). */
  subscriptions(): number;
  /** Executions shared by several subscribers running now. */
  sharedExecutions(): number;
} {
  const limits: WebSocketLimits = { ...WS_LIMITS, ...given };
  // Counted from the upgrade's acceptance to the socket's close, per client address.
  const socketsByIp = new Map<string, number>();
  const sockets = new WebSocketServer({
    server,
    path: GRAPHQL_PATH,
    maxPayload: limits.maxMessageBytes,
    verifyClient: (
      { origin, req }: { origin?: string; req: IncomingMessage },
      done: (ok: boolean, status?: number, message?: string) => void,
    ) => {
      if ((socketsByIp.get(networkOf(clientIp(req, trustedProxies))) ?? 0) >= limits.socketsPerIp) {
        return done(false, TOO_MANY_SOCKETS_STATUS, 'Too many open connections from this address');
      }
      if (origin === undefined || origin === '') return done(true);
      isOriginAllowed(origin).then(
        (ok) => done(ok, ORIGIN_REFUSED_STATUS),
        () => done(false, ORIGIN_REFUSED_STATUS),
      );
    },
  });
  const maskError = createMaskError({ logger });
  sockets.on('connection', (socket, req) => {
    const ip = networkOf(clientIp(req, trustedProxies));
    socketsByIp.set(ip, (socketsByIp.get(ip) ?? 0) + 1);
    activeWebSockets.inc();
    socket.once('close', () => {
      activeWebSockets.dec();
      const left = (socketsByIp.get(ip) ?? 1) - 1;
      if (left === 0) socketsByIp.delete(ip);
      else socketsByIp.set(ip, left);
    });
  });
  // The story each running operation of a socket is about, by operation id.
  const storyOf = new WeakMap<object, Map<string, string>>();
  // The running operations of each open socket (graphql-ws keeps them on its context).
  const running = new Map<object, Record<string, unknown>>();

  const sharing = createSubscriptionSharing();

  const graphqlWs = useServer<Record<string, unknown>>(
    {
      connectionInitWaitTimeout: limits.connectionInitTimeoutMs,
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      subscribe: async (args) => {
        const root = args.rootValue as Enveloped;
        const results = await sharing.subscribe(
          root.shareKey,
          (checkOnly) =>
            root.subscribe(
              checkOnly ? { ...args, rootValue: { ...root, [ACCESS_CHECK_ONLY]: true } } : args,
            ),
          root.drop,
        );
        if (root.shareKey !== undefined) {
          // graphql-ws keeps each operation's arguments while it runs (for `onNext`, which reads
          // only the result). A shared subscriber's own context — its loaders, its request, its
          // organization row — would then stay alive for nothing: ~20 KB per idle reader.
          Object.assign(args, { contextValue: undefined, rootValue: undefined });
        }
        return results;
      },
      onConnect: (ctx) => {
        const socket = ctx.extra.socket;
        running.set(socket, ctx.subscriptions);
        socket.once('close', () => running.delete(socket));
        // The acknowledgement carries the server's clock: a client that reconnects asks for
        // what was published since it last heard from the server, by the server's time.
        return { now: Date.now() };
      },
      onSubscribe: async (ctx, id, payload) => {
        const trusted = resolveTrustedDocument(payload, trustedDocuments);
        if ('refused' in trusted) return [documentRefusal(trusted.refused)];
        const overLimit = operationLimitError(ctx.subscriptions, storyOf, ctx.extra.socket, id, {
          storyKey: storyKeyOf(payload),
          limits,
        });
        if (overLimit !== undefined) return [overLimit];
        const upgrade: IncomingMessage = ctx.extra.request;
        const init: ContextInit = {
          token: wsToken(ctx.connectionParams?.[CONNECTION_PARAMS_AUTHORIZATION]),
          transport: 'ws',
          request: toFetchRequest(upgrade),
          ip: clientIp(upgrade, trustedProxies),
          connectionParams: ctx.connectionParams,
        };
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: upgrade,
          socket: ctx.extra.socket,
          params: payload,
          [WS_CONTEXT_INIT]: init,
        });
        try {
          const document = parse(trusted.query);
          // Validation errors are coded by the validation plugin (graphql-armor's too).
          const errors = validate(schema, document);
          if (errors.length > 0) return errors;
          const contextValue = await contextFactory();
          const viewers = viewerClass(contextValue);
          const socket = ctx.extra.socket;
          const root: Enveloped = {
            execute,
            subscribe,
            drop: () => socket.close(CLOSE_FELL_BEHIND, 'Fell behind its live updates'),
            shareKey:
              viewers === undefined
                ? undefined
                : JSON.stringify([
                    viewers,
                    payload.operationName,
                    trusted.query,
                    payload.variables,
                  ]),
          };
          return {
            schema,
            operationName: payload.operationName,
            document,
            variableValues: payload.variables,
            contextValue,
            rootValue: root,
          };
        } catch (error) {
          // graphql-ws would close the whole socket (4500) on a throw; an error message for this
          // one operation is what the client can act on (e.g. TOKEN_EXPIRED from the context).
          if (error instanceof GraphQLError && error.path === undefined && !error.originalError) {
            return [codeRequestError(error)];
          }
          return [maskError(error, UNEXPECTED_ERROR_MESSAGE) as GraphQLError];
        }
      },
      // `extensions.http` steers yoga's HTTP status; it means nothing on a socket, and yoga
      // strips it only from HTTP responses.
      onError: (_ctx, _id, _payload, errors) => errors.map(formatWithoutHttp),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors === undefined
          ? undefined
          : { ...result, errors: result.errors.map(formatWithoutHttp) },
    },
    sockets,
  );

  return {
    sharedExecutions: () => sharing.executions(),
    subscriptions: () => {
      let count = 0;
      for (const operations of running.values()) count += Object.keys(operations).length;
      return count;
    },
    close: async () => {
      const open = [...sockets.clients];
      const allClosed = Promise.all(open.map(whenClosed));
      // A polite 1001 first, so clients reconnect (to another instance) at once; then cut the
      // ones that do not answer within the grace period.
      // (ws' own close timeout is 30 s, and `dispose()` waits for every client.)
      const cut = setTimeout(() => open.forEach((socket) => socket.terminate()), WS_CLOSE_GRACE_MS);
      await Promise.all([graphqlWs.dispose(), allClosed]);
      clearTimeout(cut);
    },
  };
}

/**
 * The coded error refusing operation `id` when its socket is over a bound, else undefined (and
 * the operation is counted). graphql-ws has already registered `id` in `running`; ids that left
 * it are forgotten here, so nothing needs to hear about completions.
 */
function operationLimitError(
  running: Record<string, unknown>,
  storyOf: WeakMap<object, Map<string, string>>,
  socket: object,
  id: string,
  { storyKey, limits }: { storyKey: string; limits: WebSocketLimits },
): GraphQLError | undefined {
  const stories = storyOf.get(socket) ?? new Map<string, string>();
  storyOf.set(socket, stories);
  for (const known of stories.keys()) if (!(known in running)) stories.delete(known);
  const limited = (message: string) =>
    new GraphQLError(message, { extensions: { code: 'RATE_LIMITED' satisfies ServerErrorCode } });
  if (Object.keys(running).length > limits.subscriptionsPerSocket) {
    return limited(
      `At most ${limits.subscriptionsPerSocket} operations at once on one connection.`,
    );
  }
  const sameStory = [...stories.values()].filter((story) => story === storyKey).length;
  if (sameStory >= limits.subscriptionsPerStory) {
    return limited(
      `At most ${limits.subscriptionsPerStory} subscriptions to one story on one connection.`,
    );
  }
  stories.set(id, storyKey);
  return undefined;
}

/**
 * What an operation is about, for the per-story bound: its `storyId` variable (how clients
 * subscribe), else the operation itself, so the same inline subscription repeated counts too.
 */
function storyKeyOf(payload: { query: string; variables?: Record<string, unknown> | null }) {
  const storyId = payload.variables?.['storyId'];
  if (typeof storyId === 'string') return `story:${storyId}`;
  return `operation:${payload.query}:${JSON.stringify(payload.variables ?? {})}`;
}

function formatWithoutHttp(error: GraphQLError): GraphQLFormattedError {
  const { extensions, ...formatted } = error.toJSON();
  if (extensions === undefined) return formatted;
  const { http: _http, ...rest } = extensions;
  return Object.keys(rest).length > 0 ? { ...formatted, extensions: rest } : formatted;
}

function whenClosed(socket: WebSocket): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

/** Accepts `Bearer abc` and, since connectionParams is not a header, a bare `abc`. */
function wsToken(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  return parseBearer(value) ?? (/^\S+$/.test(value) ? value : null);
}

/** The upgrade request as a Fetch Request (URL and headers), like the HTTP path gets. */
function toFetchRequest(upgrade: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(upgrade.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return new Request(`http://${upgrade.headers.host ?? 'localhost'}${upgrade.url ?? '/'}`, {
    headers,
  });
}
