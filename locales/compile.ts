// The catalogs' compiler. Translators edit `locales/<locale>/<area>.json`: flat JSON, one ICU
// MessageFormat string per key, the format translation tools (Weblate, Crowdin, Lokalise) edit.
// `npm run codegen` compiles them into the small form the widgets' runtime reads
// (packages/stream/src/i18n/createTranslator.ts: text with `{name}` placeholders, or plural forms
// of it chosen by `count`), so no MessageFormat runtime ships to readers. ICU beyond that form
// (select, nested plurals, dates) fails here, at build time, with the key and the reason.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, TYPE } from '@formatjs/icu-messageformat-parser';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/** Where the catalogs live: one folder per locale, one file per area (run from the repository). */
export const LOCALES_DIR = resolve('locales');

/** The source locale: every other catalog is held to its keys and placeholders. */
export const SOURCE_LOCALE = 'en';

/** A compiled message: text with `{name}` placeholders, or its plural forms (by `count`). */
export type CompiledMessage = string | Partial<Record<Intl.LDMLPluralRule, string>>;

/** A catalog file's messages, ICU text by key. */
export type SourceCatalog = Readonly<Record<string, string>>;

/** Thrown for a message the runtime cannot show: names the locale, area and key. */
export class CatalogError extends Error {
  override name = 'CatalogError';
}

/** Every locale with a folder, English first, then alphabetically. */
export function catalogLocales(): string[] {
  return readdirSync(LOCALES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a === SOURCE_LOCALE ? -1 : b === SOURCE_LOCALE ? 1 : a.localeCompare(b)));
}

/** The areas English has (every locale must have the same). */
export function catalogAreas(): string[] {
  return readdirSync(join(LOCALES_DIR, SOURCE_LOCALE))
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.replace(/\.json$/, ''))
    .sort();
}

/** One area's messages in `locale`; an empty catalog when the file is missing. */
export function readCatalog(locale: string, area: string): SourceCatalog {
  const file = join(LOCALES_DIR, locale, `${area}.json`);
  if (!existsSync(file)) return {};
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new CatalogError(`${locale}/${area}.json: expected an object of messages by key`);
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== 'string')
      throw new CatalogError(`${locale}/${area}.json: ${key}: expected a string`);
  }
  return parsed as SourceCatalog;
}

/** The text of elements without a plural (`#` is the plural's count). */
function flatText(elements: MessageFormatElement[], where: string): string {
  return elements
    .map((element) => {
      switch (element.type) {
        case TYPE.literal:
          if (/[{}]/.test(element.value))
            throw new CatalogError(`${where}: literal braces are not supported in the text`);
          return element.value;
        case TYPE.argument:
          // The runtime fills `{name}` for word characters only (createTranslator.ts).
          if (!/^\w+$/.test(element.value))
            throw new CatalogError(`${where}: a placeholder's name is letters, digits and _ only`);
          return `{${element.value}}`;
        case TYPE.number:
          // The runtime formats every number variable with Intl.NumberFormat.
          if (element.style)
            throw new CatalogError(`${where}: number styles are not supported ({x, number})`);
          return `{${element.value}}`;
        case TYPE.pound:
          return '{count}';
        default:
          throw new CatalogError(
            `${where}: only text, {placeholders} and one {count, plural, …} are supported`,
          );
      }
    })
    .join('');
}

/**
 * Compiles one ICU message. A message may hold one plural, on `count`, anywhere in it: the text
 * around it goes into each form. `where` names the message in errors.
 */
export function compileMessage(source: string, where: string): CompiledMessage {
  let elements: MessageFormatElement[];
  try {
    elements = parse(source, { ignoreTag: true, requiresOtherClause: true });
  } catch (error) {
    throw new CatalogError(`${where}: not valid ICU MessageFormat (${(error as Error).message})`);
  }
  const plurals = elements.filter((element) => element.type === TYPE.plural);
  const [plural] = plurals;
  if (!plural) return flatText(elements, where);
  if (plurals.length > 1) throw new CatalogError(`${where}: more than one plural`);
  if (plural.value !== 'count')
    throw new CatalogError(`${where}: the plural must be on {count}, not {${plural.value}}`);
  if (plural.offset || plural.pluralType === 'ordinal')
    throw new CatalogError(`${where}: offsets and ordinal plurals are not supported`);
  const at = elements.indexOf(plural);
  const before = flatText(elements.slice(0, at), where);
  const after = flatText(elements.slice(at + 1), where);
  const forms: Partial<Record<Intl.LDMLPluralRule, string>> = {};
  for (const [form, { value }] of Object.entries(plural.options)) {
    if (form.startsWith('='))
      throw new CatalogError(
        `${where}: exact forms (${form}) are not supported; use the language's forms`,
      );
    forms[form as Intl.LDMLPluralRule] = before + flatText(value, `${where} (${form})`) + after;
  }
  return forms;
}

/** The placeholders a text uses, sorted, once each. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] ?? ''))].sort();
}

/**
 * Plural forms that may name their number in words and leave placeholders out ("تعليقان", "one
 * day"): those of 0, 1 and 2. Every other form says the number.
 */
const WORD_FORMS = new Set(['zero', 'one', 'two']);

/** What differs in `message`'s placeholders from English's (`original`), one line each. */
function placeholderProblems(
  key: string,
  original: CompiledMessage,
  message: CompiledMessage,
): string[] {
  const list = (names: string[]) => `{${names.join(',')}}`;
  if (typeof original === 'string' || typeof message === 'string') {
    const [wanted, had] = [original, message].map((m) =>
      placeholdersOf(typeof m === 'string' ? m : Object.values(m).join(' ')),
    ) as [string[], string[]];
    return wanted.join() === had.join()
      ? []
      : [`${key}: placeholders ${list(had)}, English has ${list(wanted)}`];
  }
  // Every form against English's `other`, which has them all.
  const wanted = placeholdersOf(original.other ?? '');
  const found: string[] = [];
  for (const [form, text] of Object.entries(message)) {
    const had = placeholdersOf(text ?? '');
    const extra = had.filter((name) => !wanted.includes(name));
    const missing = WORD_FORMS.has(form) ? [] : wanted.filter((name) => !had.includes(name));
    if (extra.length || missing.length)
      found.push(`${key} (${form}): placeholders ${list(had)}, English has ${list(wanted)}`);
  }
  return found;
}

/** Compiles an area's catalog; throws a {@link CatalogError} naming the first bad message. */
export function compileCatalog(
  locale: string,
  area: string,
  catalog: SourceCatalog = readCatalog(locale, area),
): Record<string, CompiledMessage> {
  return Object.fromEntries(
    Object.entries(catalog).map(([key, source]) => [
      key,
      compileMessage(source, `${locale}/${area}.json: ${key}`),
    ]),
  );
}

/**
 * What is wrong with `locale`'s `area` against English, one line per problem naming the key:
 * a key missing or extra, a message that does not compile, placeholders that differ (a dropped
 * `{name}` loses information, a misspelt one shows raw to readers), a plural where English has
 * none or none where it has one, a plural form the language never chooses, no `other` form.
 */
export function catalogProblems(
  locale: string,
  english: SourceCatalog,
  catalog: SourceCatalog,
): string[] {
  const found: string[] = [];
  const forms = new Set<string>(new Intl.PluralRules(locale).resolvedOptions().pluralCategories);
  for (const key of Object.keys(english)) if (!(key in catalog)) found.push(`${key}: missing`);
  for (const [key, source] of Object.entries(catalog)) {
    const want = english[key];
    if (want === undefined) {
      found.push(`${key}: not in English`);
      continue;
    }
    let message: CompiledMessage;
    let original: CompiledMessage;
    try {
      original = compileMessage(want, `en: ${key}`);
      message = compileMessage(source, key);
    } catch (error) {
      found.push((error as Error).message);
      continue;
    }
    found.push(...placeholderProblems(key, original, message));
    if (typeof original !== typeof message)
      found.push(
        `${key}: ${typeof message === 'string' ? 'no plural' : 'a plural'}, unlike English`,
      );
    else if (typeof message !== 'string') {
      for (const form of Object.keys(message))
        if (!forms.has(form)) found.push(`${key}: form "${form}", which ${locale} never chooses`);
      for (const form of neededForms(locale))
        if (!(form in message)) found.push(`${key}: no "${form}" form`);
    }
  }
  return found;
}

/**
 * The plural forms a language's messages must have: those its rules choose for counts up to 200
 * (Russian's `many` for 5 comments, Arabic's `two`), not `many` that French keeps for millions.
 */
export function neededForms(locale: string): string[] {
  const rules = new Intl.PluralRules(locale);
  const forms = new Set<string>(['other']);
  for (let count = 0; count <= 200; count += 1) forms.add(rules.select(count));
  return [...forms];
}

/** Every problem of every locale's every area (the CLI's `check`), by `locale/area`. */
export function allProblems(locales = catalogLocales()): string[] {
  const found: string[] = [];
  for (const locale of locales) {
    if (locale === SOURCE_LOCALE) continue;
    for (const area of catalogAreas()) {
      for (const problem of catalogProblems(
        locale,
        readCatalog(SOURCE_LOCALE, area),
        readCatalog(locale, area),
      ))
        found.push(`${locale}/${area}.json: ${problem}`);
    }
  }
  return found;
}
