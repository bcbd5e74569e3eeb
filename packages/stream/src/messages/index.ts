import type { Message } from '../i18n/createTranslator';
import type { Locale } from '../params';
import { en } from './en';
import type { MessageKey } from './en';

export type { MessageKey } from './en';
export { en } from './en';

/** A full catalog. */
export type Catalog = Readonly<Record<MessageKey, Message>>;

/**
 * The catalog of `locale`. English is bundled; other locales are chunks fetched on demand, so a
 * reader downloads only their own language. A chunk that fails to load falls back to English.
 */
export function loadCatalog(locale: Locale): Promise<Catalog> {
  if (locale === 'es')
    return import('./es').then(
      (module) => module.catalog,
      () => en,
    );
  return Promise.resolve(en);
}
