import { useEffect, useRef } from 'preact/hooks';

/** Props of {@link Field}. */
export interface FieldProps {
  /** Element id; the message under the field is `${id}-problem`. */
  id: string;
  /** Visible label, which is also the field's accessible name. */
  label: string;
  /** Input type. */
  type: 'email' | 'text' | 'password';
  /** Browser autofill hint (`email`, `username`, `current-password`, `new-password`). */
  autoComplete: string;
  /** Current value. */
  value: string;
  /** Called with every change as the reader types. */
  onValue(value: string): void;
  /** What is wrong, shown under the field; null when nothing is (or nothing yet). */
  problem: string | null;
  /** Focuses the field when it appears (the first field of each form). @default false */
  autoFocus?: boolean;
}

/** A labelled input of the popup with its inline validation message. */
export function Field(props: FieldProps) {
  const { id, label, type, autoComplete, value, problem, onValue, autoFocus = false } = props;
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // The `autofocus` attribute only acts on page load, not when a form is switched in.
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);
  return (
    <div class="parley-field">
      <label for={id}>{label}</label>
      <input
        ref={ref}
        id={id}
        name={id}
        // Preact's types split inputs by `type` only to say which allow a `role`; this sets none.
        type={type as 'text'}
        autoComplete={autoComplete}
        value={value}
        required
        onInput={(event) => onValue(event.currentTarget.value)}
        aria-invalid={problem === null ? undefined : 'true'}
        aria-describedby={problem === null ? undefined : `${id}-problem`}
      />
      {problem !== null && (
        <p id={`${id}-problem`} class="parley-field-problem">
          {problem}
        </p>
      )}
    </div>
  );
}
