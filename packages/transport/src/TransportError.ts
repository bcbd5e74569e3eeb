import type { CombinedError } from '@urql/core';
import type { ServerErrorCode } from '@parley/server/error-codes';

/** Codes the transport itself produces (no server involved). */
export const TRANSPORT_ERROR_CODES = [
  'NETWORK_ERROR',
  'REQUEST_TIMEOUT',
  'BAD_RESPONSE',
  'STORAGE_QUOTA_EXCEEDED',
  'STORAGE_UNAVAILABLE',
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
}

/** The one error shape callers see, whether the network or the server failed. */
export class TransportError extends Error {
  /** Machine-readable code; branch on this, never on the message. */
  readonly code: ErrorCode;
  /** HTTP status of the last attempt, when there was one. */
  readonly status: number | undefined;
  /** Input field the error is about, when the server named one. */
  readonly field: string | undefined;
  /** `extensions` of the GraphQL error, when there was one. */
  readonly extensions: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: TransportErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'TransportError';
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

const KNOWN_CODES = new Set<string>(TRANSPORT_ERROR_CODES);

/**
 * Turns urql's CombinedError into the one error shape. A GraphQL error's `extensions.code` wins;
 * a network error keeps the transport code it was thrown with (timeout, bad status) or becomes
 * `NETWORK_ERROR`; a GraphQL error without a code is `INTERNAL` (the server masks unexpected errors).
 */
export function toTransportError(error: CombinedError): TransportError {
  const first = error.graphQLErrors[0];
  if (first) {
    const extensions = (first.extensions ?? {}) as Record<string, unknown>;
    const code = typeof extensions.code === 'string' ? (extensions.code as ErrorCode) : 'INTERNAL';
    const field = typeof extensions.field === 'string' ? extensions.field : undefined;
    return new TransportError(code, first.message, {
      field,
      extensions,
      status: error.response?.status,
      cause: error,
    });
  }
  const network = error.networkError;
  if (network instanceof TransportError) return network;
  const cause = (network as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof TransportError) return cause;
  return new TransportError('NETWORK_ERROR', network?.message ?? error.message, {
    status: error.response?.status,
    cause: error,
  });
}

/** True when `code` is a code the transport itself produces. */
export function isTransportErrorCode(code: unknown): code is TransportErrorCode {
  return typeof code === 'string' && KNOWN_CODES.has(code);
}
