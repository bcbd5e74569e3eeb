import {
  checkField,
  EMAIL_MAX_LENGTH,
  EMAIL_RULE,
  NEW_PASSWORD_RULE,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_RULE,
  toLocale,
} from '@parley/contract';
import type { FieldProblem, FieldRule } from '@parley/contract';
import { ParleyError } from '../ParleyError';
import { EMAIL_LOCALES } from '../email/templates';

/**
 * Account field rules (DESIGN.md "User"), as `@parley/contract` writes them for the server and the
 * clients alike. Each validator returns the normalised value to store and throws ParleyError
 * `INVALID_INPUT` with `field` set (and the contract's `problem`), so a form can show the message
 * next to the right input, in its own words.
 */

/** The server's wording of each account problem (English, as every server message). */
const MESSAGES: Partial<Record<FieldProblem, string>> = {
  EMAIL_REQUIRED: 'Email address is required.',
  EMAIL_TOO_LONG: `Email address must be at most ${EMAIL_MAX_LENGTH} characters.`,
  EMAIL_INVALID: 'That is not a valid email address.',
  USERNAME_LENGTH: `Username must be ${USERNAME_MIN_LENGTH} to ${USERNAME_MAX_LENGTH} characters long.`,
  USERNAME_CHARACTERS: 'Username may contain only letters, digits, "_" and ".".',
  PASSWORD_TOO_SHORT: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
};

/** `input` checked against `rule`, or INVALID_INPUT on `field`. */
function valid<T>(rule: FieldRule<T>, input: string, field: string): T {
  const check = checkField(rule, input);
  if (check.problem === undefined) return check.value;
  throw new ParleyError('INVALID_INPUT', MESSAGES[check.problem] ?? 'Not valid.', {
    field,
    problem: check.problem,
  });
}

/**
 * Validates a username: 3–30 letters (any script), digits, `_` or `.`, after removing
 * bidirectional controls and trimming. Returns it in NFC form, so "é" typed two ways is one name;
 * names that look like a taken one are refused where names are stored (db/store/users.ts).
 */
export function validateUsername(input: string, field = 'username'): string {
  return valid(USERNAME_RULE, input, field);
}

/** A validated email: the address to store and show, and the key that must be unique. */
export interface NormalizedEmail {
  /** The address as typed, trimmed. */
  address: string;
  /** Lower-cased address: two accounts cannot differ only by letter case. */
  key: string;
}

/**
 * Validates an email address: plausible syntax and at most 100 characters, after trimming. Returns
 * the trimmed address and its lower-cased uniqueness key.
 */
export function validateEmail(input: string, field = 'email'): NormalizedEmail {
  const address = valid(EMAIL_RULE, input, field);
  return { address, key: emailKey(address) };
}

/** The uniqueness key of an address (trimmed, lower-cased); use it for look-ups at sign-in too. */
export function emailKey(address: string): string {
  return address.trim().toLowerCase();
}

/**
 * Validates a new password: at least 8 characters. Not trimmed — spaces are legitimate in a
 * passphrase and silently dropping them would lock people out.
 */
export function validatePassword(input: string, field = 'password'): void {
  valid(NEW_PASSWORD_RULE, input, field);
}

/**
 * Validates the language a client says it shows (the sign-in popup's, the console's): the locale
 * with email text for it (`pt-PT` → `pt-BR`), null when not given, INVALID_INPUT for a tag Parley
 * has no text in (a client only sends one of its own locales, so this is a broken client).
 */
export function validateLocale(input: string | null | undefined, field = 'locale'): string | null {
  if (input === undefined || input === null) return null;
  const locale = input.length <= 35 ? toLocale(input, EMAIL_LOCALES) : undefined;
  if (locale === undefined) {
    throw new ParleyError(
      'INVALID_INPUT',
      `Parley has no text in the language "${input.slice(0, 35)}".`,
      {
        field,
      },
    );
  }
  return locale;
}
