import { useClient } from '@urql/preact';
import type { CombinedError } from '@urql/core';
import { useEffect, useState } from 'preact/hooks';
import { nodesOf, resolveComment, ThreadContext, uniqueComments } from './applyLiveEvent';
import { graphql } from '@parley/transport/graphql';
import type { VariablesOf } from '@parley/transport/graphql';
import { CommentView, isVisibleComment } from './CommentView';
import { countComments } from './countComments';
import type { CommentData, Connection } from './CommentView';
import { ErrorNote } from './ErrorNote';
import { CommentItem, CommentThread, LocalItem } from './ReplyList';
import { loadStylesheet, PANELS_STYLESHEET } from './loadStylesheet';
import { withMessages } from './messages';
import { SortMenu } from './SortMenu';
import { isModerator, useStreamData, useStreamEnv } from './StreamContext';
import type { CommentModMenu } from './moderation/CommentModMenu';
import { useLiveComments, useLocalComments, useSocketStatus } from './useLiveComments';
import { usePermalink } from './usePermalink';

/** Page size of top-level comments (first render and every "Load more"). */
export const TOP_LEVEL_PAGE_SIZE = 20;

/** Top-level comments per page of the Featured tab. */
export const FEATURED_PAGE_SIZE = 20;

// One line each: template literals keep their whitespace in the bundle, and these are in the
// first-render budget.

// Both answer as `page`, so "Load more" reads either the same way (the featured one ignores
// `$sort`: featured comments have one order).

/** The next page of a story's top-level comments ("Load more"). */
export const MORE_COMMENTS_QUERY = graphql(
  `query MoreComments($id:ID!,$first:Int,$after:String,$sort:CommentSort){story(id:$id){id page:comments(orderBy:$sort,first:$first,after:$after){pageInfo{hasNextPage endCursor}edges{cursor node{...CommentThread}}}}}`,
  [CommentThread],
);

/** A page of the story's featured comments (the Featured tab). */
export const FEATURED_QUERY = graphql(
  `query FeaturedComments($id:ID!,$first:Int,$after:String){story(id:$id){id page:featuredComments(first:$first,after:$after){pageInfo{hasNextPage endCursor}edges{cursor node{...CommentThread}}}}}`,
  [CommentThread],
);

/** An order of the thread. */
export type CommentSort = NonNullable<VariablesOf<typeof MORE_COMMENTS_QUERY>['sort']>;

/** Props of {@link Thread}. */
export interface ThreadProps {
  /** Shows the story's featured comments instead of all of them. @default false */
  featured?: boolean;
  /** The root query's sort. */
  sort: CommentSort;
  /** Asks the root to sort again (it re-runs its query with the new sort). */
  onSortChange(sort: CommentSort): void;
}

/**
 * The thread: the first page from the root query, later pages on "Load more", live comments
 * (new top-level ones behind a button so nothing jumps), the reader's own comments, and the
 * permalinked comment marked and scrolled to.
 */
export function Thread({ featured = false, sort, onSortChange }: ThreadProps) {
  const env = useStreamEnv();
  const { t } = env;
  const { story, settings, viewer } = useStreamData();
  const client = useClient();
  const live = !featured && settings.liveUpdates && story.settings.liveUpdates;
  const [state, dispatch] = useLiveComments(story.id, live);
  const status = useSocketStatus();
  const local = useLocalComments(story.id);
  const [marked, focus] = usePermalink(!featured, story.id);
  // Moderator tools are a separate chunk that only moderators ever download.
  const [ModMenu, setModMenu] = useState<typeof CommentModMenu>();
  const moderator = isModerator(viewer);
  useEffect(() => {
    if (moderator)
      void import('./moderation/CommentModMenu').then((m) =>
        Promise.all([
          withMessages(env, m.messages),
          loadStylesheet(env.window.document, PANELS_STYLESHEET),
        ]).then(() => setModMenu(() => m.CommentModMenu)),
      );
  }, [env, moderator]);
  // Pages loaded here belong to one sort; a new sort starts again from the root query's page.
  const [pages, setPages] = useState<{ sort: CommentSort; page: Connection<CommentData> }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CombinedError>();
  const extra = pages?.sort === sort ? pages.page : undefined;
  const first = featured ? undefined : story.comments;
  const pageInfo = extra?.pageInfo ?? first?.pageInfo;

  const loadMore = () => {
    setBusy(true);
    setError(undefined);
    void client
      .query(featured ? FEATURED_QUERY : MORE_COMMENTS_QUERY, {
        id: story.id,
        sort,
        first: featured ? FEATURED_PAGE_SIZE : TOP_LEVEL_PAGE_SIZE,
        after: pageInfo?.endCursor ?? null,
      })
      .toPromise()
      .then(({ data, error: failed }) => {
        const page = data?.story?.page;
        setBusy(false);
        if (!page) return setError(failed);
        setPages((loaded) => ({
          sort,
          page: {
            pageInfo: page.pageInfo,
            edges: [...(loaded?.sort === sort ? loaded.page.edges : []), ...page.edges],
          },
        }));
      });
  };
  // The root query loads only the featured comments' ids; the tab loads their first page.
  useEffect(() => void (featured && loadMore()), [featured]);

  // The pinned comment leads (once: uniqueComments drops its copy in a page) while it is
  // pinned; unpinned live, it is wherever its page has it. A comment pinned live rises (a stable
  // sort keeps the rest in order).
  const pinned = (c: CommentData) => resolveComment(state, c).tags.includes('PINNED');
  const pin = first && story.pinnedComment;
  const top = uniqueComments([
    ...(pin && pinned(pin) ? [pin] : []),
    ...state.revealed,
    ...nodesOf(first),
    ...nodesOf(extra),
  ]).sort((a, b) => +pinned(b) - +pinned(a));
  const ids = new Set(top.map((c) => c.id));
  const mine = featured
    ? []
    : local.filter((l) => l.parentId === null && !(l.comment && ids.has(l.comment.id)));
  const mineIds = new Set(mine.map((l) => l.comment?.id));
  // Only what would show counts as new: not already on screen, not removed since, not ignored.
  const waiting = state.waiting.filter((c) => {
    const shown = resolveComment(state, c);
    return (
      !ids.has(c.id) &&
      !mineIds.has(c.id) &&
      isVisibleComment(shown) &&
      !state.ignored.includes(shown.author?.id ?? '')
    );
  });
  const loading = featured && !extra && !error;
  const shown = (c: CommentData) => isVisibleComment(resolveComment(state, c));
  // Empty means nothing shows: comments removed since (without replies to keep) do not count.
  const empty =
    !top.some((c) => shown(c) || c.replyCount > 0) &&
    !mine.some((l) => l.state !== 'posted' || !l.comment || shown(l.comment)) &&
    !waiting.length;

  return (
    <ThreadContext.Provider value={{ live: state, dispatch, local, marked, ModMenu }}>
      <div class="parley-thread">
        {!featured && (
          <p class="parley-count">
            {t('stream.count', {
              count: countComments(story.commentCount, nodesOf(first), state, local),
            })}
          </p>
        )}
        {!featured && (
          <SortMenu sort={sort} onChange={(next) => (setPages(undefined), onSortChange(next))} />
        )}
        <p class="parley-live" role="status">
          {live && status === 'reconnecting'
            ? t('stream.live.reconnecting')
            : status === 'offline'
              ? t('stream.live.offline')
              : ''}
        </p>
        {waiting.length > 0 && (
          <button type="button" class="parley-new" onClick={() => dispatch({ type: 'reveal' })}>
            {t('thread.newComments', { count: waiting.length })}
          </button>
        )}
        {focus && !ids.has(focus.id) && (
          <div class="parley-focus">
            {focus.parent && <CommentView comment={focus.parent} />}
            <div class={focus.parent ? 'parley-replies' : undefined}>
              <CommentItem comment={focus} level={focus.parent ? 1 : 0} />
            </div>
          </div>
        )}
        {mine.map((l) => (
          <LocalItem key={l.key} entry={l} level={0} />
        ))}
        {top.map((c) => (
          <CommentItem key={c.id} comment={c} level={0} />
        ))}
        {loading && <p role="status">{t('stream.loading')}</p>}
        {!loading && empty && <p class="parley-empty">{t('stream.empty')}</p>}
        {(pageInfo?.hasNextPage || (featured && !extra && error)) && (
          <button type="button" class="parley-more" disabled={busy} onClick={loadMore}>
            {t('thread.loadMore')}
          </button>
        )}
        {error && <ErrorNote error={error} />}
        {/* Relative to the frame's page (/embed/stream), on Parley's origin and path. */}
        <a
          class="parley-feed"
          href={`../feeds/story.atom?url=${encodeURIComponent(story.url)}`}
          target="_blank"
          rel="noopener"
        >
          {t('thread.feed')}
        </a>
      </div>
    </ThreadContext.Provider>
  );
}
