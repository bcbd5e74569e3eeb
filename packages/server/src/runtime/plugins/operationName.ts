import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';

// The GraphQL operation each HTTP request ran, for the request log and the per-operation metric:
// kept beside the Node request (createHttpServer.ts reads it when the response is done).
const names = new WeakMap<IncomingMessage, string>();

/** Longest operation name kept (a name in a request's own text could be anything). */
const MAX_NAME_LENGTH = 100;

/** The name of the operation in `text`, or `operationName` when the request gives one. */
export function operationNameIn(
  text: string | null | undefined,
  operationName?: string | null,
): string | undefined {
  const name =
    operationName || /\b(?:query|mutation|subscription)\s+([_A-Za-z]\w*)/.exec(text ?? '')?.[1];
  return name ? name.slice(0, MAX_NAME_LENGTH) : undefined;
}

/** Records that `req` ran the operation `name`. */
export function nameOperation(req: IncomingMessage, name: string | undefined): void {
  if (name) names.set(req, name);
}

/** The operation `req` ran, if it ran one. */
export function operationOf(req: IncomingMessage): string | undefined {
  return names.get(req);
}

/**
 * Names each request's operation from its params, once the trusted documents have turned an id
 * into its text (so it goes after that plugin).
 */
export function useOperationName(): Plugin {
  return {
    onParams({ params, context }) {
      const req = (context as { req?: IncomingMessage }).req;
      if (req) nameOperation(req, operationNameIn(params.query, params.operationName));
    },
  };
}
