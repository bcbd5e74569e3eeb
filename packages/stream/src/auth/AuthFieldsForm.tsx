import type { OperationResult } from '@urql/core';
import { useRef } from 'preact/hooks';
import type { RefObject } from 'preact';
import { AuthForm } from './AuthForm';
import { Field } from './Field';
import type { FieldProps } from './Field';
import type { PopupEnv } from './PopupEnv';
import { useAuthFields } from './useAuthFields';
import type { FieldRules } from './useAuthFields';
import { useAuthSubmit } from './useAuthSubmit';

/** One field of a popup form: how it looks, and its check. */
export interface AuthFieldSpec extends Pick<FieldProps, 'label' | 'type' | 'autoComplete'> {
  /** What is wrong with a value, if anything. */
  rule: FieldRules<string>[string]['rule'];
}

/** Props of {@link AuthFieldsForm}. */
export interface AuthFieldsFormProps<N extends string, T> {
  /** The popup's environment. */
  env: PopupEnv;
  /** Text of the submit button (its accessible name). */
  submitLabel: string;
  /** The fields, in order; the first is focused when the form appears. */
  fields: Record<N, AuthFieldSpec>;
  /** Values the fields start with. @default every field empty */
  initial?: Partial<Record<N, string>>;
  /**
   * Sends the form's mutation, once every field passes its check; `website` is the honeypot's
   * value (with `trap`).
   */
  request(values: Record<N, string>, website: string): Promise<OperationResult<T>>;
  /** Adds the honeypot field scripts fill and people never see (auth/botCheck.ts on the server). */
  trap?: boolean;
  /** Called with the answer's data (and the values sent) when the mutation succeeded. */
  onData(data: T, values: Record<N, string>): void;
}

/** A popup form: its fields with inline checks, the submit, and the server's coded error. */
export function AuthFieldsForm<N extends string, T>({
  env,
  submitLabel,
  fields,
  initial,
  request,
  onData,
  trap,
}: AuthFieldsFormProps<N, T>) {
  const names = Object.keys(fields) as N[];
  const form = useAuthFields(env.window, env.t, fields, initial);
  const submit = useAuthSubmit();
  const trapField = useRef<HTMLInputElement>(null);
  const send = () => {
    if (!form.check()) return;
    const { values } = form;
    void submit.run(
      () => request(values, trapField.current?.value ?? ''),
      (data) => onData(data, values),
    );
  };
  return (
    <AuthForm
      env={env}
      submitLabel={submitLabel}
      busy={submit.busy}
      error={submit.error}
      onSubmit={send}
    >
      {names.map((name, i) => {
        const { label, type, autoComplete } = fields[name];
        return (
          <Field
            key={name}
            {...form.field(name)}
            label={label}
            type={type}
            autoComplete={autoComplete}
            autoFocus={i === 0}
          />
        );
      })}
      {trap && <Trap field={trapField} />}
    </AuthForm>
  );
}

/**
 * The honeypot: a field out of sight, out of the tab order and hidden from screen readers, so
 * people leave it empty and scripts that fill in every field do not. Also used by the guest form.
 */
export function Trap({ field }: { field: RefObject<HTMLInputElement | null> }) {
  return (
    <div class="parley-visually-hidden" aria-hidden="true">
      <input ref={field} name="website" tabIndex={-1} autoComplete="off" />
    </div>
  );
}
