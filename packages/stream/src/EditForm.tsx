import { graphql } from '@parley/transport/graphql';
import { useClient } from '@urql/preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { TransportError, toTransportError } from '@parley/transport';
import { checkBody, describeError } from './describeError';
import type { CodedError } from './describeError';
import { CommentFields } from './CommentView';
import { useStreamData, useStreamEnv } from './StreamContext';
import type { MessagesPart } from './messages';
import { messages as en } from './messages/en/edit';
import type { CommentData } from './CommentView';

/** The edit form's text, added to the catalog before the form opens (CommentView). */
export const messages: MessagesPart<keyof typeof en> = en;

/** Saves an edit. */
export const EDIT_COMMENT = graphql(
  `
    mutation EditComment($input: EditCommentInput!) {
      editComment(input: $input) {
        comment {
          ...CommentFields
        }
      }
    }
  `,
  [CommentFields],
);

/** The Markdown the author wrote: the server gives `bodySource` to the author (and moderators). */
export const COMMENT_SOURCE = graphql(`
  query CommentSource($id: ID!) {
    comment(id: $id) {
      id
      bodySource
    }
  }
`);

/** Props of {@link EditForm}. */
export interface EditFormProps {
  /** The viewer's own comment. */
  comment: CommentData;
  /** Called with the server's copy after a save, with nothing on cancel. */
  onDone(updated?: CommentData): void;
}

/** Whole seconds from `now` until `until` (never negative); null without a deadline. */
export function secondsUntil(until: string | null, now: number): number | null {
  return until === null ? null : Math.max(0, Math.ceil((Date.parse(until) - now) / 1000));
}

/**
 * Edits a comment within the edit window, with a visible countdown. The box starts with the
 * text content of the comment's HTML, because readers get only the sanitized HTML `body`, not the
 * Markdown; the author's own source (`bodySource`) is then fetched and replaces it if the author
 * has not started typing, so links and formatting survive the edit.
 */
export function EditForm({ comment, onDone }: EditFormProps) {
  const env = useStreamEnv();
  const { t, window: win } = env;
  const { settings } = useStreamData();
  const client = useClient();
  const id = useId();
  const [text, setText] = useState(() => {
    // A <template>'s content is inert: no scripts run and no images load while reading the text.
    const template = win.document.createElement('template');
    template.innerHTML = comment.body;
    return template.content.textContent?.trim() ?? '';
  });
  const typed = useRef(false);
  const [error, setError] = useState<CodedError | null>(null);
  const [saving, setSaving] = useState(false);
  const [now, setNow] = useState(Date.now);
  const left = secondsUntil(comment.editableUntil, now);
  const expired = left === 0;

  useEffect(() => {
    let live = true;
    client
      .query(COMMENT_SOURCE, { id: comment.id }, { requestPolicy: 'network-only' })
      .toPromise()
      .then(({ data }) => {
        const source = data?.comment?.bodySource;
        if (live && !typed.current && typeof source === 'string') setText(source);
      });
    return () => {
      live = false;
    };
  }, [client, comment.id]);

  useEffect(() => {
    if (left === null || expired) return;
    const timer = win.setInterval(() => setNow(Date.now()), 1000);
    return () => win.clearInterval(timer);
  }, [win, left === null, expired]);

  const save = async (event: Event) => {
    event.preventDefault();
    const body = text.trim();
    const invalid = checkBody(body, settings.maxCommentLength);
    setError(invalid);
    if (invalid || saving) return;
    setSaving(true);
    const result = await client
      .mutation(EDIT_COMMENT, {
        input: { commentId: comment.id, body },
      })
      .toPromise();
    setSaving(false);
    const updated = result.data?.editComment?.comment;
    if (!updated) {
      return setError(
        result.error
          ? toTransportError(result.error)
          : new TransportError('BAD_RESPONSE', 'editComment answered without a comment'),
      );
    }
    env.bridge.send('event', { name: 'commentEdited', data: { commentId: updated.id } });
    onDone(updated);
  };

  const shown =
    error ?? (expired ? { code: 'EDIT_WINDOW_EXPIRED' as const, extensions: {} } : null);
  return (
    <form class="parley-composer parley-edit" onSubmit={save}>
      <label for={id}>{t('composer.editLabel')}</label>
      <textarea
        id={id}
        rows={4}
        dir="auto"
        value={text}
        aria-invalid={shown !== null}
        aria-describedby={`${id}-time${shown ? ` ${id}-error` : ''}`}
        onInput={(event) => ((typed.current = true), setText(event.currentTarget.value))}
        onKeyDown={(event) => event.key === 'Escape' && onDone()}
      />
      <div class="parley-composer-foot">
        {/* Not a live region: announcing every second would drown out everything else. */}
        <span id={`${id}-time`} class="parley-counter">
          {left !== null && !expired && t('composer.editCountdown', { count: left })}
        </span>
        <button type="button" onClick={() => onDone()}>
          {t('composer.cancel')}
        </button>
        <button type="submit" class="parley-primary" disabled={saving || expired}>
          {t('composer.save')}
        </button>
      </div>
      {shown && (
        <p id={`${id}-error`} role="alert">
          {describeError(env, shown)}
        </p>
      )}
    </form>
  );
}
