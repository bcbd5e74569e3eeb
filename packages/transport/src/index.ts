export * from './defaults';
export { TransportError, isTransportError, toTransportError, TRANSPORT_ERROR_CODES } from './TransportError';
export type { ErrorCode, TransportErrorCode, TransportErrorOptions } from './TransportError';
export type * from './types';
