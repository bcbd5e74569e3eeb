/**
 * The install wizard's form: its fields, its steps, and the checks that run before Next. The
 * account checks are @parley/contract's rules, which the server applies too, so most mistakes are
 * caught in place; the server checks again and its field errors are mapped back here.
 */
import {
  checkField,
  EMAIL_MAX_LENGTH,
  EMAIL_RULE,
  NEW_PASSWORD_RULE,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_RULE,
} from '@parley/contract';
import type { FieldProblem, FieldRule } from '@parley/contract';

/** The console's words for each account problem. */
const PROBLEM_TEXT: Partial<Record<FieldProblem, string>> = {
  EMAIL_REQUIRED: 'Enter an email address like ada@example.com.',
  EMAIL_INVALID: 'Enter an email address like ada@example.com.',
  EMAIL_TOO_LONG: `Use at most ${EMAIL_MAX_LENGTH} characters.`,
  USERNAME_LENGTH: `Use ${USERNAME_MIN_LENGTH} to ${USERNAME_MAX_LENGTH} characters.`,
  USERNAME_CHARACTERS: 'Use letters, digits, “_” and “.” only.',
  PASSWORD_TOO_SHORT: `Use at least ${PASSWORD_MIN_LENGTH} characters.`,
};

/** A check of the form: the text of `rule`'s problem with the value, or null. */
const rule =
  <T>(fieldRule: FieldRule<T>) =>
  (value: string): string | null => {
    const { problem } = checkField(fieldRule, value);
    return problem ? (PROBLEM_TEXT[problem] ?? 'Not valid.') : null;
  };

/** Everything the wizard asks, as typed. */
export interface InstallForm {
  email: string;
  username: string;
  password: string;
  confirm: string;
  orgName: string;
  contactEmail: string;
  orgUrl: string;
  siteName: string;
  siteUrl: string;
  /** Permitted origins, one per line. */
  origins: string;
}

/** A message per field that failed its check. */
export type InstallErrors = Partial<Record<keyof InstallForm, string>>;

/** The steps that ask something, in order (the done step follows them). */
export const INSTALL_STEPS = ['admin', 'organization', 'site'] as const;

/** One of {@link INSTALL_STEPS}. */
export type InstallStep = (typeof INSTALL_STEPS)[number];

/** Which fields each step shows. */
export const STEP_FIELDS: Record<InstallStep, readonly (keyof InstallForm)[]> = {
  admin: ['email', 'username', 'password', 'confirm'],
  organization: ['orgName', 'contactEmail', 'orgUrl'],
  site: ['siteName', 'siteUrl', 'origins'],
};

/**
 * Port of the example host page that `npm start` serves. The server's `EXAMPLE_PORT` default
 * (packages/server/src/defaults.ts); the console cannot import server code, so it is repeated.
 */
export const EXAMPLE_PORT = 8080;

/** The origin of the example host page when the console runs locally, else null. */
export function exampleOrigin(location: Pick<Location, 'hostname'>): string | null {
  const { hostname } = location;
  if (hostname !== 'localhost' && hostname !== '127.0.0.1') return null;
  return `http://${hostname}:${EXAMPLE_PORT}`;
}

/** The empty form; permitted origins pre-filled with the example page's origin when local. */
export function initialInstallForm(location: Pick<Location, 'hostname'>): InstallForm {
  return {
    email: '',
    username: '',
    password: '',
    confirm: '',
    orgName: '',
    contactEmail: '',
    orgUrl: '',
    siteName: '',
    siteUrl: '',
    origins: exampleOrigin(location) ?? '',
  };
}

function httpUrl(value: string): URL | null {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** The non-empty lines of the origins field, trimmed. */
export function originLines(origins: string): string[] {
  return origins
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

const CHECKS: Record<keyof InstallForm, (value: string, form: InstallForm) => string | null> = {
  email: rule(EMAIL_RULE),
  username: rule(USERNAME_RULE),
  password: rule(NEW_PASSWORD_RULE),
  confirm: (v, form) => (v === form.password ? null : 'The passwords do not match.'),
  orgName: (v) => (v.trim() ? null : 'Enter the organization’s name.'),
  contactEmail: rule(EMAIL_RULE),
  orgUrl: (v) => (httpUrl(v) ? null : 'Enter a web address starting with https:// or http://.'),
  siteName: (v) => (v.trim() ? null : 'Enter the site’s name.'),
  siteUrl: (v) => (httpUrl(v) ? null : 'Enter a web address starting with https:// or http://.'),
  origins: (v) => {
    // An origin is scheme, host and port only: a path here would never match a page's origin.
    const bad = originLines(v).find((line) => httpUrl(line)?.origin !== line.replace(/\/$/, ''));
    return bad === undefined
      ? null
      : `“${bad}” is not an origin; write it like https://www.example.com (no path).`;
  },
};

/** The errors of one step's fields (empty when the step may move on). */
export function validateStep(step: InstallStep, form: InstallForm): InstallErrors {
  const errors: InstallErrors = {};
  for (const field of STEP_FIELDS[step]) {
    const message = CHECKS[field](form[field], form);
    if (message !== null) errors[field] = message;
  }
  return errors;
}

/** The `install` mutation's input. */
export function installInput(form: InstallForm) {
  return {
    admin: { email: form.email.trim(), username: form.username.trim(), password: form.password },
    organization: {
      name: form.orgName.trim(),
      contactEmail: form.contactEmail.trim(),
      url: form.orgUrl.trim(),
    },
    site: {
      name: form.siteName.trim(),
      url: form.siteUrl.trim(),
      allowedOrigins: originLines(form.origins),
    },
  };
}

/** The form field a server error's `extensions.field` names (`admin.email`, `site.allowedOrigins.0`). */
export function fieldOfServerError(field: string | undefined): keyof InstallForm | null {
  if (field === undefined) return null;
  if (field.startsWith('site.allowedOrigins')) return 'origins';
  const map: Record<string, keyof InstallForm> = {
    'admin.email': 'email',
    'admin.username': 'username',
    'admin.password': 'password',
    'organization.name': 'orgName',
    'organization.contactEmail': 'contactEmail',
    'organization.url': 'orgUrl',
    'site.name': 'siteName',
    'site.url': 'siteUrl',
  };
  return map[field] ?? null;
}

/** The step that shows `field`. */
export function stepOf(field: keyof InstallForm): InstallStep {
  return INSTALL_STEPS.find((step) => STEP_FIELDS[step].includes(field)) ?? 'admin';
}
