import type { InputHTMLAttributes } from 'react';
import { PASSWORD_MIN_LENGTH } from '@parley/contract';
import type { MessageVars } from '@parley/contract';
import { Field } from '../../Field';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
import type { InstallErrors, InstallForm, InstallStep } from './installForm';

/** A field's catalog keys (label, hint) and its control's props. */
interface FieldSpec {
  label: ConsoleMessageKey;
  hint?: ConsoleMessageKey;
  /** The hint's placeholders. */
  hintVars?: MessageVars;
  multiline?: boolean;
  input?: InputHTMLAttributes<HTMLInputElement>;
}

// `autoComplete` values let password managers offer (and save) the new admin account.
const SPECS: Record<keyof InstallForm, FieldSpec> = {
  email: { label: 'console.install.field.email', input: { type: 'email', autoComplete: 'email' } },
  username: {
    label: 'console.install.field.username',
    hint: 'console.install.field.username.hint',
    input: { autoComplete: 'username' },
  },
  password: {
    label: 'console.install.field.password',
    hint: 'console.install.field.password.hint',
    hintVars: { min: PASSWORD_MIN_LENGTH },
    input: { type: 'password', autoComplete: 'new-password' },
  },
  confirm: {
    label: 'console.install.field.confirm',
    input: { type: 'password', autoComplete: 'new-password' },
  },
  orgName: { label: 'console.install.field.orgName', input: { autoComplete: 'organization' } },
  contactEmail: {
    label: 'console.install.field.contactEmail',
    hint: 'console.install.field.contactEmail.hint',
    input: { type: 'email' },
  },
  orgUrl: {
    label: 'console.install.field.orgUrl',
    input: { type: 'url', placeholder: 'https://example.com' },
  },
  siteName: { label: 'console.install.field.siteName' },
  siteUrl: {
    label: 'console.install.field.siteUrl',
    hint: 'console.install.field.siteUrl.hint',
    input: { type: 'url', placeholder: 'https://www.example.com' },
  },
  origins: {
    label: 'console.install.field.origins',
    hint: 'console.install.field.origins.hint',
    multiline: true,
  },
};

/** The catalog keys of the steps' headings and introductions (`t(key)`). */
export const STEP_TEXT: Record<
  InstallStep,
  { title: ConsoleMessageKey; intro: ConsoleMessageKey }
> = {
  admin: {
    title: 'console.install.step.admin.title',
    intro: 'console.install.step.admin.intro',
  },
  organization: {
    title: 'console.install.step.organization.title',
    intro: 'console.install.step.organization.intro',
  },
  site: {
    title: 'console.install.step.site.title',
    intro: 'console.install.step.site.intro',
  },
};

/** The fields of one step of the install wizard. */
export function InstallStepFields({
  fields,
  form,
  errors,
  onChange,
}: {
  /** The fields of the step, in order. */
  fields: readonly (keyof InstallForm)[];
  /** The values typed so far. */
  form: InstallForm;
  /** Messages of the fields that failed their check. */
  errors: InstallErrors;
  /** Called with each change. */
  onChange: (field: keyof InstallForm, value: string) => void;
}) {
  const t = useT();
  return (
    <>
      {fields.map((name) => {
        const spec = SPECS[name];
        const common = {
          id: `install-${name}`,
          label: t(spec.label),
          hint: spec.hint && t(spec.hint, spec.hintVars),
          error: errors[name],
          value: form[name],
          name,
        };
        return spec.multiline ? (
          <Field
            key={name}
            {...common}
            multiline
            rows={3}
            onChange={(event) => onChange(name, event.target.value)}
          />
        ) : (
          <Field
            key={name}
            {...common}
            {...spec.input}
            onChange={(event) => onChange(name, event.target.value)}
          />
        );
      })}
    </>
  );
}
