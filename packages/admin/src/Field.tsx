import { useId } from 'react';
import type { InputHTMLAttributes, TextareaHTMLAttributes } from 'react';

/** Props of {@link Field}: a label, an optional hint and error, and the control's own props. */
export type FieldProps = {
  /** The visible label (also the control's accessible name). */
  label: string;
  /** The error shown under the control; it marks the control invalid. @default undefined */
  error?: string | undefined;
  /** Help shown under the label. @default undefined */
  hint?: string | undefined;
} & (
  | ({ multiline?: false } & InputHTMLAttributes<HTMLInputElement>)
  | ({ multiline: true } & TextareaHTMLAttributes<HTMLTextAreaElement>)
);

/**
 * A labelled input (or textarea) whose hint and error are tied to it with `aria-describedby`, so
 * a screen reader reads the error when the field gets focus, not only when it appears.
 */
export function Field(props: FieldProps) {
  const generated = useId();
  const { label, error, hint, id = generated, ...rest } = props;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  const aria = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={hintId} className="hint">
          {hint}
        </p>
      )}
      {rest.multiline ? (
        <textarea {...withoutMultiline(rest)} {...aria} />
      ) : (
        <input {...withoutMultiline(rest)} {...aria} />
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

function withoutMultiline<T extends { multiline?: boolean }>(props: T): Omit<T, 'multiline'> {
  const { multiline: _multiline, ...rest } = props;
  return rest;
}
