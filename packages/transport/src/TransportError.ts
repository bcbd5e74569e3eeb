import { CombinedError } from '@urql/core';
import { isServerErrorCode } from '@parley/contract';
import type { ServerErrorCode } from '@parley/contract';

/** Codes the transport itself produces (no server involved). */
export const TRANSPORT_ERROR_CODES = [
  'NETWORK_ERROR',
  'REQUEST_TIMEOUT',
  'BAD_RESPONSE',
  'STORAGE_QUOTA_EXCEEDED',
  'STORAGE_UNAVAILABLE',
  'STORAGE_INVALID_VALUE',
] as const;

/** A code the transport produces. */
export type TransportErrorCode = (typeof TRANSPORT_ERROR_CODES)[number];

/** Every code a client can meet: the server's contract plus the transport's own. */
export type ErrorCode = ServerErrorCode | TransportErrorCode;

/** Options of a {@link TransportError}. */
export interface TransportErrorOptions {
  /** HTTP status of the last attempt, when there was one. */
  status?: number;
  /** Input field the error is about (`extensions.field`). */
  field?: string;
  /** Every `extensions` of the first GraphQL error. */
  extensions?: Record<string, unknown>;
  /** The underlying error. */
  cause?: unknown;
  /** The urql error this one was made from (keeps `graphQLErrors`, `networkError`, `response`). */
  combined?: CombinedError;
}

/**
 * The one error shape callers see, whether the network, the server or local storage failed.
 * It extends urql's CombinedError so that urql's hooks hand it over unchanged (`result.error`)
 * and code written against CombinedError (`graphQLErrors`, `networkError`) keeps working.
 */
export class TransportError extends CombinedError {
  /** Machine-readable code; branch on this, never on the message. */
  readonly code: ErrorCode;
  /** HTTP status of the last attempt, when there was one. */
  readonly status: number | undefined;
  /** Input field the error is about, when the server named one. */
  readonly field: string | undefined;
  /** `extensions` of the GraphQL error, when there was one. */
  readonly extensions: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: TransportErrorOptions = {}) {
    const { combined } = options;
    super({
      graphQLErrors: combined?.graphQLErrors ?? [],
      networkError: combined?.networkError,
      response: combined?.response,
    });
    this.name = 'TransportError';
    this.message = message;
    if (options.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
    this.code = code;
    this.status = options.status;
    this.field = options.field;
    this.extensions = options.extensions ?? {};
  }
}

/** Narrows an unknown thrown value to a {@link TransportError}. */
export function isTransportError(error: unknown): error is TransportError {
  return error instanceof TransportError;
}

/**
 * Turns urql's CombinedError into the one error shape. A GraphQL error's known `extensions.code` wins;
 * a network error keeps the transport code it was thrown with (timeout, bad status) or becomes
 * `NETWORK_ERROR`; a GraphQL error without a code is `INTERNAL` (the server masks unexpected
 * errors, so an uncoded one is unexpected by definition).
 */
export function toTransportError(error: CombinedError): TransportError {
  if (error instanceof TransportError) return error;
  const status = statusOf(error.response);
  const first = error.graphQLErrors[0];
  if (first) {
    const extensions = (first.extensions ?? {}) as Record<string, unknown>;
    // A code outside the shared list (a newer server) reads as INTERNAL, so every code a caller
    // sees has a message; the original stays in `extensions.code`.
    const code: ErrorCode = isServerErrorCode(extensions.code) ? extensions.code : 'INTERNAL';
    const field = typeof extensions.field === 'string' ? extensions.field : undefined;
    return new TransportError(code, first.message, { field, extensions, status, combined: error });
  }
  const network = error.networkError;
  if (network instanceof TransportError) {
    return new TransportError(network.code, network.message, {
      status: network.status ?? status,
      cause: network.cause,
      combined: error,
    });
  }
  return new TransportError('NETWORK_ERROR', network?.message ?? error.message, {
    status,
    cause: network,
    combined: error,
  });
}

function statusOf(response: unknown): number | undefined {
  const status = (response as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' ? status : undefined;
}
