import { createGraphQLError } from 'graphql-yoga';
import type { Plugin } from 'graphql-yoga';
import type { ServerErrorCode } from '@parley/contract';

/**
 * Longest GraphQL document a request may carry, in characters. Parley's own are under 2,000 and a
 * client's own rarely pass 10,000; past this the text is refused before it is parsed — a 1 MB
 * document of comments holds no token for the token limit to count, yet costs its scan.
 * (WebSocket messages are bounded by their own limit, 64 KB.)
 */
export const MAX_DOCUMENT_CHARACTERS = 100_000;

const CODE: ServerErrorCode = 'INVALID_INPUT';

/** Refuses a request whose document is longer than `max` characters, with INVALID_INPUT. */
export function useDocumentSizeLimit(max: number = MAX_DOCUMENT_CHARACTERS): Plugin {
  return {
    onParams({ params }) {
      if (typeof params.query === 'string' && params.query.length > max) {
        throw createGraphQLError(
          `A GraphQL document can be at most ${max} characters; this one has ${params.query.length}.`,
          { extensions: { code: CODE, http: { status: 400 } } },
        );
      }
    },
  };
}
