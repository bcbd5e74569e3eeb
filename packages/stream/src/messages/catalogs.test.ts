import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Message } from '../i18n/createTranslator';
import { SUPPORTED_LOCALES } from '../params';

// Every catalog against English, area by area: the same keys (none missing, none extra), the
// same placeholders in each message (a translation that drops `{count}` or misspells `{name}`
// shows a raw `{name}` to readers), and only the plural forms the language has (a form its rules
// never choose is a translation nobody reads). The types already fail a missing key in most
// areas; this holds every file, the placeholders and the plural forms too.

type Catalog = Readonly<Record<string, Message>>;

const AREAS = readdirSync(join(__dirname, 'en'))
  .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
  .map((file) => file.replace(/\.ts$/, ''));

const load = (locale: string, area: string): Catalog =>
  (jest.requireActual(`./${locale}/${area}`) as { messages: Catalog }).messages;

/** The placeholders a message uses, in every form. */
const placeholders = (message: Message): string[] => {
  const texts = typeof message === 'string' ? [message] : Object.values(message);
  return [
    ...new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))),
  ].sort();
};

/** What is wrong with `catalog` against English, as lines naming the key. */
function problems(locale: string, english: Catalog, catalog: Catalog): string[] {
  const found: string[] = [];
  const forms = new Set(new Intl.PluralRules(locale).resolvedOptions().pluralCategories);
  for (const key of Object.keys(english)) {
    if (!(key in catalog)) found.push(`${key}: missing`);
  }
  for (const [key, message] of Object.entries(catalog)) {
    const source = english[key];
    if (source === undefined) {
      found.push(`${key}: not in English`);
      continue;
    }
    const [want, have] = [placeholders(source).join(','), placeholders(message).join(',')];
    if (want !== have) found.push(`${key}: placeholders {${have}}, English has {${want}}`);
    if (typeof source !== typeof message)
      found.push(
        `${key}: ${typeof message === 'string' ? 'no plural forms' : 'plural forms'}, unlike English`,
      );
    if (typeof message !== 'string') {
      for (const form of Object.keys(message)) {
        if (!forms.has(form as Intl.LDMLPluralRule))
          found.push(`${key}: form "${form}", which ${locale} never chooses`);
      }
      if (!('other' in message)) found.push(`${key}: no "other" form`);
    }
  }
  return found;
}

describe.each(SUPPORTED_LOCALES.filter((locale) => locale !== 'en'))(
  'the %s catalogs',
  (locale) => {
    it.each(AREAS)('match English in %s', (area) => {
      expect(problems(locale, load('en', area), load(locale, area))).toEqual([]);
    });
  },
);

test('the check finds what a careless translation gets wrong (it can fail)', () => {
  const english: Catalog = {
    hello: 'Hello {name}',
    count: { one: '{count} comment', other: '{count} comments' },
    kept: 'Kept',
  };
  expect(
    problems('es', english, {
      hello: 'Hola {nombre}',
      count: { one: '{count} comentario', few: '{count} comentarios', other: 'comentarios' },
      extra: 'De más',
    }),
  ).toEqual([
    'kept: missing',
    'hello: placeholders {nombre}, English has {name}',
    'count: form "few", which es never chooses',
    'extra: not in English',
  ]);
});
