import type { IncomingMessage } from 'node:http';
import type { ExecutionResult } from 'graphql';
import type { TrustedDocuments } from '../runtime/plugins/trustedDocuments';
import type { ReadCache } from './createReadCache';
import { readCacheKey } from './useReadCache';
import { nameOperation, operationNameIn } from '../runtime/plugins/operationName';

/**
 * Cache hits answered before yoga. An anonymous `GET` of a trusted document whose answer the read
 * cache holds is the one request every reader of a story makes; through yoga it builds a Fetch
 * request and response and runs every plugin's hooks to copy out a kept answer (profiled under
 * bench:read, that plumbing was most of a hit's cost). Here it is the same key, the same kept
 * answer and the same headers, straight onto the Node response; anything else — a miss, text, a
 * signed-in reader, a cross-origin request (CORS), a revalidation — goes to yoga as before. An
 * integration test holds the two answers to the same bytes and headers.
 */

/** What a fast hit sends. */
export interface FastRead {
  headers: Record<string, string>;
  body: Buffer;
}

/** Options of {@link createFastReads}. */
export interface FastReadsOptions {
  cache: ReadCache;
  documents: TrustedDocuments;
  sharedMaxAgeSeconds: number;
}

/** The media type yoga answers a client that accepts the GraphQL-over-HTTP one. */
const GRAPHQL_RESPONSE = 'application/graphql-response+json; charset=utf-8';
const JSON_RESPONSE = 'application/json; charset=utf-8';

/** The bytes of a kept answer, by answer: one encoding per kept result. */
const bodies = new WeakMap<ExecutionResult, Buffer>();

/** Returns the kept answer to `req`, or undefined for yoga to answer. */
export function createFastReads({
  cache,
  documents,
  sharedMaxAgeSeconds,
}: FastReadsOptions): (req: IncomingMessage) => Promise<FastRead | undefined> {
  return async (req) => {
    const { headers } = req;
    if (headers.authorization || headers.origin || headers['if-none-match']) return undefined;
    const params = new URL(req.url ?? '/', 'http://parley.internal').searchParams;
    if (params.has('query')) return undefined;
    let documentId: unknown;
    let variables: unknown;
    try {
      documentId = (
        JSON.parse(params.get('extensions') ?? 'null') as {
          persistedQuery?: { documentId?: unknown };
        } | null
      )?.persistedQuery?.documentId;
      variables = JSON.parse(params.get('variables') ?? 'null') ?? undefined;
    } catch {
      return undefined; // yoga answers the malformed request with its coded error
    }
    const text = typeof documentId === 'string' ? documents.get(documentId) : undefined;
    if (text === undefined) return undefined;
    nameOperation(req, operationNameIn(text, params.get('operationName')));
    const key = readCacheKey({
      operationName: params.get('operationName') || undefined,
      documentString: text,
      variableValues: variables as Record<string, unknown> | undefined,
    });
    const result = await cache.store.get(key);
    if (!result) return undefined;
    // As every answer does: none leaves before the invalidations started so far are done.
    await cache.settled();
    const kept = (result.extensions as { http?: { headers?: Record<string, string> } } | undefined)
      ?.http?.headers;
    if (!kept?.['ETag']) return undefined;
    let body = bodies.get(result);
    if (!body) {
      const { http: _http, ...extensions } = result.extensions ?? {};
      const answer = {
        ...result,
        extensions: Object.keys(extensions).length ? extensions : undefined,
      };
      const stringify = (result as { stringify?: (value: unknown) => string }).stringify;
      body = Buffer.from(stringify ? stringify(answer) : JSON.stringify(answer));
      bodies.set(result, body);
    }
    return {
      headers: {
        'content-type': (headers.accept ?? '').includes('application/graphql-response+json')
          ? GRAPHQL_RESPONSE
          : JSON_RESPONSE,
        'content-length': String(body.length),
        etag: kept['ETag'],
        ...(kept['Last-Modified'] ? { 'last-modified': kept['Last-Modified'] } : {}),
        'cache-control': `public, max-age=0, s-maxage=${sharedMaxAgeSeconds}`,
        // As yoga's answer: its CORS varies by Origin, the read cache by Authorization.
        vary: 'Authorization, Origin',
      },
      body,
    };
  };
}
