import { useT } from '../i18n';

/** A search box of a filter form, with its visible label. */
export function SearchField({
  id,
  placeholder,
  value,
  onChange,
}: {
  /** The input's id (its label points at it). */
  id: string;
  /** Hint of what can be searched, e.g. "Title or URL". */
  placeholder: string;
  /** What is typed. */
  value: string;
  /** Called with every change. */
  onChange: (value: string) => void;
}) {
  const t = useT();
  return (
    <div>
      <label htmlFor={id}>{t('console.shell.search')}</label>
      <input
        id={id}
        type="search"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/** A select of a filter form: "all" (the empty value) first, then each option. */
export function FilterSelect<Value extends string>({
  id,
  label,
  all,
  options,
  value,
  onChange,
}: {
  /** The select's id (its label points at it). */
  id: string;
  /** The visible label, the select's accessible name. */
  label: string;
  /** Text of the empty value, which does not filter, e.g. "All roles". */
  all: string;
  /** The values to pick from, with their text, in order. */
  options: readonly { value: Value; label: string }[];
  /** The value picked, or '' for all. */
  value: Value | '';
  /** Called with the value picked, or '' for all. */
  onChange: (value: Value | '') => void;
}) {
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as Value | '')}>
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
