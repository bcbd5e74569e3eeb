import {
  EMAIL_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from '../defaults';
import { ParleyError } from '../ParleyError';
import { stripBidiControls } from './lookalikes';

/**
 * Account field rules (DESIGN.md "User"). Each validator returns the normalised value to store and
 * throws ParleyError `INVALID_INPUT` with `field` set, so the form can show the message next to
 * the right input.
 */

/** Length in characters (code points): "é" or an emoji counts once, as a person would count it. */
function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

function invalid(field: string, message: string): ParleyError {
  return new ParleyError('INVALID_INPUT', message, { field });
}

/**
 * Validates a username: 3–30 letters (any script), digits, `_` or `.`, after trimming. Returns the
 * trimmed username in NFC form, so "é" typed two ways is one name. Bidirectional controls are
 * removed first (they are invisible, and could make a name display as another);
 * names that look like a taken one are refused where names are stored (db/store/users.ts).
 */
export function validateUsername(input: string, field = 'username'): string {
  const username = stripBidiControls(input).trim().normalize('NFC');
  const length = characterCount(username);
  if (length < USERNAME_MIN_LENGTH || length > USERNAME_MAX_LENGTH) {
    throw invalid(
      field,
      `Username must be ${USERNAME_MIN_LENGTH} to ${USERNAME_MAX_LENGTH} characters long; ` +
        `this one has ${length}.`,
    );
  }
  if (!USERNAME_PATTERN.test(username)) {
    throw invalid(field, 'Username may contain only letters, digits, "_" and ".".');
  }
  return username;
}

/** A validated email: the address to store and show, and the key that must be unique. */
export interface NormalizedEmail {
  /** The address as typed, trimmed. */
  address: string;
  /** Lower-cased address: two accounts cannot differ only by letter case. */
  key: string;
}

/** Characters a domain label may hold: letters (internationalised domains), digits and `-`. */
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;
/** Whitespace, control characters and the specials that would need quoting in a local part. */
const LOCAL_PART_FORBIDDEN = /[\s\p{Cc}"(),:;<>@[\\\]]/u;

/**
 * Why an address is not plausible, or undefined when it is. Deliberately not full RFC 5322: quoted
 * local parts and IP-literal domains are valid there but only ever show up in typos and attacks;
 * whether the address really exists is what the confirmation email finds out.
 */
function emailProblem(address: string): string | undefined {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return 'it needs a name, "@" and a domain';
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (LOCAL_PART_FORBIDDEN.test(local)) return 'the part before "@" has a character not allowed';
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) {
    return 'the part before "@" has a misplaced "."';
  }
  const labels = domain.split('.');
  if (labels.length < 2) return 'the domain needs a "." (as in example.com)';
  if (!labels.every((label) => DOMAIN_LABEL.test(label))) return 'the domain is not valid';
  if (!/^\p{L}{2,}$/u.test(labels[labels.length - 1] ?? ''))
    return 'the domain ending is not valid';
  return undefined;
}

/**
 * Validates an email address: plausible syntax and at most 100 characters, after trimming. Returns
 * the trimmed address and its lower-cased uniqueness key.
 */
export function validateEmail(input: string, field = 'email'): NormalizedEmail {
  const address = input.trim();
  const length = characterCount(address);
  if (length === 0) throw invalid(field, 'Email address is required.');
  if (length > EMAIL_MAX_LENGTH) {
    throw invalid(
      field,
      `Email address must be at most ${EMAIL_MAX_LENGTH} characters; this one has ${length}.`,
    );
  }
  const problem = emailProblem(address);
  if (problem !== undefined) throw invalid(field, `That is not a valid email address: ${problem}.`);
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
  const length = characterCount(input.normalize('NFKC'));
  if (length < PASSWORD_MIN_LENGTH) {
    throw invalid(
      field,
      `Password must be at least ${PASSWORD_MIN_LENGTH} characters; this one has ${length}.`,
    );
  }
}
