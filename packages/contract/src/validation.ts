import * as v from 'valibot';
import {
  EMAIL_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SIGN_UP_CODE_DIGITS,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from './accounts';
import { characterCount, stripBidiControls } from './text';

// The account and comment rules, written once: the server enforces them, the sign-in popup and the
// console check them while a person types (and the server checks again and decides). Each rule
// answers the value to use or a problem code; each side words the problem in its own language.

/** What is wrong with a field. The figures a message needs are in accounts.ts. */
export type FieldProblem =
  | 'EMAIL_REQUIRED'
  | 'EMAIL_TOO_LONG'
  | 'EMAIL_INVALID'
  | 'USERNAME_LENGTH'
  | 'USERNAME_CHARACTERS'
  | 'PASSWORD_TOO_SHORT'
  | 'CODE_INVALID'
  | 'COMMENT_EMPTY'
  | 'COMMENT_TOO_LONG';

/**
 * What is wrong with a field only the server checks (an admin form's): `extensions.problem` of
 * its INVALID_INPUT, with the figures its words need beside it in `extensions` (`max`, `host`…),
 * so that the console says it in its own language. The message stays for other clients.
 */
export type InputProblem =
  | FieldProblem
  /** Empty where something is needed. */
  | 'REQUIRED'
  /** Not an absolute http(s) URL. */
  | 'URL_INVALID'
  /** Not `scheme://host[:port]` (`value`: what was given). */
  | 'ORIGIN_INVALID'
  /** A URL with a user name or password in it. */
  | 'URL_CREDENTIALS'
  /** A webhook's address is loopback, private or reserved (`host`, `address`). */
  | 'ADDRESS_PRIVATE'
  /** Longer than `max` characters. */
  | 'TOO_LONG'
  /** Empty or longer than `max` characters. */
  | 'LENGTH'
  /** An issuer given to a provider that is not OpenID Connect. */
  | 'ISSUER_NOT_OIDC'
  /** An OpenID Connect issuer that is not an https address without query or fragment. */
  | 'ISSUER_INVALID'
  /** A webhook without an event. */
  | 'EVENTS_EMPTY'
  /** As many webhooks as allowed (`max`) already. */
  | 'WEBHOOKS_MAX';

/** Characters a domain label may hold: letters (internationalised domains), digits and `-`. */
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;
/** Whitespace, control characters and the specials that would need quoting in a local part. */
const LOCAL_PART_FORBIDDEN = /[\s\p{Cc}"(),:;<>@[\\\]]/u;

/**
 * Whether an address is plausible. Deliberately not full RFC 5322: quoted local parts and
 * IP-literal domains are valid there but only ever show up in typos and attacks; whether the
 * address exists is what the confirmation email finds out.
 */
function isPlausibleEmail(address: string): boolean {
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const labels = address.slice(at + 1).split('.');
  return (
    at > 0 &&
    !LOCAL_PART_FORBIDDEN.test(local) &&
    !local.startsWith('.') &&
    !local.endsWith('.') &&
    !local.includes('..') &&
    labels.length >= 2 &&
    labels.every((label) => DOMAIN_LABEL.test(label)) &&
    /^\p{L}{2,}$/u.test(labels[labels.length - 1] ?? '')
  );
}

/** An email address: trimmed, at most EMAIL_MAX_LENGTH characters, plausible. */
export const EMAIL_RULE = v.pipe(
  v.string(),
  v.trim(),
  v.check((address) => address !== '', 'EMAIL_REQUIRED' satisfies FieldProblem),
  v.check(
    (address) => characterCount(address) <= EMAIL_MAX_LENGTH,
    'EMAIL_TOO_LONG' satisfies FieldProblem,
  ),
  v.check(isPlausibleEmail, 'EMAIL_INVALID' satisfies FieldProblem),
);

/**
 * A new username: without bidirectional controls, trimmed, in NFC (so "é" typed two ways is one
 * name), USERNAME_MIN_LENGTH to USERNAME_MAX_LENGTH letters of any script, digits, `_` or `.`.
 * Names that look like a taken one are refused where names are stored (the server).
 */
export const USERNAME_RULE = v.pipe(
  v.string(),
  v.transform((input) => stripBidiControls(input).trim().normalize('NFC')),
  v.check((username) => {
    const length = characterCount(username);
    return length >= USERNAME_MIN_LENGTH && length <= USERNAME_MAX_LENGTH;
  }, 'USERNAME_LENGTH' satisfies FieldProblem),
  v.regex(USERNAME_PATTERN, 'USERNAME_CHARACTERS' satisfies FieldProblem),
);

/**
 * A new password: at least PASSWORD_MIN_LENGTH characters. Not trimmed: spaces are legitimate in
 * a passphrase, and dropping them silently would lock people out.
 */
export const NEW_PASSWORD_RULE = v.pipe(
  v.string(),
  v.check(
    (password) => characterCount(password.normalize('NFKC')) >= PASSWORD_MIN_LENGTH,
    'PASSWORD_TOO_SHORT' satisfies FieldProblem,
  ),
);

/** The code a sign-up emails: its SIGN_UP_CODE_DIGITS digits, spaces around them allowed. */
export const SIGN_UP_CODE_RULE = v.pipe(
  v.string(),
  v.trim(),
  v.regex(new RegExp(`^\\d{${SIGN_UP_CODE_DIGITS}}$`), 'CODE_INVALID' satisfies FieldProblem),
);

/** A rule of this module: a string in, the value to use out. */
export type FieldRule<T> = v.GenericSchema<string, T>;

/** The outcome of {@link checkField}. */
export type FieldCheck<T> = { value: T; problem?: undefined } | { problem: FieldProblem };

/** Checks `input` against `rule`: the value to use, or the first problem found. */
export function checkField<T>(rule: FieldRule<T>, input: string): FieldCheck<T> {
  const result = v.safeParse(rule, input, { abortEarly: true });
  if (result.success) return { value: result.output };
  return { problem: result.issues[0].message as FieldProblem };
}
