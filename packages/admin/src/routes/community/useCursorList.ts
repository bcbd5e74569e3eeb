import { useCallback, useState } from 'react';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';

/** What the list reads of a page's `pageInfo`; each paged query spreads it. */
export const CursorPageInfoFields = graphql(
  `fragment CursorPageInfoFields on PageInfo { hasNextPage endCursor }`,
);

/** Where a page of a connection ends, and whether another follows. */
export type CursorPageInfo = ResultOf<typeof CursorPageInfoFields>;

/** State of a "Load more" list whose pages each run their own query. */
export interface CursorList {
  /** `after` of every page shown, the first page's being null. */
  cursors: (string | null)[];
  /** Whether another page exists (the last page said so). */
  hasMore: boolean;
  /** The last page reports its `pageInfo` here. */
  report: (pageInfo: CursorPageInfo) => void;
  /** Appends the next page. */
  loadMore: () => void;
}

/**
 * Cursor pagination as a list of pages, one query per page: a mutation that refetches a page
 * (urql invalidates by typename) leaves the other pages and the scroll position alone. Remount
 * the list (a `key` of its filters) to start again from the first page.
 */
export function useCursorList(): CursorList {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [next, setNext] = useState<string | null>(null);
  const report = useCallback(
    ({ hasNextPage, endCursor }: CursorPageInfo) => setNext(hasNextPage ? endCursor : null),
    [],
  );
  const loadMore = useCallback(() => {
    if (next === null) return;
    setCursors((list) => (list.includes(next) ? list : [...list, next]));
    // Cleared so a second click before the new page answers cannot add the same cursor twice.
    setNext(null);
  }, [next]);
  return { cursors, hasMore: next !== null, report, loadMore };
}
