export * from './defaults';
export {
  TransportError,
  isTransportError,
  toTransportError,
  TRANSPORT_ERROR_CODES,
} from './TransportError';
export type { ErrorCode, TransportErrorCode, TransportErrorOptions } from './TransportError';
export type * from './types';
export { createTransport, toWebSocketUrl } from './createTransport';
export { IDEMPOTENCY_KEY_HEADER, CLIENT_MUTATION_ID } from './mutationKeyExchange';
export type { ReactNativeFile } from './reactNativeFiles';
export { createSession } from './createSession';
export type { Session } from './createSession';
export { createSessionTransport } from './createSessionTransport';
export type { SessionTransport } from './createSessionTransport';
// Sign-in challenges and device tokens are `@parley/transport/sign-in`: only the sign-in forms
// need them, so the first chunk every client loads does not carry them.
