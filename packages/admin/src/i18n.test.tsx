import { act, render, screen } from '@testing-library/react';
import {
  CONSOLE_LOCALE_KEY,
  ConsoleI18nProvider,
  initialConsoleLocale,
  languageName,
  loadConsoleCatalog,
  useI18n,
} from './i18n';
import type { ConsoleLocale } from './i18n';

/** A window whose browser says `languages`, with `stored` kept from an earlier visit. */
function browser(languages: readonly string[], stored?: string, language = languages[0] ?? '') {
  localStorage.clear();
  if (stored !== undefined) localStorage.setItem(CONSOLE_LOCALE_KEY, stored);
  return {
    localStorage,
    navigator: { languages, language },
    document,
  } as unknown as Window;
}

describe('the language the console starts in', () => {
  it("is the admin's kept choice first", () => {
    expect(initialConsoleLocale(browser(['de-DE', 'en'], 'ja'))).toBe('ja');
  });

  it("else the first of the browser's languages the console speaks, by language", () => {
    expect(initialConsoleLocale(browser(['sv-SE', 'pt-PT', 'en']))).toBe('pt-BR');
    expect(initialConsoleLocale(browser(['fr-CA']))).toBe('fr');
  });

  it('reads navigator.language when the list is empty, and ends in English', () => {
    expect(initialConsoleLocale(browser([], undefined, 'ko-KR'))).toBe('ko');
    expect(initialConsoleLocale(browser(['sv', 'fi']))).toBe('en');
  });
});

/** Shows the language and a switch to `to`. */
function Probe({ to }: { to: ConsoleLocale }) {
  const { locale, t, setLocale } = useI18n();
  return (
    <>
      <p>{`${locale}: ${t('console.shell.moderate')}`}</p>
      <button type="button" onClick={() => setLocale(to)}>
        switch
      </button>
    </>
  );
}

test('switching loads the language, marks the document, keeps the choice', async () => {
  const win = browser(['en']);
  render(
    <ConsoleI18nProvider window={win} initial={await loadConsoleCatalog('en')}>
      <Probe to="ar" />
    </ConsoleI18nProvider>,
  );
  expect(screen.getByText('en: Moderate')).toBeTruthy();
  await act(async () => screen.getByRole('button').click());
  await screen.findByText(/^ar: /);
  expect(screen.getByText(/^ar: /).textContent).not.toContain('Moderate');
  expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['ar', 'rtl']);
  expect(localStorage.getItem(CONSOLE_LOCALE_KEY)).toBe('ar');
});

test('a language whose chunk fails to load answers English (which the switch then ignores)', async () => {
  await jest.isolateModulesAsync(async () => {
    jest.doMock('./messages/locales', () => ({
      ...jest.requireActual('./messages/locales'),
      CONSOLE_CATALOGS: { fr: () => Promise.reject(new Error('gone after a deploy')) },
    }));
    const isolated = await import('./i18n');
    expect(await isolated.loadConsoleCatalog('fr')).toMatchObject({ locale: 'en' });
  });
});

test('names each language in itself', () => {
  expect(languageName('fr')).toBe('Français');
  expect(languageName('ja')).toBe('日本語');
  expect(languageName('pt-BR')).toBe('Português (Brasil)');
});
