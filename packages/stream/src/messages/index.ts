import { extendCatalog, loadCatalogChunk } from '../i18n/createTranslator';
import type { Message } from '../i18n/createTranslator';
import { LOCALE_CATALOGS } from './locales';
import type { Locale } from './locales';
import type { StreamEnv } from '../StreamContext';
import { en } from './en';
import type { FirstMessageKey } from './en';
// Types only: the text of these areas travels with their chunks.
import type { messages as accountErrors } from './en/accountErrors';
import type { messages as deleting } from './en/delete';
import type { messages as edit } from './en/edit';
import type { messages as guest } from './en/guest';
import type { messages as moderation } from './en/moderation';
import type { messages as profile } from './en/profile';
import type { messages as report } from './en/report';

export type { FirstMessageKey } from './en';
export { en } from './en';

/**
 * Keys whose text a lazy chunk brings ({@link withMessages}): profile (with the errors only the
 * account forms meet), moderation, report, edit, delete.
 */
export type LazyMessageKey =
  | keyof typeof profile
  | keyof typeof accountErrors
  | keyof typeof moderation
  | keyof typeof report
  | keyof typeof edit
  | keyof typeof deleting
  | keyof typeof guest;

/** Every message key of the stream. */
export type MessageKey = FirstMessageKey | LazyMessageKey;

/** The catalog of the first render. */
export type Catalog = Readonly<Record<FirstMessageKey, Message>>;

/**
 * The catalog of `locale`. English is bundled; every other locale is one chunk with all its
 * areas, fetched on demand, so a reader downloads only their own language. A chunk that fails to
 * load falls back to English (the lazy areas then add their English: {@link withMessages}).
 */
export function loadCatalog(locale: Locale): Promise<Catalog> {
  return loadCatalogChunk<Catalog>(en, locale === 'en' ? undefined : LOCALE_CATALOGS[locale]);
}

/**
 * The English text of one lazy area, imported by the area's chunk so it travels with it. Other
 * locales' chunks hold every area already.
 */
export type MessagesPart<K extends LazyMessageKey> = Readonly<Record<K, Message>>;

/** Some lazy area's text, whichever area (what the loaders of lazy chunks take). */
export type AnyMessagesPart = MessagesPart<never>;

/**
 * Adds a lazy area's English to the frame's catalog where it has no text for a key: an English
 * reader's catalog gets the area, another locale's (which has every area) keeps its own.
 */
export function withMessages<K extends LazyMessageKey>(
  env: Pick<StreamEnv, 't'>,
  part: MessagesPart<K>,
): Promise<void> {
  extendCatalog(env.t, part);
  return Promise.resolve();
}
