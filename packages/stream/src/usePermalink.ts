import { useClient } from '@urql/preact';
import { useEffect, useState } from 'preact/hooks';
import { commentDomId } from './CommentView';
import { PERMALINK_QUERY } from './fragments';
import { useStreamEnv } from './StreamContext';
import type { CommentData } from './types';

/** A permalinked comment loaded on its own, with its parent when it is a reply. */
export type FocusedComment = CommentData & { parent: CommentData | null };

/**
 * The comment a permalink points at (`commentID` from the loader, then the host's `showComment`
 * on back/forward): scrolled into view once rendered. When it is not among the comments shown,
 * it is loaded alone so the thread can show it above the list.
 */
export function usePermalink(enabled: boolean): [string | null, FocusedComment | undefined] {
  const { params, bridge, window: win } = useStreamEnv();
  const client = useClient();
  const [marked, setMarked] = useState(enabled ? (params.commentID ?? null) : null);
  const [focus, setFocus] = useState<FocusedComment>();
  useEffect(
    () => (enabled ? bridge.on('showComment', ({ commentId }) => setMarked(commentId)) : undefined),
    [bridge, enabled],
  );
  useEffect(() => {
    if (!marked) return;
    const element = win.document.getElementById(commentDomId(marked));
    if (element) return element.scrollIntoView({ block: 'center' });
    if (focus?.id === marked) return;
    let current = true;
    void client
      .query<{ comment: FocusedComment | null }>(PERMALINK_QUERY, { id: marked })
      .toPromise()
      .then(({ data }) => current && data?.comment && setFocus(data.comment));
    return () => {
      current = false;
    };
  }, [marked, focus, client, win]);
  return [marked, focus?.id === marked ? focus : undefined];
}
