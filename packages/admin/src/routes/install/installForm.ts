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
import type { FieldProblem, FieldRule, Translate } from '@parley/contract';
import { ENGLISH } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';

type T = Translate<ConsoleMessageKey>;

/** The console's words for each account problem, in the language of `t`. */
const PROBLEM_TEXT: Partial<Record<FieldProblem, (t: T) => string>> = {
  EMAIL_REQUIRED: (t) => t('console.install.problem.email'),
  EMAIL_INVALID: (t) => t('console.install.problem.email'),
  EMAIL_TOO_LONG: (t) => t('console.install.problem.emailTooLong', { max: EMAIL_MAX_LENGTH }),
  USERNAME_LENGTH: (t) =>
    t('console.install.problem.usernameLength', {
      min: USERNAME_MIN_LENGTH,
      max: USERNAME_MAX_LENGTH,
    }),
  USERNAME_CHARACTERS: (t) => t('console.install.problem.usernameCharacters'),
  PASSWORD_TOO_SHORT: (t) =>
    t('console.install.problem.passwordTooShort', { min: PASSWORD_MIN_LENGTH }),
};

/** The console's words for an account problem the server found (`extensions.problem`), if one. */
export function accountProblemText(problem: unknown, t: T): string | undefined {
  return typeof problem === 'string' && problem in PROBLEM_TEXT
    ? PROBLEM_TEXT[problem as FieldProblem]?.(t)
    : undefined;
}

/** A check of the form: the text of `rule`'s problem with the value, or null. */
const rule =
  <V>(fieldRule: FieldRule<V>) =>
  (value: string, _form: InstallForm, t: T): string | null => {
    const { problem } = checkField(fieldRule, value);
    if (!problem) return null;
    return PROBLEM_TEXT[problem]?.(t) ?? t('console.install.problem.notValid');
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

const CHECKS: Record<keyof InstallForm, (value: string, form: InstallForm, t: T) => string | null> =
  {
    email: rule(EMAIL_RULE),
    username: rule(USERNAME_RULE),
    password: rule(NEW_PASSWORD_RULE),
    confirm: (v, form, t) => (v === form.password ? null : t('console.install.problem.confirm')),
    orgName: (v, _form, t) => (v.trim() ? null : t('console.install.problem.orgName')),
    contactEmail: rule(EMAIL_RULE),
    orgUrl: (v, _form, t) => (httpUrl(v) ? null : t('console.install.problem.webAddress')),
    siteName: (v, _form, t) => (v.trim() ? null : t('console.install.problem.siteName')),
    siteUrl: (v, _form, t) => (httpUrl(v) ? null : t('console.install.problem.webAddress')),
    origins: (v, _form, t) => {
      // An origin is scheme, host and port only: a path here would never match a page's origin.
      const bad = originLines(v).find((line) => httpUrl(line)?.origin !== line.replace(/\/$/, ''));
      return bad === undefined ? null : t('console.install.problem.origin', { origin: bad });
    },
  };

/**
 * The errors of one step's fields (empty when the step may move on), in the language of `t`
 * (English by default).
 */
export function validateStep(step: InstallStep, form: InstallForm, t: T = ENGLISH): InstallErrors {
  const errors: InstallErrors = {};
  for (const field of STEP_FIELDS[step]) {
    const message = CHECKS[field](form[field], form, t);
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
