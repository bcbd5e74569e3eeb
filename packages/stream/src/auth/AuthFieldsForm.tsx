import type { OperationResult } from '@urql/core';
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
  /** Sends the form's mutation, once every field passes its check. */
  request(values: Record<N, string>): Promise<OperationResult<T>>;
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
}: AuthFieldsFormProps<N, T>) {
  const names = Object.keys(fields) as N[];
  const form = useAuthFields(env.window, env.t, fields, initial);
  const submit = useAuthSubmit();
  const send = () => {
    if (!form.check()) return;
    const { values } = form;
    void submit.run(
      () => request(values),
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
    </AuthForm>
  );
}
