import { RTL_LOCALES } from '../messages/locales';
import type { Locale } from '../messages/locales';

/**
 * Marks `doc` as written in `locale`: its `lang` (fonts, hyphenation, screen readers) and its
 * direction (`rtl` for Arabic and Hebrew: the styles use logical properties, so the layout
 * mirrors).
 */
export function setLanguage(doc: Document, locale: Locale): void {
  doc.documentElement.lang = locale;
  doc.documentElement.dir = RTL_LOCALES.includes(locale) ? 'rtl' : 'ltr';
}
