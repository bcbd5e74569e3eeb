/** @jsxImportSource react */
'use client';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { COMMENT_COUNTS_MAX_URLS } from '@parley/contract';
import { countText, fetchCommentCounts } from '@parley/embed';

/** Props of {@link ParleyCount}. */
export interface ParleyCountProps {
  /** The Parley server, e.g. `https://comments.example.com`. */
  rootURL: string;
  /** The article's URL. */
  storyURL: string;
  /**
   * The language of "N comments" (a tag such as `fr`). @default the page's `<html lang>`, as
   * count.js reads it
   */
  locale?: string;
  /** What to show for the count. @default "1 comment" / "N comments" in `locale`, as count.js writes it */
  children?: (count: number) => ReactNode;
}

/**
 * The number of comments on `storyURL` (0 for a story nobody opened yet). Nothing on the server
 * and until the count arrives; a failure is logged and shows nothing. Every `<ParleyCount>` of
 * one server rendered in the same commit is asked in one request (a list of articles costs one
 * `commentCounts`, as count.js does), up to the server's 100 URLs a request.
 */
export function ParleyCount({ rootURL, storyURL, locale, children }: ParleyCountProps) {
  const [count, setCount] = useState<number>();
  useEffect(() => {
    let current = true;
    setCount(undefined);
    // As count.js reads them: a story URL relative to the page, a server with or without its `/`.
    countOf(rootURL.replace(/\/+$/, ''), new URL(storyURL, document.baseURI).href).then(
      (value) => current && setCount(value),
      (error: unknown) => console.error('[parley] Could not load the comment count:', error),
    );
    return () => {
      current = false;
    };
  }, [rootURL, storyURL]);
  if (count === undefined) return null;
  return (
    <>{children ? children(count) : countText(count, locale ?? document.documentElement.lang)}</>
  );
}

/** The URLs asked since the last request went, per server, each with who waits for it. */
const waiting = new Map<string, Map<string, ((result: Promise<number>) => void)[]>>();

/** One story's count, asked with every other count asked in the same task. */
function countOf(rootURL: string, storyURL: string): Promise<number> {
  return new Promise((resolve) => {
    let batch = waiting.get(rootURL);
    if (!batch) {
      waiting.set(rootURL, (batch = new Map()));
      queueMicrotask(() => flush(rootURL));
    }
    const waiters = batch.get(storyURL) ?? [];
    batch.set(storyURL, waiters);
    waiters.push((result) => resolve(result));
  });
}

/** Sends the server's waiting URLs, at most {@link COMMENT_COUNTS_MAX_URLS} a request. */
function flush(rootURL: string): void {
  const batch = waiting.get(rootURL);
  waiting.delete(rootURL);
  const urls = [...(batch?.keys() ?? [])];
  for (let start = 0; start < urls.length; start += COMMENT_COUNTS_MAX_URLS) {
    const part = urls.slice(start, start + COMMENT_COUNTS_MAX_URLS);
    const counts = fetchCommentCounts(rootURL, part);
    part.forEach((url, index) => {
      const result = counts.then((values) => values[index] ?? 0);
      for (const waiter of batch?.get(url) ?? []) waiter(result);
    });
  }
}
