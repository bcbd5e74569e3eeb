// One message catalog per locale, with plural rules from the browser's own Intl.PluralRules
// (no library: every browser the widget supports has it, and it knows every language's rules).

/** A message with plural forms, chosen by the `count` variable. `other` is required. */
export type PluralMessage = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** A message: text with `{name}` placeholders, or plural forms of it. */
export type Message = string | PluralMessage;

/** Variables substituted into `{name}` placeholders. `count` also selects the plural form. */
export type MessageVars = Record<string, string | number>;

/** Looks up and formats a message. */
export type Translate<K extends string> = (key: K, vars?: MessageVars) => string;

/**
 * Creates the translate function for `locale` over `catalog`. An unknown key cannot compile; a
 * missing placeholder value is left visible (`{name}`) rather than silently dropped.
 */
export function createTranslator<K extends string>(
  locale: string,
  catalog: Readonly<Record<K, Message>>,
): Translate<K> {
  const plurals = new Intl.PluralRules(locale);
  const numbers = new Intl.NumberFormat(locale);
  return (key, vars = {}) => {
    const message = catalog[key];
    const template =
      typeof message === 'string'
        ? message
        : (message[plurals.select(Number(vars.count ?? 0))] ?? message.other);
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = vars[name];
      if (value === undefined) return whole;
      return typeof value === 'number' ? numbers.format(value) : value;
    });
  };
}
