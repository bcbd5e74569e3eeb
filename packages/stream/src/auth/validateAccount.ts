import {
  checkField,
  EMAIL_MAX_LENGTH,
  EMAIL_RULE,
  NEW_PASSWORD_RULE,
  PASSWORD_MIN_LENGTH,
  SIGN_UP_CODE_DIGITS,
  SIGN_UP_CODE_RULE,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_RULE,
} from '@parley/contract';
import type { FieldProblem, FieldRule } from '@parley/contract';
import type { MessageVars } from '../i18n/createTranslator';
import type { PopupKey } from './popupCatalog';

// The account rules of @parley/contract, which the server applies too: the popup says what is
// wrong while the reader types, in the reader's language. The server checks again and decides.

/** What is wrong with a field: a message key and its placeholders. */
export interface FieldProblemText {
  /** Catalog key of the text. */
  key: PopupKey;
  /** Its placeholders. */
  vars?: MessageVars;
}

/** The popup's words for each account problem. */
const TEXT: Partial<Record<FieldProblem, FieldProblemText>> = {
  EMAIL_REQUIRED: { key: 'auth.invalid.email' },
  EMAIL_TOO_LONG: { key: 'auth.invalid.emailLength', vars: { max: EMAIL_MAX_LENGTH } },
  EMAIL_INVALID: { key: 'auth.invalid.email' },
  USERNAME_LENGTH: {
    key: 'auth.invalid.usernameLength',
    vars: { min: USERNAME_MIN_LENGTH, max: USERNAME_MAX_LENGTH },
  },
  USERNAME_CHARACTERS: { key: 'auth.invalid.usernameCharacters' },
  PASSWORD_TOO_SHORT: { key: 'auth.invalid.passwordLength', vars: { min: PASSWORD_MIN_LENGTH } },
  CODE_INVALID: { key: 'auth.invalid.code', vars: { digits: SIGN_UP_CODE_DIGITS } },
};

/** A field check for the popup's forms: the problem's text, or undefined when `rule` holds. */
const problemOf =
  <T>(rule: FieldRule<T>) =>
  (input: string): FieldProblemText | undefined => {
    const { problem } = checkField(rule, input);
    return problem && TEXT[problem];
  };

/** The problem with an email address, or undefined when the server would take it. */
export const emailProblem = problemOf(EMAIL_RULE);

/** The problem with a new username, or undefined. */
export const usernameProblem = problemOf(USERNAME_RULE);

/** The problem with a new password (at sign-up), or undefined. Not trimmed, like the server. */
export const newPasswordProblem = problemOf(NEW_PASSWORD_RULE);

/** The problem with a sign-up's emailed code (its digits, spaces around them allowed), or undefined. */
export const codeProblem = problemOf(SIGN_UP_CODE_RULE);

/**
 * The problem with a password at sign-in: only that one is given. Older accounts may predate
 * today's length rule, so sign-in does not apply it.
 */
export function passwordProblem(input: string): FieldProblemText | undefined {
  return input === '' ? { key: 'auth.invalid.passwordRequired' } : undefined;
}
