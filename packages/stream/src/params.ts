import type { ResolvedTheme, StreamParams } from '@parley/contract';
import { COMMENT_SORTS } from './SortMenu';
import type { CommentSort } from './Thread';

/** Locales the stream ships catalogs for; anything else falls back to English. */
export const SUPPORTED_LOCALES = ['en', 'es'] as const;

/** A locale the stream has a catalog for. */
export type Locale = (typeof SUPPORTED_LOCALES)[number];

/** The frame's settings as the loader passed them in the query string, checked. */
export interface FrameParams extends StreamParams {
  locale: Locale;
  theme: ResolvedTheme;
  sort?: CommentSort;
}

/** Picks the first supported locale from a tag such as `es-MX`; English otherwise. */
export function toLocale(tag: string | null | undefined): Locale {
  const base = (tag ?? '').toLowerCase().split('-')[0];
  return (SUPPORTED_LOCALES as readonly string[]).includes(base ?? '') ? (base as Locale) : 'en';
}

/**
 * Reads the stream page's query string. `origin` must be a real origin (the frame posts only to
 * it); without one the frame still renders, but talks to no host.
 */
export function readStreamParams(search: string): FrameParams {
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
    locale: toLocale(get('locale')),
    customCSSURL: get('customCSSURL'),
    sort: COMMENT_SORTS.find((sort) => sort === get('sort')),
  };
}
