import type { InputHTMLAttributes, ReactNode } from 'react';
import { useT } from '../../i18n';
import { fieldId } from './useSettingsForm';
import type { SettingsForm } from './useSettingsForm';

/** Keys of `T` whose values are of type `V`. */
type KeysOf<T, V> = { [K in keyof T]: T[K] extends V ? K : never }[keyof T] & string;

interface FieldProps<T, V> {
  form: SettingsForm<T>;
  name: KeysOf<T, V>;
  label: string;
  /** Constraints or meaning, read with the field (aria-describedby). */
  hint?: ReactNode;
}

/** The hint and the error of field `name`, and the aria attributes that tie them to it. */
function useDescription<T>(form: SettingsForm<T>, name: string, hint: ReactNode | undefined) {
  const id = fieldId(name);
  const error = form.errorFor(name);
  const describedBy =
    [hint !== undefined ? `${id}-hint` : '', error !== null ? `${id}-error` : '']
      .filter(Boolean)
      .join(' ') || undefined;
  const messages = (
    <>
      {hint !== undefined && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {error !== null && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </>
  );
  return {
    id,
    aria: { 'aria-describedby': describedBy, 'aria-invalid': error !== null },
    messages,
  };
}

/** A one-line text field (text, email, url, number kept as text) of a settings form. */
export function TextField<T>({
  form,
  name,
  label,
  hint,
  ...input
}: FieldProps<T, string> & Omit<InputHTMLAttributes<HTMLInputElement>, 'form' | 'name'>) {
  const { id, aria, messages } = useDescription(form, name, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        {...input}
        {...aria}
        value={form.values[name] as string}
        onChange={(e) => form.set(name, e.target.value as T[typeof name])}
      />
      {messages}
    </div>
  );
}

/** A multi-line text field of a settings form. */
export function TextAreaField<T>({
  form,
  name,
  label,
  hint,
  rows = 6,
  maxLength,
}: FieldProps<T, string> & { rows?: number; maxLength?: number }) {
  const { id, aria, messages } = useDescription(form, name, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        maxLength={maxLength}
        {...aria}
        value={form.values[name] as string}
        onChange={(e) => form.set(name, e.target.value as T[typeof name])}
      />
      {messages}
    </div>
  );
}

/** A choice among `options` (value and label) of a settings form. */
export function SelectField<T>({
  form,
  name,
  label,
  hint,
  options,
}: FieldProps<T, string> & { options: readonly { value: string; label: string }[] }) {
  const { id, aria, messages } = useDescription(form, name, hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        {...aria}
        value={form.values[name] as string}
        onChange={(e) => form.set(name, e.target.value as T[typeof name])}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {messages}
    </div>
  );
}

/** An on/off setting. */
export function CheckboxField<T>({ form, name, label, hint }: FieldProps<T, boolean>) {
  const { id, aria, messages } = useDescription(form, name, hint);
  return (
    <div className="field">
      <label htmlFor={id} className="checkbox">
        <input
          id={id}
          name={name}
          type="checkbox"
          {...aria}
          checked={form.values[name] as boolean}
          onChange={(e) => form.set(name, e.target.checked as T[typeof name])}
        />
        {label}
      </label>
      {messages}
    </div>
  );
}

/** Save button ("Save" unless `label` says otherwise), "Saved" and an error the fields do not show. */
export function FormFooter<T>({ form, label }: { form: SettingsForm<T>; label?: string }) {
  const t = useT();
  return (
    <div className="form-footer">
      <button type="submit" className="primary" disabled={form.saving}>
        {label ?? t('console.configure.save')}
      </button>
      <span role="status" className="success">
        {form.saved
          ? t('console.configure.saved')
          : form.dirty
            ? t('console.configure.unsaved')
            : ''}
      </span>
      {form.error !== null && (
        <p role="alert">{t('console.configure.notSaved', { error: form.error.text })}</p>
      )}
    </div>
  );
}
