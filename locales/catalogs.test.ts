import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  catalogAreas,
  catalogLocales,
  catalogProblems,
  compileMessage,
  LOCALES_DIR,
  readCatalog,
  SOURCE_LOCALE,
} from './compile';

// Every catalog against English, area by area: the same keys (none missing, none extra), each
// message valid ICU the runtime can show, the same placeholders (a translation that drops
// `{name}` loses it, a misspelt one shows raw), a plural where English has one, every plural form
// the language needs (Russian's `many`, Arabic's `two`) and none it never chooses.

const REQUIRED = [
  'en',
  'es',
  'fr',
  'de',
  'it',
  'pt-BR',
  'nl',
  'pl',
  'ru',
  'uk',
  'ja',
  'zh-CN',
  'ko',
  'ar',
  'he',
];

test("the issue's 15 locales have catalogs", () => {
  expect(catalogLocales()).toEqual(expect.arrayContaining(REQUIRED));
});

describe.each(catalogLocales().filter((locale) => locale !== SOURCE_LOCALE))(
  'the %s catalogs',
  (locale) => {
    it.each(catalogAreas())('match English in %s', (area) => {
      expect(existsSync(join(LOCALES_DIR, locale, `${area}.json`))).toBe(true);
      expect(
        catalogProblems(locale, readCatalog(SOURCE_LOCALE, area), readCatalog(locale, area)),
      ).toEqual([]);
    });
  },
);

test('the check finds what a careless translation gets wrong (it can fail)', () => {
  const english = {
    hello: 'Hello {name}',
    count: '{count, plural, one {# comment} other {# comments}}',
    kept: 'Kept',
    plain: 'Plain',
    replies: '{count, plural, one {# reply to {name}} other {# replies to {name}}}',
  };
  expect(
    catalogProblems('ru', english, {
      hello: 'Привет {имя}',
      count: '{count, plural, one {# комментарий} two {# комментария} other {# комментариев}}',
      plain: '{count, plural, other {Простой}}',
      // "Один ответ" may name its number in words; "few" and "many" must say the number, and
      // every form the name.
      replies:
        '{count, plural, one {Один ответ {name}} few {ответа {name}} many {# ответов} other {# ответа {name}}}',
      extra: 'Лишнее',
    }),
  ).toEqual([
    'kept: missing',
    "hello: a placeholder's name is letters, digits and _ only",
    'count: form "two", which ru never chooses',
    'count: no "many" form',
    'count: no "few" form',
    'plain: a plural, unlike English',
    'replies (few): placeholders {name}, English has {count,name}',
    'replies (many): placeholders {count}, English has {count,name}',
    'extra: not in English',
  ]);
});

test('messages compile to the runtime form: text with {placeholders}, or plural forms on count', () => {
  expect(compileMessage("It''s {name}’s turn", 'k')).toBe("It's {name}’s turn");
  expect(
    compileMessage('Hi {name}, {count, plural, one {# reply} other {# replies}}!', 'k'),
  ).toEqual({
    one: 'Hi {name}, {count} reply!',
    other: 'Hi {name}, {count} replies!',
  });
  expect(compileMessage('{n, number} left', 'k')).toBe('{n} left');
});

test.each([
  ['{count, plural, one {#}}', /not valid ICU/],
  ['{kind, select, a {A} other {B}}', /only text/],
  ['{days, plural, one {# day} other {# days}}', /plural must be on \{count\}/],
  ['{count, plural, =0 {none} other {#}}', /exact forms/],
  ['{count, plural, one {#} other {#}} {count, plural, one {#} other {#}}', /more than one plural/],
  ['{count, selectordinal, one {#st} other {#th}}', /ordinal/],
  ['Hello {имя}', /letters, digits and _ only/],
])('a message the runtime cannot show fails the build with its key: %s', (source, reason) => {
  expect(() => compileMessage(source, 'fr/thread.json: thread.x')).toThrow(reason);
  expect(() => compileMessage(source, 'fr/thread.json: thread.x')).toThrow(
    /fr\/thread.json: thread.x/,
  );
});
