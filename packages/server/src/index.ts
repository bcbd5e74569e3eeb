export { SERVER_ERROR_CODES, isServerErrorCode } from '@parley/contract';
export type { ServerErrorCode } from '@parley/contract';
