import { REQUEST_BODY_MAX_BYTES } from '../../defaults';

/** Code yoga gives a request body over `maxRequestBodySize` (with HTTP status 413). */
export const YOGA_BODY_TOO_LARGE_CODE = 'REQUEST_ENTITY_TOO_LARGE';

/** HTTP status of a request body over the limit. */
export const PAYLOAD_TOO_LARGE_STATUS = 413;

/** Options of {@link bodyLimitOptions}. */
export interface BodyLimitOptions {
  /** Largest request body, in bytes. @default REQUEST_BODY_MAX_BYTES (3 MB) */
  maxBytes?: number;
}

/**
 * The request body limit, as yoga options. yoga checks `Content-Length` before reading and also
 * counts bytes while streaming, so a chunked body without a length cannot slip past; over the
 * limit it answers {@link PAYLOAD_TOO_LARGE_STATUS}, and `maskError` turns yoga's code into
 * `UPLOAD_TOO_LARGE`. WebSocket messages get the same cap through `ws`' `maxPayload`.
 */
export function bodyLimitOptions({ maxBytes = REQUEST_BODY_MAX_BYTES }: BodyLimitOptions = {}): {
  maxRequestBodySize: number;
} {
  return { maxRequestBodySize: maxBytes };
}
