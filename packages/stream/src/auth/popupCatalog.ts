import { loadCatalogChunk } from '@parley/contract';
import type { Message } from '../i18n/createTranslator';
import { messages as auth } from '../messages/en/auth';
import { messages as accountErrors } from '../messages/en/accountErrors';
import { messages as errors } from '../messages/en/errors';
import { messages as popup } from '../messages/en/popup';
import { LOCALE_CATALOGS } from '../messages/locales';
import type { Locale } from '../messages/locales';

/** Every message key the popup uses: the auth area, the popup's own texts, the error texts. */
export type PopupKey =
  keyof typeof auth | keyof typeof popup | keyof typeof errors | keyof typeof accountErrors;

/** The popup's catalog. */
export type PopupCatalog = Readonly<Record<PopupKey, Message>>;

/**
 * The popup's catalog in `locale`. English is the auth and error areas only, not the stream's
 * whole catalog: the popup is its own bundle and stays small. Another locale is its one chunk
 * fetched on demand; English when it fails to load.
 */
export function loadPopupCatalog(locale: Locale): Promise<PopupCatalog> {
  const en: PopupCatalog = { ...auth, ...popup, ...errors, ...accountErrors };
  return loadCatalogChunk<PopupCatalog>(en, locale === 'en' ? undefined : LOCALE_CATALOGS[locale]);
}
