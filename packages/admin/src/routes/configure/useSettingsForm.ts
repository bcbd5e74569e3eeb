import { useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation } from 'urql';
import { toTransportError } from '@parley/transport';
import { useConsoleEnv } from '../../ConsoleContext';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
import { UPDATE_SETTINGS_MUTATION } from './configureQueries';
import type { ConsoleSettings, SettingsInput } from './configureQueries';
import { useUnsavedChangesGuard } from './useUnsavedChangesGuard';

/** A value the form can tell is wrong before sending (a number field holding "abc"). */
export class FieldProblem extends Error {
  /**
   * @param field the form key the problem is about
   * @param key the catalog key of what the form says about it
   */
  constructor(
    readonly field: string,
    readonly key: ConsoleMessageKey,
  ) {
    super(key);
  }
}

/** A whole number from a number field's text, or a {@link FieldProblem} on `field`. */
export function wholeNumber(text: string, field: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value)) {
    throw new FieldProblem(field, 'console.configure.wholeNumber');
  }
  return value;
}

/** The id of a field's control: errors focus it and label it. */
export function fieldId(name: string): string {
  return `cfg-${name}`;
}

/** A form over some of the settings, with the state its fields and footer need. */
export interface SettingsForm<T> {
  values: T;
  set: <K extends keyof T>(key: K, value: T[K]) => void;
  /** Whether the values differ from what is stored. */
  dirty: boolean;
  saving: boolean;
  /** True after a save, until the next change. */
  saved: boolean;
  /** The last save's error (coded text), and the form key it is about if any. */
  error: { field: string | undefined; text: string } | null;
  /** The error text if the last error is about form key `name` (or an entry of it). */
  errorFor: (name: string) => string | null;
  submit: (event: FormEvent) => void;
}

/** Options of {@link useSettingsForm}. */
export interface SettingsFormOptions<T> {
  /** The stored settings the form starts from. */
  settings: ConsoleSettings;
  /** The form's values from stored settings (also applied to the saved answer). */
  fromSettings: (settings: ConsoleSettings) => T;
  /** The update to send; may throw a {@link FieldProblem}. */
  toInput: (values: T) => SettingsInput;
  /** What the server puts before this form's keys in `extensions.field`. @default '' */
  fieldPrefix?: string;
}

/**
 * State of one settings section: a draft over the stored values, the unsaved-changes guard while
 * they differ, and a save that shows success or the coded error next to the field the server
 * named in `extensions.field` (focused, so a keyboard user lands on it).
 */
export function useSettingsForm<T>(options: SettingsFormOptions<T>): SettingsForm<T> {
  const { settings, fromSettings, toInput, fieldPrefix = '' } = options;
  const { window: win } = useConsoleEnv();
  const t = useT();
  const errorText = useErrorText();
  const [baseline, setBaseline] = useState(() => fromSettings(settings));
  const [values, setValues] = useState(baseline);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<SettingsForm<T>['error']>(null);
  const [state, update] = useMutation(UPDATE_SETTINGS_MUTATION);
  const dirty = JSON.stringify(values) !== JSON.stringify(baseline);
  useUnsavedChangesGuard(dirty);

  function fail(field: string | undefined, text: string) {
    setError({ field, text });
    if (field !== undefined) win.document.getElementById(fieldId(field))?.focus();
  }

  async function save() {
    setSaved(false);
    setError(null);
    let input: SettingsInput;
    try {
      input = toInput(values);
    } catch (problem) {
      if (problem instanceof FieldProblem) return fail(problem.field, t(problem.key));
      throw problem;
    }
    const result = await update({ input });
    if (result.error) {
      const err = toTransportError(result.error);
      // `allowedOrigins.2` and `organization.url` name this form's keys `allowedOrigins`, `url`.
      const field = err.field?.startsWith(fieldPrefix)
        ? err.field.slice(fieldPrefix.length).split('.')[0]
        : undefined;
      return fail(field, errorText(err.code));
    }
    if (!result.data) return fail(undefined, errorText('BAD_RESPONSE'));
    const next = fromSettings(result.data.updateSettings.settings);
    setBaseline(next);
    setValues(next);
    setSaved(true);
  }

  return {
    values,
    set: (key, value) => {
      setSaved(false);
      setValues((current) => ({ ...current, [key]: value }));
    },
    dirty,
    saving: state.fetching,
    saved,
    error,
    errorFor: (name) => (error !== null && error.field === name ? error.text : null),
    submit: (event) => {
      event.preventDefault();
      void save();
    },
  };
}
