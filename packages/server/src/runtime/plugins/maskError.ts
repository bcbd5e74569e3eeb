import { GraphQLError } from 'graphql';
import type { MaskError, Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { isServerErrorCode } from '@parley/contract';
import type { ServerErrorCode } from '@parley/contract';
import { isParleyError, ParleyError } from '../../ParleyError';
import { YOGA_BODY_TOO_LARGE_CODE } from './bodyLimit';

/** Message of every masked error; the same text yoga uses, so clients need not special-case it. */
export const UNEXPECTED_ERROR_MESSAGE = 'Unexpected error.';

/** Code of a masked (unexpected) error. */
export const UNEXPECTED_ERROR_CODE: ServerErrorCode = 'INTERNAL';

/**
 * Code of a request the server could not accept before running it: bad JSON, a syntax error, a
 * validation error (unknown field, wrong variable type) and graphql-armor's depth, cost, alias,
 * directive and token limits. Clients treat all of them alike ("the request is wrong"), and the
 * message says which rule failed.
 */
export const REQUEST_ERROR_CODE: ServerErrorCode = 'INVALID_INPUT';

/**
 * yoga's own request-error codes that map to a more specific Parley code. A body over the limit is
 * in practice an avatar upload (the only large request), so it reads as `UPLOAD_TOO_LARGE`, the
 * same code the resolver gives a file that fits the body limit but not the avatar limit.
 */
const REQUEST_CODE_MAP: Readonly<Record<string, ServerErrorCode>> = {
  [YOGA_BODY_TOO_LARGE_CODE]: 'UPLOAD_TOO_LARGE',
};

/** Options of {@link createMaskError}. */
export interface MaskErrorOptions {
  /** Where unexpected errors are logged, with their stack (which the client never sees). */
  logger: Pick<Logger, 'error'>;
}

/**
 * yoga's `maskedErrors.maskError`: a {@link ParleyError} (or any error already carrying a Parley
 * code) passes through with its extensions; an error the server raised about the request itself
 * gets {@link REQUEST_ERROR_CODE}; anything else is logged and replaced by
 * `{ message: 'Unexpected error.', extensions: { code: 'INTERNAL' } }` with no stack or cause.
 */
export function createMaskError({ logger }: MaskErrorOptions): MaskError {
  return (error, message) => {
    // A ParleyError thrown in a resolver arrives wrapped (located) with the same extensions.
    if (isParleyError(rootCause(error))) return error as GraphQLError;
    if (error instanceof GraphQLError && isServerErrorCode(error.extensions['code'])) return error;
    if (error instanceof GraphQLError && isRequestError(error)) return codeRequestError(error);
    const full = storageFullCause(error);
    if (full !== undefined) {
      logger.error({ err: full }, `Storage is full: nothing was written (${full.message})`);
      return new ParleyError('STORAGE_FULL', 'The server has no room left; nothing was saved.', {
        httpStatus: 507,
      });
    }

    logger.error({ err: rootCause(error) }, 'Unexpected error');
    const extensions: Record<string, unknown> = { code: UNEXPECTED_ERROR_CODE };
    // yoga answers 500 when a request failed without data and an error is flagged `unexpected`.
    // Non-enumerable, so the flag steers the status code but never reaches the JSON body.
    Object.defineProperty(extensions, 'unexpected', { value: true, enumerable: false });
    return new GraphQLError(message, {
      ...(error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {}),
      extensions,
    });
  };
}

/**
 * An envelop plugin that codes validation errors (graphql's own rules and graphql-armor's, which
 * run as validation rules). Validation errors skip `maskError` in yoga and, over WebSocket, are
 * returned by graphql-ws as they are, so they are coded here, where both paths pass.
 */
export function useCodedValidationErrors(): Plugin {
  return {
    onValidate() {
      return ({ valid, result }) => {
        if (valid) return;
        for (const error of result) setRequestCode(error);
      };
    },
  };
}

/** Gives a request-level GraphQLError a Parley code in place (graphql-ws parse errors, tests). */
export function codeRequestError(error: GraphQLError): GraphQLError {
  setRequestCode(error);
  return error;
}

function setRequestCode(error: GraphQLError): void {
  // yoga and graphql-js mutate `extensions` the same way; a copy would lose `http.status`.
  const extensions = error.extensions as Record<string, unknown>;
  const code = extensions['code'];
  if (isServerErrorCode(code)) return;
  extensions['code'] =
    (typeof code === 'string' ? REQUEST_CODE_MAP[code] : undefined) ?? REQUEST_ERROR_CODE;
}

/**
 * A GraphQLError made by graphql-js or yoga about the request (syntax, validation, variables,
 * HTTP) has no path and wraps no foreign error. One with a path came out of a resolver: only a
 * ParleyError is intentional there.
 */
function isRequestError(error: GraphQLError): boolean {
  let current: unknown = error;
  while (current instanceof GraphQLError) {
    if (current.path !== undefined) return false;
    if (current.originalError === undefined || current.originalError === null) return true;
    current = current.originalError;
  }
  return false;
}

/**
 * Driver codes of a full disk: SQLite's SQLITE_FULL (and its extended codes), PostgreSQL's
 * 53100 disk_full, and the file system's own. An audit filled the disk and the log said only
 * "cannot rollback" (the failed write's automatic rollback, then the driver's second one).
 */
const STORAGE_FULL_CODES = /^(SQLITE_FULL|53100|ENOSPC|EDQUOT)/;

/**
 * The error in `error`'s chain that says the disk is full, if any. Duck-typed, not `instanceof
 * Error`: better-sqlite3 hands its error class to the native addon once per process, so under a
 * test runner's fresh module registry its errors may come from another realm's `Error`.
 */
function storageFullCause(error: unknown): Error | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string' && STORAGE_FULL_CODES.test(code)) return current as Error;
    current =
      current instanceof GraphQLError
        ? current.originalError
        : (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The innermost error: what a resolver actually threw, for the log. */
function rootCause(error: unknown): unknown {
  let current = error;
  while (current instanceof GraphQLError && current.originalError) current = current.originalError;
  return current;
}
