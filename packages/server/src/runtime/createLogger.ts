import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import type { LogLevel } from './loadConfig';

/** The server's logger: pino, so every module logs structured JSON the same way. */
export type { Logger } from 'pino';

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  /** Lowest level written; `silent` writes nothing (tests). @default 'info' */
  level?: LogLevel;
  /** Where lines go. @default standard output */
  destination?: DestinationStream;
}

/**
 * Creates the process logger. Secrets that reach a log by accident (an `Authorization` header in
 * a request dump, a password in an input) are censored by path rather than trusted to callers.
 */
export function createLogger({ level = 'info', destination }: CreateLoggerOptions = {}): Logger {
  const options = {
    level,
    base: { service: 'parley' },
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        'authorization',
        'password',
        '*.password',
        'token',
        '*.token',
      ],
      censor: '[redacted]',
    },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
