import type { ErrorCode, TransportError } from '@parley/transport';
import { ENGLISH, useT } from './i18n';
import { en } from './messages/en';
import type { ConsoleMessageKey } from './i18n';

// What each coded error says in the console, in the admin's language: `console.error.<CODE>` of
// locales/<locale>/console-errors.json. A code added to the shared list without its English text
// fails to compile here (the key must be one of the catalog's); text is chosen by code, never by
// the server's message.

/** The catalog key of a code's text. */
const keyOf = (code: ErrorCode): ConsoleMessageKey & `console.error.${ErrorCode}` =>
  `console.error.${code}`;

/** The text of a code in the console's language (a hook: it reads the language). */
export function useErrorText(): (code: ErrorCode) => string {
  const t = useT();
  return (code) => t(keyOf(code));
}

/** The English text of a code (tests, and code outside the console's components). */
export function errorText(code: ErrorCode): string {
  return ENGLISH(keyOf(code));
}

/** Some codes' English text, by code (tests compare with it). */
export const ERROR_TEXT = {
  FORBIDDEN: errorText('FORBIDDEN'),
  NOT_FOUND: errorText('NOT_FOUND'),
} as const;

/**
 * The words for a field the server refused, in the console's language: its problem
 * (`extensions.problem`, `@parley/contract`'s InputProblem) as `console.problem.<PROBLEM>` with the
 * figures the error carries (`max`, `value`, `host`, `address`); the server's own message only for
 * a problem this console has no words for (a newer server).
 */
export function useFieldErrorText(): (error: TransportError) => string {
  const t = useT();
  return (error) => {
    const { problem } = error.extensions;
    const key = `console.problem.${String(problem)}`;
    if (typeof problem !== 'string' || !(key in en)) return error.message;
    const vars: Record<string, string | number> = {};
    for (const name of ['max', 'value', 'host', 'address']) {
      const value = error.extensions[name];
      if (typeof value === 'string' || typeof value === 'number') vars[name] = value;
    }
    return t(key as ConsoleMessageKey, vars);
  };
}
