import type { Plugin } from 'graphql-yoga';
import type { ServerErrorCode } from '@parley/contract';

/**
 * Cross-site requests. A browser sends a "simple" request — a form's POST as
 * `application/x-www-form-urlencoded`, `multipart/form-data` or `text/plain`, or a GET — from any
 * page without asking the server first (no CORS preflight), and yoga parses all of those: an audit
 * created an account from a hostile page that way. CORS only hides the answer; the operation had
 * already run. So the GraphQL endpoint accepts a POST only as `application/json` (which forces a
 * preflight, checked against the permitted origins), or as `multipart/form-data` (uploads) when it
 * also carries a header no form can set. A GET may run queries only (yoga refuses mutations over
 * GET) and is marked read-only for the resolvers: it never creates anything (see `readOnly`).
 */

/** Media types a GraphQL POST may have. */
export const JSON_MEDIA_TYPE = 'application/json';
/** The GraphQL multipart request spec's media type (uploads). */
export const MULTIPART_MEDIA_TYPE = 'multipart/form-data';
/**
 * Headers that make a browser send a CORS preflight first; a multipart POST needs one of them.
 * The transport sends `Authorization` with every upload (uploads are for signed-in users); other
 * clients may send `GraphQL-Require-Preflight: 1`, as Apollo's clients do.
 */
export const PREFLIGHT_HEADERS = Object.freeze([
  'authorization',
  'idempotency-key',
  'graphql-require-preflight',
]);
/** HTTP status of a refused content type. */
export const UNSUPPORTED_MEDIA_TYPE_STATUS = 415;

const CODE: ServerErrorCode = 'UNSUPPORTED_MEDIA_TYPE';

/** Why a request may not run, or undefined when it may. */
export function refusalOf(request: Request): string | undefined {
  if (request.method !== 'POST') return undefined;
  const mediaType = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType === JSON_MEDIA_TYPE) return undefined;
  if (mediaType === MULTIPART_MEDIA_TYPE) {
    if (PREFLIGHT_HEADERS.some((name) => request.headers.has(name))) return undefined;
    return `A multipart request needs one of these headers: ${PREFLIGHT_HEADERS.join(', ')}.`;
  }
  return `Send GraphQL requests as ${JSON_MEDIA_TYPE} (uploads as ${MULTIPART_MEDIA_TYPE}); received ${JSON.stringify(mediaType ?? '')}.`;
}

/** The yoga plugin: answers 415 with the coded error before any parsing or execution. */
export function useRequestGuard(): Plugin {
  return {
    onRequest({ request, endResponse, fetchAPI }) {
      const refusal = refusalOf(request);
      if (refusal === undefined) return;
      endResponse(
        new fetchAPI.Response(
          JSON.stringify({ errors: [{ message: refusal, extensions: { code: CODE } }] }),
          {
            status: UNSUPPORTED_MEDIA_TYPE_STATUS,
            headers: { 'content-type': 'application/json; charset=utf-8' },
          },
        ),
      );
    },
  };
}
