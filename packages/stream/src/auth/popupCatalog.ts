import type { Message } from '../i18n/createTranslator';
import { messages as auth, popupMessages } from '../messages/en/auth';
import { messages as accountErrors } from '../messages/en/accountErrors';
import { messages as errors } from '../messages/en/errors';
import type { Locale } from '../params';

/** Every message key the popup uses: the auth area, the popup's own texts, the error texts. */
export type PopupKey =
  keyof typeof auth | keyof typeof popupMessages | keyof typeof errors | keyof typeof accountErrors;

/** The popup's catalog. */
export type PopupCatalog = Readonly<Record<PopupKey, Message>>;

/**
 * The popup's catalog in `locale`. Only the auth and error areas, not the stream's whole catalog:
 * the popup is its own bundle and stays small. Other locales load on demand; English on failure.
 */
export function loadPopupCatalog(locale: Locale): Promise<PopupCatalog> {
  const en: PopupCatalog = { ...auth, ...popupMessages, ...errors, ...accountErrors };
  if (locale === 'es') {
    return Promise.all([
      import('../messages/es/auth'),
      import('../messages/es/errors'),
      import('../messages/es/accountErrors'),
    ]).then(
      ([es, esErrors, esAccount]) => ({
        ...es.messages,
        ...es.popupMessages,
        ...esErrors.messages,
        ...esAccount.messages,
      }),
      () => en,
    );
  }
  return Promise.resolve(en);
}
