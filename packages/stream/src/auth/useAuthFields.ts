import { useState } from 'preact/hooks';
import type { Translate } from '../i18n/createTranslator';
import type { PopupKey } from './popupCatalog';
import type { FieldProblemText } from './validateAccount';

/** The check of each field of a form (its `rule`; other properties of a field are not read). */
export type FieldRules<N extends string> = Record<
  N,
  { rule: (value: string) => FieldProblemText | undefined }
>;

/** A form's fields: their values, the props of each `<Field>`, and the check before sending. */
export interface AuthFields<N extends string> {
  /** Current values. */
  values: Record<N, string>;
  /** Props for the `<Field>` of `name`: id, value, change handler, message. */
  field(name: N): {
    id: string;
    value: string;
    onValue(value: string): void;
    problem: string | null;
  };
  /** Shows every field's message; focuses the first wrong field and returns false if one is. */
  check(): boolean;
}

/**
 * Values (from `initial`, else empty) and inline validation of a popup form. A field's message appears as soon as the reader
 * types in it (not before: an untouched form is not an error), and for every field on submit.
 */
export function useAuthFields<N extends string>(
  win: Window,
  t: Translate<PopupKey>,
  rules: FieldRules<N>,
  initial: Partial<Record<N, string>> = {},
): AuthFields<N> {
  const names = Object.keys(rules) as N[];
  const [values, setValues] = useState(
    () => Object.fromEntries(names.map((name) => [name, initial[name] ?? ''])) as Record<N, string>,
  );
  const [shown, setShown] = useState<Partial<Record<N, boolean>>>({});
  const idOf = (name: N) => `parley-${name}`;
  return {
    values,
    field(name) {
      const problem = shown[name] ? rules[name].rule(values[name]) : undefined;
      return {
        id: idOf(name),
        value: values[name],
        onValue(value) {
          setValues((current) => ({ ...current, [name]: value }));
          setShown((current) => ({ ...current, [name]: true }));
        },
        problem: problem ? t(problem.key, problem.vars) : null,
      };
    },
    check() {
      setShown(Object.fromEntries(names.map((name) => [name, true])) as Record<N, boolean>);
      const wrong = names.find((name) => rules[name].rule(values[name]) !== undefined);
      if (wrong !== undefined) win.document.getElementById(idOf(wrong))?.focus();
      return wrong === undefined;
    },
  };
}
