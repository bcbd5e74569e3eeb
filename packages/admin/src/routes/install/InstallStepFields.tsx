import type { InputHTMLAttributes } from 'react';
import { Field } from '../../Field';
import type { InstallErrors, InstallForm, InstallStep } from './installForm';

interface FieldSpec {
  label: string;
  hint?: string;
  multiline?: boolean;
  input?: InputHTMLAttributes<HTMLInputElement>;
}

// `autoComplete` values let password managers offer (and save) the new admin account.
const SPECS: Record<keyof InstallForm, FieldSpec> = {
  email: { label: 'Email', input: { type: 'email', autoComplete: 'email' } },
  username: {
    label: 'Username',
    hint: 'Shown next to your comments and decisions.',
    input: { autoComplete: 'username' },
  },
  password: {
    label: 'Password',
    hint: 'At least 8 characters.',
    input: { type: 'password', autoComplete: 'new-password' },
  },
  confirm: {
    label: 'Confirm password',
    input: { type: 'password', autoComplete: 'new-password' },
  },
  orgName: { label: 'Organization name', input: { autoComplete: 'organization' } },
  contactEmail: {
    label: 'Contact email',
    hint: 'Where commenters can reach your team.',
    input: { type: 'email' },
  },
  orgUrl: { label: 'Organization URL', input: { type: 'url', placeholder: 'https://example.com' } },
  siteName: { label: 'Site name' },
  siteUrl: {
    label: 'Site URL',
    hint: 'The address of the site whose pages will show comments.',
    input: { type: 'url', placeholder: 'https://www.example.com' },
  },
  origins: {
    label: 'Permitted origins',
    hint: 'Other origins allowed to embed comments, one per line. The site URL’s origin is always permitted.',
    multiline: true,
  },
};

/** The headings and introductions of the steps. */
export const STEP_TEXT: Record<InstallStep, { title: string; intro: string }> = {
  admin: {
    title: 'Your admin account',
    intro: 'You will sign in to the console with this account.',
  },
  organization: {
    title: 'Your organization',
    intro: 'The organization that runs the comments, as commenters will see it.',
  },
  site: {
    title: 'Your first site',
    intro: 'The website where comments will appear. You can add more sites later.',
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
  return (
    <>
      {fields.map((name) => {
        const spec = SPECS[name];
        const common = {
          id: `install-${name}`,
          label: spec.label,
          hint: spec.hint,
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
