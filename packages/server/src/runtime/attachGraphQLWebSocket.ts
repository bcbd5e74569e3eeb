import type { IncomingMessage, Server } from 'node:http';
import type { ExecutionArgs, ExecutionResult, GraphQLFormattedError } from 'graphql';
import { GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import type { Gauge } from 'prom-client';
import { WebSocket, WebSocketServer } from 'ws';
import { GRAPHQL_PATH, WS_CONTEXT_INIT, parseBearer } from './createYogaApp';
import type { ContextInit, ParleyYoga } from './createYogaApp';
import { UNEXPECTED_ERROR_MESSAGE, codeRequestError, createMaskError } from './plugins/maskError';
import { clientIp } from './clientIp';

/** WebSocket close code "going away" (RFC 6455 §7.4.1): the server is shutting down. */
export const CLOSE_GOING_AWAY = 1001;

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
  /** Largest incoming message, in bytes (`ws` closes the socket with 1009 above it). */
  maxPayloadBytes: number;
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
}

/** HTTP status refusing the upgrade of a page whose origin is not permitted. */
export const ORIGIN_REFUSED_STATUS = 403;

/** What Yoga's envelop hands to graphql-ws through `rootValue` (the Yoga + graphql-ws recipe). */
type Run = (
  args: ExecutionArgs,
) => Promise<ExecutionResult | AsyncIterable<ExecutionResult>> | ExecutionResult;
type Enveloped = { execute: Run; subscribe: Run };

/**
 * graphql-ws on the server's `/graphql`, running every operation through yoga's envelop (the
 * recipe in examples/transport-demo), so masking, armor and the context factory behave as over
 * HTTP. Returns `close()`, which ends every socket: ws 8's `close()` leaves them open.
 */
export function attachGraphQLWebSocket({
  server,
  yoga,
  logger,
  maxPayloadBytes,
  activeWebSockets,
  trustedProxies = 0,
  isOriginAllowed = async () => true,
}: AttachGraphQLWebSocketOptions): { close(): Promise<void> } {
  const sockets = new WebSocketServer({
    server,
    path: GRAPHQL_PATH,
    maxPayload: maxPayloadBytes,
    verifyClient: (
      { origin }: { origin?: string },
      done: (ok: boolean, status?: number) => void,
    ) => {
      if (origin === undefined || origin === '') return done(true);
      isOriginAllowed(origin).then(
        (ok) => done(ok, ORIGIN_REFUSED_STATUS),
        () => done(false, ORIGIN_REFUSED_STATUS),
      );
    },
  });
  const maskError = createMaskError({ logger });
  sockets.on('connection', (socket) => {
    activeWebSockets.inc();
    socket.once('close', () => activeWebSockets.dec());
  });

  const graphqlWs = useServer<Record<string, unknown>>(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
      onSubscribe: async (ctx, _id, payload) => {
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
          const document = parse(payload.query);
          // Validation errors are coded by the validation plugin (graphql-armor's too).
          const errors = validate(schema, document);
          if (errors.length > 0) return errors;
          return {
            schema,
            operationName: payload.operationName,
            document,
            variableValues: payload.variables,
            contextValue: await contextFactory(),
            rootValue: { execute, subscribe },
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
