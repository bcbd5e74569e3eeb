import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import type { LogFormat, LogLevel } from './loadConfig';

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

/** Options of {@link createProcessLogger}. */
export interface ProcessLoggerOptions {
  level: LogLevel;
  /** `LOG_FORMAT`; unset: pretty when `terminal`. */
  format: LogFormat | undefined;
  /** Whether standard output is a terminal. @default process.stdout.isTTY */
  terminal?: boolean;
  /** Where pretty lines go (tests). @default standard output */
  prettyDestination?: NodeJS.WritableStream;
}

/**
 * The logger of a process that runs the server: JSON lines for a collector, or, for people at a
 * terminal, pino-pretty's coloured lines (loaded only then; the same redaction applies, since
 * pino censors before anything is written).
 */
export async function createProcessLogger(options: ProcessLoggerOptions): Promise<Logger> {
  const terminal = options.terminal ?? process.stdout.isTTY === true;
  const format = options.format ?? (terminal ? 'pretty' : 'json');
  if (format === 'json') return createLogger({ level: options.level });
  const { default: pretty } = await import('pino-pretty');
  return createLogger({
    level: options.level,
    destination: pretty({
      colorize: terminal,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,service',
      sync: true,
      ...(options.prettyDestination ? { destination: options.prettyDestination } : {}),
    }),
  });
}
