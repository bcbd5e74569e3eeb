import { commentBodyProblem } from '@parley/contract';
import type { TransportError } from '@parley/transport';
import type { StreamEnv } from './StreamContext';

/** A coded error as the composer keeps it: from the server, or found before sending. */
export type CodedError = Pick<TransportError, 'code' | 'extensions'>;

/**
 * The reader-facing text of a coded error, with its variables filled in from `extensions`
 * (`retryAfterSeconds` for RATE_LIMITED, `until` for USER_SUSPENDED). Chosen by code only: the
 * server's message is for logs, never shown or matched (messages change; codes do not).
 */
export function describeError(env: Pick<StreamEnv, 't' | 'params'>, error: CodedError): string {
  const { retryAfterSeconds, until } = error.extensions;
  const seconds = typeof retryAfterSeconds === 'number' ? retryAfterSeconds : 0;
  const date = new Date(typeof until === 'string' ? until : NaN);
  return env.t(`error.${error.code}`, {
    seconds,
    count: seconds,
    until: isNaN(date.getTime())
      ? ''
      : date.toLocaleString(env.params.locale, { dateStyle: 'medium', timeStyle: 'short' }),
  });
}

/**
 * The error the server would answer for `body` (trimmed, counted in code points as the server
 * counts), found before sending so an empty or overlong comment never leaves the box.
 */
export function checkBody(body: string, maxLength: number): CodedError | null {
  // @parley/contract's rule: its problems are the server's error codes for a comment body.
  const code = commentBodyProblem(body, maxLength);
  return code ? { code, extensions: {} } : null;
}
