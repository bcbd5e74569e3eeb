import { COUNT_SELECTOR, COUNTS_DOCUMENT_ID, LOG_PREFIX } from './defaults';
import { countText } from './countText';
import { queryTrusted } from './queryTrusted';

/** Options of {@link loadCounts}. */
export interface LoadCountsOptions {
  /** The Parley server, e.g. `https://comments.example.com` (count.js: the folder it came from). */
  rootURL: string;
}

/**
 * Fills every `.parley-count[data-story-url]` with "1 comment" / "N comments" in the element's
 * language (its own `lang` or its nearest ancestor's, the page's `<html lang>`: see countText;
 * the number only with `data-parley-notext`) from one `commentCounts` request for all of them. Relative story
 * URLs are read against the page, as links are. Failures are logged; the elements keep their text.
 */
export async function loadCounts({ rootURL }: LoadCountsOptions): Promise<void> {
  try {
    const elements = [...document.querySelectorAll<HTMLElement>(COUNT_SELECTOR)].filter(
      (element) => element.dataset.storyUrl,
    );
    if (!elements.length) return;
    const counts = await fetchCommentCounts(
      rootURL,
      elements.map((element) => new URL(element.dataset.storyUrl as string, document.baseURI).href),
    );
    elements.forEach((element, index) => {
      const count = counts[index];
      element.textContent = element.hasAttribute('data-parley-notext')
        ? String(count)
        : countText(count ?? 0, element.closest('[lang]')?.getAttribute('lang') ?? '');
    });
  } catch (error) {
    // A code from the server (RATE_LIMITED, INVALID_INPUT…), an HTTP status, or a network error.
    console.error(`${LOG_PREFIX} Could not load comment counts:`, error);
  }
}

/**
 * The number of comments readers see on each story of `urls` (0 for a story nobody opened), in
 * the order asked: one `commentCounts` request. Rejects with the server's error code, or the
 * HTTP status when there is none.
 */
export function fetchCommentCounts(rootURL: string, urls: readonly string[]): Promise<number[]> {
  return queryTrusted<number[]>(rootURL, COUNTS_DOCUMENT_ID, { urls }, 'commentCounts');
}
