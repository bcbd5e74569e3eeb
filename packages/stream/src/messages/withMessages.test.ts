import { createTranslator } from '../i18n/createTranslator';
import type { Message } from '../i18n/createTranslator';
import { messages as profile } from '../profile/ProfileTab';
import type { FrameParams } from '../params';
import type { FirstMessageKey, LazyMessageKey } from '.';
import { en, loadCatalog, withMessages } from '.';

// The frame's translator starts with its locale's catalog: English's first render only (each lazy
// chunk brings its area's English), or another locale's one chunk, which has every area.
const frame = (locale: FrameParams['locale'], catalog: Readonly<Record<string, Message>>) => ({
  t: createTranslator<FirstMessageKey, LazyMessageKey>(
    locale,
    catalog as Readonly<Record<FirstMessageKey, Message>>,
  ),
  params: { origin: 'http://host.test', locale, theme: 'light' } as FrameParams,
});

test("a lazy area's English is not in the first render's catalog until its chunk adds it", async () => {
  const env = frame('en', await loadCatalog('en'));
  expect(env.t('profile.comments.title')).toBe('profile.comments.title');
  await withMessages(env, profile);
  expect(env.t('profile.comments.title')).toBe('My comments');
  expect(env.t('stream.retry')).toBe('Try again');
});

test("another locale's one chunk has every area, and a lazy chunk's English does not replace it", async () => {
  const env = frame('es', await loadCatalog('es'));
  expect(env.t('profile.comments.title')).toBe('Mis comentarios');
  await withMessages(env, profile);
  expect(env.t('profile.comments.title')).toBe('Mis comentarios');
  expect(env.t('stream.retry')).toBe('Reintentar');
});

test("when a locale's chunk fails to load, the frame is in English and lazy areas add theirs", async () => {
  // The chunk's import rejects (offline, a deploy removed it).
  let catalog: Readonly<Record<string, Message>> = {};
  await jest.isolateModulesAsync(async () => {
    jest.doMock('./locales', () => ({
      ...jest.requireActual('./locales'),
      LOCALE_CATALOGS: { es: () => Promise.reject(new Error('offline')) },
    }));
    catalog = await (await import('.')).loadCatalog('es');
  });
  expect(catalog).toEqual(en);
  const env = frame('es', catalog);
  expect(env.t('stream.retry')).toBe('Try again');
  await withMessages(env, profile);
  expect(env.t('profile.comments.title')).toBe('My comments');
});
