import { createTranslator } from '../i18n/createTranslator';
import { messages as profile } from '../profile/ProfileTab';
import type { FrameParams } from '../params';
import type { FirstMessageKey, LazyMessageKey, MessagesPart } from '.';
import { en, withMessages } from '.';

// The frame's translator starts with the first render's text only; each lazy chunk brings its
// area's text (here the profile tab's, as LazyPanel adds it) in the reader's locale.
const frame = (locale: FrameParams['locale']) => ({
  t: createTranslator<FirstMessageKey, LazyMessageKey>(locale, en),
  params: { origin: 'http://host.test', locale, theme: 'light' } as FrameParams,
});

test("a lazy area's text is not in the first render's catalog until its chunk adds it", async () => {
  const env = frame('en');
  expect(env.t('profile.comments.title')).toBe('profile.comments.title');
  await withMessages(env, profile);
  expect(env.t('profile.comments.title')).toBe('My comments');
  expect(env.t('stream.retry')).toBe('Try again');
});

test('a Spanish reader gets the Spanish text of the area', async () => {
  const env = frame('es');
  await withMessages(env, profile);
  expect(env.t('profile.comments.title')).toBe('Mis comentarios');
});

test("a locale chunk that fails to load falls back to the area's English", async () => {
  const env = frame('es');
  const failing: MessagesPart<keyof typeof profile.en> = {
    en: profile.en,
    es: () => Promise.reject(new Error('offline')),
  };
  await withMessages(env, failing);
  expect(env.t('profile.comments.title')).toBe('My comments');
});
