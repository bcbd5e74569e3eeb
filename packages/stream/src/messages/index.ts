import { extendCatalog } from '../i18n/createTranslator';
import type { Message } from '../i18n/createTranslator';
import type { Locale } from '../params';
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

/**
 * The text of one lazy area: its English (imported by the area's chunk, so it travels with it) and
 * a loader for every other locale. Each locale's file is typed against the English one, so a
 * missing key fails to compile there, as in the first render's catalog.
 */
export type MessagesPart<K extends LazyMessageKey> = {
  en: Readonly<Record<K, Message>>;
} & {
  [L in Exclude<Locale, 'en'>]: () => Promise<{ messages: Readonly<Record<K, Message>> }>;
};

/** Some lazy area's text, whichever area (what the loaders of lazy chunks take). */
export type AnyMessagesPart = MessagesPart<never>;

/**
 * Adds a lazy area's text, in the reader's locale, to the frame's catalog; resolves once it is
 * there (a chunk renders after this). A locale chunk that fails to load falls back to English.
 */
export function withMessages<K extends LazyMessageKey>(
  env: Pick<StreamEnv, 't' | 'params'>,
  part: MessagesPart<K>,
): Promise<void> {
  const { locale } = env.params;
  const text =
    locale === 'en'
      ? Promise.resolve(part.en)
      : part[locale]().then(
          (module) => module.messages,
          () => part.en,
        );
  return text.then((messages) => extendCatalog(env.t, messages));
}
