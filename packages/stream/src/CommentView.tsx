import { useClient } from '@urql/preact';
import type { CombinedError } from '@urql/core';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { ThreadContext } from './applyLiveEvent';
import { openAuthPopup } from './auth/openAuthPopup';
import { Composer, reopens } from './Composer';
import { ErrorNote } from './ErrorNote';
import { withMessages } from './messages';
import type { AnyMessagesPart } from './messages';
import { ReactionButton } from './ReactionButton';
import { formatAbsolute, RelativeTime } from './RelativeTime';
// Types only: these are separate chunks, imported on first use.
import type { DeleteConfirm } from './DeleteConfirm';
import type { EditForm } from './EditForm';
import type { ReportDialog } from './ReportDialog';
import type { CommentThread } from './ReplyList';
import { useStreamData, useStreamEnv } from './StreamContext';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';

/**
 * A comment as the thread shows it (no replies): every copy of a comment in urql's cache and in
 * the UI, from a query, a mutation or a live event, has these fields.
 */
// One line each: template literals keep their whitespace in the bundle, and these are in the
// first-render budget.
export const CommentFields = graphql(
  `fragment CommentFields on Comment{id body createdAt editedAt editableUntil status removed tags replyCount reactionCount downvoteCount viewerVote parent{id}author{id username avatarUrl badges isGuest}}`,
);

/** A page of a connection (a thread's page carries each edge's cursor; replies do not). */
export interface Connection<T> {
  edges: { cursor?: string; node: T }[];
  pageInfo: ResultOf<typeof CommentThread>['replies']['pageInfo'];
}

/** A comment with the replies that came with it, if any (to the depth the query asked for). */
export type CommentData = ResultOf<typeof CommentFields> & { replies?: Connection<CommentData> };

/** The comment's author. */
export type Author = NonNullable<CommentData['author']>;

/**
 * True while readers may see the comment. Otherwise it left the stream — by its status, or as a
 * server tombstone (`removed`: rejected or erased, kept only because it has replies).
 */
export function isVisibleComment(comment: Pick<CommentData, 'status' | 'removed'>): boolean {
  return !comment.removed && (comment.status === 'NONE' || comment.status === 'APPROVED');
}

/** Hides a user's comments from the viewer. */
export const IGNORE_USER_MUTATION = graphql(
  `mutation IgnoreUser($input:UserIdInput!){ignoreUser(input:$input){user{id}}}`,
);

/** The DOM id of a comment's article (permalinks scroll to it). */
export const commentDomId = (id: string) => `parley-c-${id}`;

/** Which on-demand panel is open. */
type Kind = 'edit' | 'report' | 'delete';

/** Panels that are separate chunks, once loaded. */
interface LazyPanels {
  DeleteConfirm?: typeof DeleteConfirm;
  EditForm?: typeof EditForm;
  ReportDialog?: typeof ReportDialog;
}

/**
 * One comment: author, avatar, time, edited marker, the server's sanitized body, and its actions
 * (react, reply, share, report, edit, delete, ignore, moderate). Replies are rendered by the caller.
 */
export function CommentView({ comment: c }: { comment: CommentData }) {
  const env = useStreamEnv();
  const { t, params } = env;
  const { viewer, story, refetch } = useStreamData();
  const { dispatch, marked, local, ModMenu } = useContext(ThreadContext);
  const client = useClient();
  const [replying, setReplying] = useState(() => reopens(c.id));
  const [open, setOpen] = useState<Kind>();
  const [panels, setPanels] = useState<LazyPanels>({});
  const reportButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<CombinedError>();
  const name = c.author?.username ?? t('thread.deletedUser');
  const authorId = c.author?.id;
  const own = !!viewer && authorId === viewer.id;
  const current = marked === c.id;

  // The reply box closes once the reader's reply is in the thread (posting, queued or held).
  const replies = local.filter((l) => l.parentId === c.id).length;
  const seenReplies = useRef(replies);
  useEffect(() => {
    if (replies > seenReplies.current) setReplying(false);
    seenReplies.current = replies;
  }, [replies]);

  // A guest reacts, reports and ignores as nobody does: through an account.
  const signedIn = (run: () => void) =>
    void (viewer && !viewer.isGuest ? run() : openAuthPopup(env, 'signin'));
  // Rarely used panels (edit form, report form) are separate chunks, fetched on first use:
  // most readers never open them.
  // Each brings its text, added to the catalog before the panel opens.
  const toggle = (kind: Kind, load: () => Promise<LazyPanels & { messages: AnyMessagesPart }>) =>
    open === kind
      ? setOpen(undefined)
      : void load()
          .then(async ({ messages, ...module }) => (await withMessages(env, messages), module))
          .then(
            (module) => (setPanels((loaded) => ({ ...loaded, ...module })), setOpen(kind)),
            () => setNote(t('stream.loadFailed')),
          );

  const share = () => {
    // The host page puts ?commentID= in its own address (history.pushState); the copy is a bonus
    // that a frame without clipboard permission cannot always have.
    env.bridge.send('permalink', { commentId: c.id });
    const url = new URL(params.storyURL ?? story.url);
    url.searchParams.set('commentID', c.id);
    const clipboard = env.window.navigator.clipboard as Clipboard | undefined;
    (clipboard ? clipboard.writeText(url.href) : Promise.reject(new Error('no clipboard'))).then(
      () => setNote(t('thread.share.copied')),
      () => setNote(t('thread.share.updated')),
    );
  };

  const ignore = (userId: string) =>
    signedIn(() => {
      setError(undefined);
      void client
        .mutation(IGNORE_USER_MUTATION, { input: { userId } })
        .toPromise()
        .then((result) =>
          result.error ? setError(result.error) : dispatch({ type: 'ignore', userId }),
        );
    });

  return (
    <article
      id={commentDomId(c.id)}
      class={current ? 'parley-comment parley-current' : 'parley-comment'}
      aria-label={t('thread.commentBy', { name })}
      aria-current={current ? 'true' : undefined}
    >
      <header class="parley-meta">
        {c.author?.avatarUrl ? (
          <img class="parley-avatar" src={c.author.avatarUrl} alt="" width={32} height={32} />
        ) : (
          <span class="parley-avatar" aria-hidden="true">
            {name.charAt(0).toUpperCase()}
          </span>
        )}
        <strong class="parley-author">{name}</strong>
        {c.tags.includes('STAFF') && <span class="parley-badge">{t('thread.staff')}</span>}
        {c.author?.isGuest && <span class="parley-badge">{t('thread.guest')}</span>}
        {c.author?.badges.map((badge) => (
          <span key={badge} class="parley-badge">
            {badge}
          </span>
        ))}
        <RelativeTime iso={c.createdAt} />
        {c.tags.includes('PINNED') && <span class="parley-badge">{t('thread.pinned')}</span>}
        {c.editedAt && (
          <span class="parley-edited" title={formatAbsolute(c.editedAt, params.locale)}>
            {t('thread.edited')}
          </span>
        )}
      </header>
      {open === 'edit' && panels.EditForm ? (
        <panels.EditForm
          comment={c}
          onDone={(updated) => {
            setOpen(undefined);
            if (updated) dispatch({ type: 'updated', comment: updated });
          }}
        />
      ) : (
        // Sanitized by the server (the widget never parses Markdown nor builds HTML from text).
        // In its own direction: an English comment reads left to right in an Arabic thread.
        <div class="parley-body" dir="auto" dangerouslySetInnerHTML={{ __html: c.body }} />
      )}
      <div class="parley-actions">
        <ReactionButton comment={c} />
        <button type="button" aria-expanded={replying} onClick={() => setReplying(!replying)}>
          {t('thread.reply')}
        </button>
        <button type="button" onClick={share}>
          {t('thread.share')}
        </button>
        {own && !!c.editableUntil && Date.now() < Date.parse(c.editableUntil) && (
          <button
            type="button"
            aria-expanded={open === 'edit'}
            onClick={() => toggle('edit', () => import('./EditForm'))}
          >
            {t('thread.edit')}
          </button>
        )}
        {own && (
          <button
            type="button"
            ref={deleteButton}
            aria-expanded={open === 'delete'}
            onClick={() => toggle('delete', () => import('./DeleteConfirm'))}
          >
            {t('thread.delete')}
          </button>
        )}
        {!own && (
          <button
            type="button"
            ref={reportButton}
            aria-expanded={open === 'report'}
            onClick={() => signedIn(() => toggle('report', () => import('./ReportDialog')))}
          >
            {t('thread.report')}
          </button>
        )}
        {!own && authorId && (
          <button type="button" onClick={() => ignore(authorId)}>
            {t('thread.ignore')}
          </button>
        )}
        {ModMenu && (
          <ModMenu
            comment={c}
            onChanged={(updated) =>
              updated ? dispatch({ type: 'updated', comment: updated }) : refetch()
            }
          />
        )}
        <span class="parley-note" role="status">
          {note}
        </span>
        {error && <ErrorNote error={error} />}
      </div>
      {open === 'report' && panels.ReportDialog && (
        <panels.ReportDialog
          comment={c}
          onClose={() => (setOpen(undefined), reportButton.current?.focus())}
        />
      )}
      {open === 'delete' && panels.DeleteConfirm && (
        <panels.DeleteConfirm
          comment={c}
          onDone={(deleted) => {
            setOpen(undefined);
            if (deleted) dispatch({ type: 'updated', comment: deleted });
            // Kept: back to the button that asked.
            else deleteButton.current?.focus();
          }}
        />
      )}
      {replying && <Composer storyId={story.id} parentId={c.id} />}
    </article>
  );
}
