import { toLocale } from '@parley/contract';
import type { Message } from '@parley/contract';
import { COUNT_TEXT } from './countText.generated';

/**
 * "N comments" in the language `tag` names (the tag itself, else its language's first locale,
 * else English), with that language's plural form and number format: the catalogs'
 * `count.comments` (locales/<locale>/count.json), compiled in. Not the widget's translator, whose
 * catalogs and placeholders would weigh more than count.js's whole budget allows.
 */
export function countText(count: number, tag: string): string {
  const locale = toLocale(tag, Object.keys(COUNT_TEXT)) ?? 'en';
  // A key of the table: toLocale picks among them, and English is one.
  const message = COUNT_TEXT[locale] as Message;
  const text =
    typeof message === 'string'
      ? message
      : (message[new Intl.PluralRules(locale).select(count)] ?? message.other);
  return text.replace('{count}', new Intl.NumberFormat(locale).format(count));
}
