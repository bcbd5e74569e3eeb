export { SERVER_ERROR_CODES, isServerErrorCode } from './errorCodes';
export type { ServerErrorCode } from './errorCodes';
