import { COUNT_TEXT } from './countText.generated';

/**
 * "N comments" in the language `tag` names (the tag itself, else its language's first locale,
 * else English), the number formatted for it: from the catalogs' `count.comments`
 * (locales/<locale>/count.json), compiled in.
 */
export function countText(count: number, tag: string): string {
  const locales = Object.keys(COUNT_TEXT);
  const wanted = tag.toLowerCase();
  const base = (locale: string) => locale.toLowerCase().split('-')[0];
  const locale =
    locales.find((locale) => locale.toLowerCase() === wanted) ??
    locales.find((locale) => base(locale) === base(wanted)) ??
    'en';
  const message = COUNT_TEXT[locale] ?? '{count}';
  const text =
    typeof message === 'string'
      ? message
      : (message[new Intl.PluralRules(locale).select(count)] ?? message.other ?? '{count}');
  return text.replace('{count}', new Intl.NumberFormat(locale).format(count));
}
