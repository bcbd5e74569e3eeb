import type { MessageVars } from '../i18n/createTranslator';
import {
  EMAIL_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SIGN_UP_CODE_DIGITS,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from '@parley/contract';
import type { PopupKey } from './popupCatalog';

// The server's account rules (packages/server/src/validation/validateAccount.ts), repeated so the
// popup can say what is wrong while the reader types. The server checks again and decides.

/** What is wrong with a field: a message key and its placeholders. */
export interface FieldProblem {
  /** Catalog key of the text. */
  key: PopupKey;
  /** Its placeholders. */
  vars?: MessageVars;
}

/** Characters as a person counts them (code points), like the server. */
const characterCount = (text: string) => [...text].length;

/** Whitespace, control characters and the specials that would need quoting before the "@". */
const LOCAL_PART_FORBIDDEN = /[\s\p{Cc}"(),:;<>@[\\\]]/u;
/** One label of a domain: letters of any script, digits, inner hyphens. */
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;

/** The problem with an email address, or undefined when the server would take it. */
export function emailProblem(input: string): FieldProblem | undefined {
  const address = input.trim();
  if (characterCount(address) > EMAIL_MAX_LENGTH) {
    return { key: 'auth.invalid.emailLength', vars: { max: EMAIL_MAX_LENGTH } };
  }
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const labels = address.slice(at + 1).split('.');
  const plausible =
    at > 0 &&
    !LOCAL_PART_FORBIDDEN.test(local) &&
    !local.startsWith('.') &&
    !local.endsWith('.') &&
    !local.includes('..') &&
    labels.length >= 2 &&
    labels.every((label) => DOMAIN_LABEL.test(label)) &&
    /^\p{L}{2,}$/u.test(labels[labels.length - 1] ?? '');
  return plausible ? undefined : { key: 'auth.invalid.email' };
}

/** The problem with a new username, or undefined. */
export function usernameProblem(input: string): FieldProblem | undefined {
  const username = input.trim().normalize('NFC');
  const length = characterCount(username);
  if (length < USERNAME_MIN_LENGTH || length > USERNAME_MAX_LENGTH) {
    return {
      key: 'auth.invalid.usernameLength',
      vars: { min: USERNAME_MIN_LENGTH, max: USERNAME_MAX_LENGTH },
    };
  }
  return USERNAME_PATTERN.test(username) ? undefined : { key: 'auth.invalid.usernameCharacters' };
}

/** The problem with a new password (at sign-up), or undefined. Not trimmed, like the server. */
export function newPasswordProblem(input: string): FieldProblem | undefined {
  return characterCount(input.normalize('NFKC')) < PASSWORD_MIN_LENGTH
    ? { key: 'auth.invalid.passwordLength', vars: { min: PASSWORD_MIN_LENGTH } }
    : undefined;
}

/**
 * The problem with a password at sign-in: only that one is given. Older accounts may predate
 * today's length rule, so sign-in does not apply it.
 */
export function passwordProblem(input: string): FieldProblem | undefined {
  return input === '' ? { key: 'auth.invalid.passwordRequired' } : undefined;
}

/** The problem with a sign-up's emailed code (its digits, spaces around them allowed), or undefined. */
export function codeProblem(input: string): FieldProblem | undefined {
  return new RegExp(`^\\d{${SIGN_UP_CODE_DIGITS}}$`).test(input.trim())
    ? undefined
    : { key: 'auth.invalid.code', vars: { digits: SIGN_UP_CODE_DIGITS } };
}
