import type { IncomingMessage } from 'node:http';
import { clientIp } from './clientIp';
import type { GraphQLSchema } from 'graphql';
import { createYoga } from 'graphql-yoga';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import { createArmorPlugins } from './plugins/armor';
import { useDocumentSizeLimit } from './plugins/documentSize';
import { useListCost } from './plugins/listCost';
import { bodyLimitOptions } from './plugins/bodyLimit';
import {
  UNEXPECTED_ERROR_MESSAGE,
  createMaskError,
  useCodedValidationErrors,
} from './plugins/maskError';
import { corsOptions, useOriginPolicy } from './plugins/originPolicy';
import { useRequestGuard } from './plugins/requestGuard';
import { useNoNulCharacters } from './plugins/noNulCharacters';
import { useOperationName } from './plugins/operationName';
import { trustedDocumentsFor, useTrustedDocuments } from './plugins/trustedDocuments';
import type { TrustedDocumentsOptions } from './plugins/trustedDocuments';
import { useReadCache } from '../readCache/useReadCache';
import type { ReadCacheOptions } from '../readCache/useReadCache';
import type { OriginPolicy } from './plugins/originPolicy';

/** Path of the GraphQL endpoint, for HTTP and WebSocket alike. */
export const GRAPHQL_PATH = '/graphql';

/** What the context factory learns about a request before building the GraphQL context. */
export interface ContextInit {
  /** The bearer token (`Authorization: Bearer …` or `connectionParams.authorization`), or null. */
  token: string | null;
  /** Which transport carried the operation. */
  transport: 'http' | 'ws';
  /** The Fetch request (HTTP) or the WebSocket upgrade request's URL and headers (WS). */
  request: Request | undefined;
  /** The peer's IP address (for per-IP rate limits); undefined in in-process tests. */
  ip: string | undefined;
  /** graphql-ws `connectionParams` (WS only). */
  connectionParams: Readonly<Record<string, unknown>> | undefined;
}

/** Builds the GraphQL context of one operation; the result is what resolvers receive. */
export type ContextFactory = (init: ContextInit) => Promise<object>;

/** Options of {@link createYogaApp}. */
export interface CreateYogaAppOptions {
  /** The executable schema. */
  schema: GraphQLSchema;
  /** Builds each operation's context. */
  context: ContextFactory;
  /** CORS and frame-ancestors. */
  originPolicy: OriginPolicy;
  /** Unexpected errors are logged here. */
  logger: Logger;
  /** Hide field suggestions and GraphiQL. @default false */
  production?: boolean;
  /** Largest request body, in bytes. @default REQUEST_BODY_MAX_BYTES */
  maxRequestBodyBytes?: number;
  /** Proxy hops in front of the server (`TRUST_PROXY`), for the caller's IP. @default 0 */
  trustedProxies?: number;
  /**
   * The documents run by id, and whether other text may run (trustedDocuments.ts).
   * @default the clients' manifest; arbitrary text outside production
   */
  trustedDocuments?: TrustedDocumentsOptions;
  /** The shared read cache of anonymous reads; none when absent. */
  readCache?: ReadCacheOptions;
}

/** Key under which the WebSocket path hands its {@link ContextInit} to yoga's context step. */
export const WS_CONTEXT_INIT = Symbol('parley.wsContextInit');

/** yoga with every runtime plugin; `yoga.fetch` runs it in process (tests). */
export type ParleyYoga = YogaServerInstance<Record<string, unknown>, object>;

/** `Authorization` scheme Parley accepts (RFC 6750). */
const BEARER_PATTERN = /^Bearer\s+(\S+)\s*$/i;

/** `Bearer abc` → `abc`; anything else → null (the resolvers decide what anonymous may do). */
export function parseBearer(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  return BEARER_PATTERN.exec(value)?.[1] ?? null;
}

/**
 * Creates the GraphQL-over-HTTP handler: error masking, graphql-armor, CORS and frame-ancestors,
 * the body limit. Schema-agnostic: the schema and the context come from the caller.
 */
export function createYogaApp({
  schema,
  context,
  originPolicy,
  logger,
  production = false,
  maxRequestBodyBytes,
  trustedProxies = 0,
  trustedDocuments = trustedDocumentsFor(production),
  readCache,
}: CreateYogaAppOptions): ParleyYoga {
  const maskError = createMaskError({ logger });
  return createYoga<Record<string, unknown>, object>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    // GraphiQL loads its assets from a CDN: useful on a laptop, an outside dependency in production.
    graphiql: !production,
    landingPage: false,
    // Unexpected errors are logged by maskError with pino; yoga's console logger would repeat them.
    logging: false,
    maskedErrors: { maskError, errorMessage: UNEXPECTED_ERROR_MESSAGE, isDev: false },
    cors: corsOptions(originPolicy),
    ...bodyLimitOptions({ maxBytes: maxRequestBodyBytes }),
    plugins: [
      useRequestGuard(),
      useDocumentSizeLimit(),
      ...useTrustedDocuments(trustedDocuments),
      // After the trusted documents: an id's text names the operation.
      useOperationName(),
      useCodedValidationErrors(),
      ...createArmorPlugins({ production }),
      useListCost(),
      useNoNulCharacters(),
      // After the trusted documents: the cache key is the text an id names. After the refusals
      // made at execution (list cost, NUL characters): before them, the cache's own executor
      // went uncalled for each refusal and it said so on the console, a line per request.
      ...(readCache ? useReadCache(readCache) : []),
      // After the cache, as before (its Vary comes first; fastReads.ts writes the same).
      useOriginPolicy(originPolicy),
    ],
    context: async (initial) => {
      const fromWs = (initial as { [WS_CONTEXT_INIT]?: ContextInit })[WS_CONTEXT_INIT];
      if (fromWs !== undefined) return context(fromWs);
      const request = initial['request'] as Request;
      const req = initial['req'] as IncomingMessage | undefined;
      return context({
        token: parseBearer(request.headers.get('authorization')),
        transport: 'http',
        request,
        ip: req ? clientIp(req, trustedProxies) : undefined,
        connectionParams: undefined,
      });
    },
  });
}
