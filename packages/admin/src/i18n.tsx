import { createContext, useContext, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import {
  createTranslator,
  loadCatalogChunk,
  setDocumentLanguage,
  toLocale,
} from '@parley/contract';
import type { Message, Translate } from '@parley/contract';
import { en } from './messages/en';
import type { ConsoleMessageKey } from './messages/en';
import { CONSOLE_CATALOGS, CONSOLE_LOCALES } from './messages/locales';
import type { ConsoleLocale } from './messages/locales';

// The console speaks the admin's language: the one they chose with the header's switch (kept in
// this browser), else the first of the browser's languages it has a catalog for, else English.
// English is bundled; another language is one chunk, fetched before the console renders in it.
// Catalogs come from locales/<locale>/console-*.json (README, "Adding a language").

export type { ConsoleLocale } from './messages/locales';
export type { ConsoleMessageKey } from './messages/en';
export { CONSOLE_LOCALES } from './messages/locales';

/** The console's language and its translate function. */
export interface ConsoleI18n {
  locale: ConsoleLocale;
  t: Translate<ConsoleMessageKey>;
  /** Switches the console's language (and keeps the choice in this browser). */
  setLocale(locale: ConsoleLocale): void;
}

/** Where the admin's choice is kept (localStorage). */
export const CONSOLE_LOCALE_KEY = 'console.locale';

/** The console's English, for what runs outside its components (and tests). */
export const ENGLISH: Translate<ConsoleMessageKey> = createTranslator<ConsoleMessageKey>('en', en);

const english: ConsoleI18n = { locale: 'en', t: ENGLISH, setLocale: () => undefined };

/** English until a provider says otherwise: a component rendered alone (a test) speaks English. */
export const ConsoleI18nContext = createContext<ConsoleI18n>(english);

/** The console's language and translate function. */
export function useI18n(): ConsoleI18n {
  return useContext(ConsoleI18nContext);
}

/** The console's translate function. */
export function useT(): Translate<ConsoleMessageKey> {
  return useContext(ConsoleI18nContext).t;
}

/** The language to start in: the kept choice, else the browser's first the console speaks. */
export function initialConsoleLocale(win: Window): ConsoleLocale {
  let stored: string | null = null;
  try {
    stored = win.localStorage.getItem(CONSOLE_LOCALE_KEY);
  } catch {
    // Storage blocked: the browser's languages decide.
  }
  const { languages, language } = win.navigator;
  for (const tag of [stored, ...(languages?.length ? languages : [language])]) {
    const locale = toLocale(tag, CONSOLE_LOCALES);
    if (locale) return locale;
  }
  return 'en';
}

/** A language and its catalog. */
export interface LoadedLanguage {
  locale: ConsoleLocale;
  catalog: Readonly<Record<ConsoleMessageKey, Message>>;
}

/**
 * `locale` and its catalog; English (and its catalog) when the chunk fails to load (a tab open
 * across a deploy asks for a chunk that is gone).
 */
export function loadConsoleCatalog(locale: ConsoleLocale): Promise<LoadedLanguage> {
  // Indexed by any locale: with English alone, the table's key type is `never`.
  const chunks: Partial<Record<string, () => Promise<{ catalog: LoadedLanguage['catalog'] }>>> =
    CONSOLE_CATALOGS;
  return loadCatalogChunk(en as LoadedLanguage['catalog'], chunks[locale]).then((catalog) => ({
    locale: catalog === en ? 'en' : locale,
    catalog,
  }));
}

/** Props of {@link ConsoleI18nProvider}. */
export interface ConsoleI18nProviderProps {
  window: Window;
  /** The language the console starts in and its catalog, loaded before the first render. */
  initial: LoadedLanguage;
  children: ReactNode;
}

/** Gives the console its language; the header's switch changes it without a reload. */
export function ConsoleI18nProvider({ window: win, initial, children }: ConsoleI18nProviderProps) {
  const [current, setCurrent] = useState(initial);
  // The last language asked for: a slower chunk that arrives after a later choice is dropped.
  const asked = useRef(initial.locale);
  const value = useMemo<ConsoleI18n>(
    () => ({
      locale: current.locale,
      t: createTranslator<ConsoleMessageKey>(current.locale, current.catalog),
      setLocale: (locale) => {
        asked.current = locale;
        void loadConsoleCatalog(locale).then((loaded) => {
          // A chunk that failed leaves the console as it was, and the choice unkept.
          if (asked.current !== locale || loaded.locale !== locale) return;
          try {
            win.localStorage.setItem(CONSOLE_LOCALE_KEY, locale);
          } catch {
            // Not kept: the switch still holds for this visit.
          }
          // Before the render in it: dates (formatWhen) read the document's language.
          setDocumentLanguage(win.document, locale);
          setCurrent(loaded);
        });
      },
    }),
    [win, current],
  );
  return <ConsoleI18nContext.Provider value={value}>{children}</ConsoleI18nContext.Provider>;
}

/** "Français", "日本語": each language named in itself, for the switch. */
export function languageName(locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale);
    return name ? name.charAt(0).toLocaleUpperCase(locale) + name.slice(1) : locale;
  } catch {
    return locale;
  }
}
