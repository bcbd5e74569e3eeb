import type { ResolvedTheme, StreamParams } from '@parley/contract';
import { SUPPORTED_LOCALES } from './messages/locales';
import type { Locale } from './messages/locales';
import { COMMENT_SORTS } from './SortMenu';
import type { CommentSort } from './Thread';

export { SUPPORTED_LOCALES } from './messages/locales';
export type { Locale } from './messages/locales';

/** The frame's settings as the loader passed them in the query string, checked. */
export interface FrameParams extends StreamParams {
  locale: Locale;
  theme: ResolvedTheme;
  sort?: CommentSort;
}

/**
 * The locale with a catalog for a language tag: the tag itself (`pt-BR`), else the first of its
 * language (`pt-PT` → `pt-BR`, `zh-TW` → `zh-CN`, `es-MX` → `es`); undefined when none.
 */
export function toLocale(tag: string | null | undefined): Locale | undefined {
  const lower = (tag ?? '').trim().toLowerCase().replace('_', '-');
  const base = (locale: string) => locale.toLowerCase().split('-')[0];
  return lower
    ? (SUPPORTED_LOCALES.find((locale) => locale.toLowerCase() === lower) ??
        SUPPORTED_LOCALES.find((locale) => base(locale) === base(lower)))
    : undefined;
}

/**
 * The frame's locale: the loader's `locale` option, else the site's setting (the console's
 * Configure; empty: each page's own), else the host page's `<html lang>` (the loader's `lang`),
 * else English. A choice without a catalog passes to the next.
 */
export function pickLocale(search: string, siteLocale?: string | null): Locale {
  const query = new URLSearchParams(search);
  return (
    toLocale(query.get('locale')) ?? toLocale(siteLocale) ?? toLocale(query.get('lang')) ?? 'en'
  );
}

/**
 * Reads the stream page's query string. `origin` must be a real origin (the frame posts only to
 * it); without one the frame still renders, but talks to no host. `siteLocale`: the site's
 * setting, when the page was rendered with it (see {@link pickLocale}).
 */
export function readStreamParams(search: string, siteLocale?: string | null): FrameParams {
  const query = new URLSearchParams(search);
  const get = (name: string) => query.get(name) || undefined;
  let origin = '';
  try {
    const parsed = new URL(get('origin') ?? '');
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') origin = parsed.origin;
  } catch {
    // No usable origin: the frame is opened directly (or by a broken loader).
  }
  return {
    storyURL: get('storyURL'),
    storyID: get('storyID'),
    storyTitle: get('storyTitle')?.slice(0, 300),
    commentID: get('commentID'),
    origin,
    theme: get('theme') === 'dark' ? 'dark' : 'light',
    locale: pickLocale(search, siteLocale),
    customCSSURL: get('customCSSURL'),
    sort: COMMENT_SORTS.find((sort) => sort === get('sort')),
  };
}
