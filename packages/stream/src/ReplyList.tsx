import { useClient } from '@urql/preact';
import type { CombinedError } from '@urql/core';
import { useContext, useState } from 'preact/hooks';
import { nodesOf, resolveComment, ThreadContext, uniqueComments } from './applyLiveEvent';
import type { ThreadView } from './applyLiveEvent';
import { graphql } from '@parley/transport/graphql';
import { CommentFields, CommentView, isVisibleComment } from './CommentView';
import type { CommentData, Connection } from './CommentView';
import type { LocalComment } from './createThreadStore';
import { ErrorNote } from './ErrorNote';
import { useStreamData, useStreamEnv } from './StreamContext';

/** Replies fetched with each comment, per level: the `replies(first:3)` of {@link CommentThread}. */
export const REPLIES_PAGE_SIZE = 3;

/** Replies per "Show more replies" / "Continue this thread" page. */
export const MORE_REPLIES_PAGE_SIZE = 10;

/**
 * A comment with its first replies, three levels deep (deeper: "Continue this thread"). Every
 * query of a page of comments selects it, so a page renders the same however it was loaded.
 */
export const CommentThread = graphql(
  `fragment CommentThread on Comment{...CommentFields replies(first:3){pageInfo{hasNextPage endCursor}edges{node{...CommentFields replies(first:3){pageInfo{hasNextPage endCursor}edges{node{...CommentFields}}}}}}}`,
  [CommentFields],
);

/** A page of one comment's replies ("Show more replies", "Continue this thread"). */
export const REPLIES_QUERY = graphql(
  `query Replies($id:ID!,$first:Int,$after:String){comment(id:$id){id replies(first:$first,after:$after){pageInfo{hasNextPage endCursor}edges{cursor node{...CommentThread}}}}}`,
  [CommentThread],
);

/** Deepest level shown inline (0 is top); deeper replies wait behind "Continue this thread". */
export const MAX_LEVEL = 2;

/** True when a comment has replies the thread shows or could load. */
function hasReplies(c: CommentData, view: ThreadView): boolean {
  return (
    c.replyCount > 0 ||
    !!c.replies?.edges.length ||
    !!view.live.replies[c.id]?.length ||
    view.local.some((l) => l.parentId === c.id)
  );
}

/**
 * A comment and its replies, with the changes recorded since load. An ignored author's comment
 * is hidden; a removed comment leaves a tombstone only when replies hang from it.
 */
export function CommentItem({ comment, level }: { comment: CommentData; level: number }) {
  const { t } = useStreamEnv();
  const view = useContext(ThreadContext);
  const c = resolveComment(view.live, comment);
  if (c.author && view.live.ignored.includes(c.author.id)) return null;
  const removed = !isVisibleComment(c);
  if (removed && !hasReplies(c, view)) return null;
  return (
    <div class="parley-item">
      {removed ? (
        <p class="parley-tombstone">{t('thread.removed')}</p>
      ) : (
        <CommentView comment={c} />
      )}
      <ReplyList parent={c} level={level + 1} />
    </div>
  );
}

/**
 * A comment the reader wrote in this page view: the server's copy once posted, else the text as
 * typed with its state ("Posting…", queued for the network, held for review).
 */
export function LocalItem({ entry, level }: { entry: LocalComment; level: number }) {
  const { t } = useStreamEnv();
  const { viewer } = useStreamData();
  const view = useContext(ThreadContext);
  // A held comment has a server copy too, but readers may not see it yet: keep the typed text.
  if (entry.state === 'posted' && entry.comment)
    return <CommentItem comment={entry.comment} level={level} />;
  // Held, then approved: it arrived live, published. A top-level one waits among the thread's
  // new comments, where the thread leaves out the reader's own; show it here instead of a note
  // that it will appear (a reply arriving live replaces this item in its ReplyList already).
  const published =
    entry.state === 'held' && entry.comment
      ? [...view.live.waiting, ...view.live.revealed].find((c) => c.id === entry.comment?.id)
      : undefined;
  if (published) return <CommentItem comment={published} level={level} />;
  return (
    <article
      class="parley-comment parley-local"
      aria-label={t('thread.commentBy', { name: viewer?.username ?? '' })}
    >
      <p class="parley-body parley-text">{entry.text}</p>
      <p class="parley-state" role="status">
        {t(`thread.local.${entry.state === 'posted' ? 'posting' : entry.state}`)}
      </p>
    </article>
  );
}

/**
 * The replies of `parent` at indentation `level`: fetched, loaded with "Show more replies",
 * arrived live, and the reader's own. Past {@link MAX_LEVEL} they wait behind "Continue this
 * thread", which loads them and starts the indentation again.
 */
export function ReplyList({ parent, level }: { parent: CommentData; level: number }) {
  const { t } = useStreamEnv();
  const view = useContext(ThreadContext);
  const client = useClient();
  const deep = level > MAX_LEVEL;
  const [more, setMore] = useState<Connection<CommentData>>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CombinedError>();
  // A continued thread shows only what it loaded itself (the root query stops two levels down).
  const base = deep ? undefined : parent.replies;
  const pageInfo = more?.pageInfo ?? base?.pageInfo;
  const items =
    deep && !more
      ? []
      : uniqueComments([
          ...nodesOf(base),
          ...nodesOf(more),
          ...(view.live.replies[parent.id] ?? []),
        ]);
  const ids = new Set(items.map((c) => c.id));
  const own = view.local.filter(
    (l) => l.parentId === parent.id && !(l.comment && ids.has(l.comment.id)),
  );
  const hidden = deep && !more && (parent.replyCount > 0 || !!view.live.replies[parent.id]);
  if (!items.length && !own.length && !hidden && !pageInfo?.hasNextPage) return null;

  const load = () => {
    setBusy(true);
    setError(undefined);
    void client
      .query(REPLIES_QUERY, {
        id: parent.id,
        first: MORE_REPLIES_PAGE_SIZE,
        after: pageInfo?.endCursor ?? null,
      })
      .toPromise()
      .then(({ data, error: failed }) => {
        setBusy(false);
        const page = data?.comment?.replies;
        if (!page) return setError(failed);
        setMore((loaded) => ({
          pageInfo: page.pageInfo,
          edges: [...(loaded?.edges ?? []), ...page.edges],
        }));
      });
  };
  const childLevel = deep ? 1 : level;

  return (
    <div class={deep ? 'parley-replies parley-continued' : 'parley-replies'}>
      {items.map((c) => (
        <CommentItem key={c.id} comment={c} level={childLevel} />
      ))}
      {own.map((l) => (
        <LocalItem key={l.key} entry={l} level={childLevel} />
      ))}
      {hidden ? (
        // `data-continue`: the server's page adds a link here for readers without JavaScript.
        <button
          data-continue={parent.id}
          type="button"
          class="parley-link"
          disabled={busy}
          onClick={load}
        >
          {t('thread.continue')}
        </button>
      ) : (
        pageInfo?.hasNextPage && (
          <button type="button" class="parley-link" disabled={busy} onClick={load}>
            {t('thread.moreReplies', { count: Math.max(parent.replyCount - items.length, 1) })}
          </button>
        )
      )}
      {error && <ErrorNote error={error} />}
    </div>
  );
}
