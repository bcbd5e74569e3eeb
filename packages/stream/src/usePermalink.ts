import { useClient } from '@urql/preact';
import { useEffect, useState } from 'preact/hooks';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { CommentFields, commentDomId } from './CommentView';
import { CommentThread } from './ReplyList';
import { useStreamEnv } from './StreamContext';

/** One comment and its parent, for a permalink to a comment outside the first page. */
export const PERMALINK_QUERY = graphql(
  `query PermalinkComment($id:ID!){comment(id:$id){...CommentThread story{id} parent{...CommentFields}}}`,
  [CommentThread, CommentFields],
);

/** A permalinked comment loaded on its own, with its parent when it is a reply. */
export type FocusedComment = NonNullable<ResultOf<typeof PERMALINK_QUERY>['comment']>;

/**
 * The comment a permalink points at (`commentID` from the loader, then the host's `showComment`
 * on back/forward): scrolled into view once rendered. When it is not among the comments shown,
 * it is loaded alone so the thread can show it above the list.
 */
export function usePermalink(
  enabled: boolean,
  storyId: string,
): [string | null, FocusedComment | undefined] {
  const { params, bridge, window: win, initial } = useStreamEnv();
  const client = useClient();
  const [marked, setMarked] = useState(enabled ? (params.commentID ?? null) : null);
  // The server rendered it above the thread already: hydrate that, and ask nothing.
  const [focus, setFocus] = useState(enabled ? initial?.permalink : undefined);
  useEffect(
    () => (enabled ? bridge.on('showComment', ({ commentId }) => setMarked(commentId)) : undefined),
    [bridge, enabled],
  );
  useEffect(() => {
    if (!marked) return;
    const element = win.document.getElementById(commentDomId(marked));
    if (element) return scrollIntoViewOnceSized(win, element);
    if (focus?.id === marked) return;
    let current = true;
    void client
      .query(PERMALINK_QUERY, { id: marked })
      .toPromise()
      // Only a comment of this story: an id from elsewhere shows nothing (a reply to it would
      // land in the other story).
      .then(({ data }) => current && data?.comment?.story.id === storyId && setFocus(data.comment));
    return () => {
      current = false;
    };
  }, [marked, focus, client, win]);
  return [marked, focus?.id === marked ? focus : undefined];
}

/**
 * Scrolls `element` to the middle of the reader's screen, and again once the frame has grown to
 * fit its content. The loader sizes the iframe to the content a moment after it changes (the
 * `height` message); until then the frame is shorter than its content, so the scroll moves only
 * the frame's own viewport, and the resize that follows undoes it: the host page, which is what
 * the reader scrolls, stays where it was. Scrolling again when the frame fits (its window's
 * `resize`) makes the browser scroll the host page to the comment. Returns the cleanup.
 */
export function scrollIntoViewOnceSized(win: Window, element: Element): () => void {
  const scroll = () => element.scrollIntoView({ block: 'center' });
  // The loader sets the height the frame reports (mountStream.tsx), rounded up.
  const fits = () =>
    win.innerHeight + 1 >= win.document.documentElement.getBoundingClientRect().height;
  scroll();
  if (fits()) return () => undefined;
  const onResize = () => {
    if (!fits()) return;
    stop();
    scroll();
  };
  const stop = () => win.removeEventListener('resize', onResize);
  win.addEventListener('resize', onResize);
  return stop;
}
