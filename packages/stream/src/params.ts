import type { ResolvedTheme, StreamParams } from '@parley/contract';
import { SUPPORTED_LOCALES, toLocale } from '@parley/contract';
import type { Locale } from './messages/locales';
import { COMMENT_SORTS } from './SortMenu';
import type { CommentSort } from './Thread';

export { SUPPORTED_LOCALES } from '@parley/contract';
export type { Locale } from './messages/locales';

/** The frame's settings as the loader passed them in the query string, checked. */
export interface FrameParams extends StreamParams {
  locale: Locale;
  theme: ResolvedTheme;
  sort?: CommentSort;
}

/**
 * The frame's locale: the loader's `locale` option, else the site's setting (the console's
 * Configure; empty: each page's own), else the host page's `<html lang>` (the loader's `lang`),
 * else English. A choice without a catalog passes to the next.
 */
export function pickLocale(search: string, siteLocale?: string | null): Locale {
  const query = new URLSearchParams(search);
  const pick = (tag: string | null | undefined) => toLocale(tag, SUPPORTED_LOCALES);
  return pick(query.get('locale')) ?? pick(siteLocale) ?? pick(query.get('lang')) ?? 'en';
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
