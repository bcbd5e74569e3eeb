// One message catalog per locale, with plural rules from the browser's own Intl.PluralRules
// (no library: every browser the widget supports has it, and it knows every language's rules).
// The widget and the console both translate with it; their catalogs are compiled from
// locales/*/*.json (locales/compile.ts) into the `Message` form below.
import { RTL_LOCALES } from './locales.generated';

/** A message with plural forms, chosen by the `count` variable. `other` is required. */
export type PluralMessage = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** A message: text with `{name}` placeholders, or plural forms of it. */
export type Message = string | PluralMessage;

/** Variables substituted into `{name}` placeholders. `count` also selects the plural form. */
export type MessageVars = Record<string, string | number>;

/** Looks up and formats a message. */
export type Translate<K extends string> = (key: K, vars?: MessageVars) => string;

// The catalog behind each translate function: lazy chunks add the text of their area to it
// (extendCatalog), so the first render carries only the text it shows.
const catalogs = new WeakMap<object, Record<string, Message | undefined>>();

/**
 * Creates the translate function for `locale` over `catalog`. An unknown key cannot compile; a
 * missing placeholder value is left visible (`{name}`) rather than silently dropped. `L` (none by
 * default) names keys whose text a lazy chunk adds later ({@link extendCatalog}); until then such
 * a key shows as itself.
 */
export function createTranslator<K extends string, L extends string = never>(
  locale: string,
  catalog: Readonly<Record<K, Message>>,
): Translate<K | L> {
  const plurals = new Intl.PluralRules(locale);
  const numbers = new Intl.NumberFormat(locale);
  const messages: Record<string, Message | undefined> = { ...catalog };
  const t: Translate<K | L> = (key, vars = {}) => {
    const message = messages[key];
    if (message === undefined) return key;
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
  catalogs.set(t, messages);
  return t;
}

/**
 * Adds `messages` (the text a lazy chunk brings for its area) to the catalog behind `t`, for the
 * keys it has no text for: a catalog that has the area in its own language keeps it.
 */
export function extendCatalog<K extends string>(
  t: Translate<K>,
  messages: Readonly<Partial<Record<K, Message>>>,
): void {
  const catalog = catalogs.get(t) ?? {};
  Object.assign(catalog, { ...messages, ...catalog });
}

/**
 * The locale of `locales` (the widget's: SUPPORTED_LOCALES) for a language tag: the tag itself (`pt-BR`), else the first of its
 * language (`pt-PT` → `pt-BR`, `zh-TW` → `zh-CN`, `es-MX` → `es`); undefined when none.
 */
export function toLocale<L extends string>(
  tag: string | null | undefined,
  locales: readonly L[],
): L | undefined {
  const lower = (tag ?? '').trim().toLowerCase().replace('_', '-');
  const base = (locale: string) => locale.toLowerCase().split('-')[0];
  return lower
    ? (locales.find((locale) => locale.toLowerCase() === lower) ??
        locales.find((locale) => base(locale) === base(lower)))
    : undefined;
}

/**
 * Marks `doc` as written in `locale`: its `lang` (fonts, hyphenation, screen readers) and its
 * direction (`rtl` for Arabic and Hebrew: the styles use logical properties, so the layout
 * mirrors). The widget's frame and popup and the console each mark their own document.
 */
export function setDocumentLanguage(doc: Document, locale: string): void {
  doc.documentElement.lang = locale;
  doc.documentElement.dir = directionOf(locale);
}

/** The direction `locale` is written in (a document's `dir`). */
export function directionOf(locale: string): 'rtl' | 'ltr' {
  return (RTL_LOCALES as readonly string[]).includes(locale) ? 'rtl' : 'ltr';
}

/**
 * The catalog of a locale's chunk (codegen writes one loader a locale), or `english` when there
 * is no chunk (English is bundled) or it fails to load (a tab open across a deploy asks for a
 * chunk that is gone): text is never missing.
 */
export function loadCatalogChunk<C>(
  english: C,
  chunk: (() => Promise<{ catalog: C }>) | undefined,
): Promise<C> {
  return chunk
    ? chunk().then(
        (module) => module.catalog,
        () => english,
      )
    : Promise.resolve(english);
}
