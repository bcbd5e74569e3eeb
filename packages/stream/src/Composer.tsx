import type { ComponentType } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { openAuthPopup } from './auth/openAuthPopup';
import { checkBody, describeError } from './describeError';
import type { CodedError } from './describeError';
import { MarkdownToolbar } from './MarkdownToolbar';
import { newPostKey } from './newPostKey';
import { useStreamData, useStreamEnv } from './StreamContext';
import { draftKey, useDraft } from './useDraft';
import type { GuestFormProps } from './GuestForm';
import { useOutbox } from './useOutbox';

/** Share of `maxCommentLength` past which the counter shows. */
export const COUNTER_THRESHOLD = 0.8;

/**
 * How long after a guest's session starts its reply box reopens, and its draft posts by itself
 * (GuestForm): a box that does not come back at once (its comment further down, the reader gone)
 * never does either later.
 */
export const GUEST_SESSION_WAIT_MS = 10_000;

/** The reply box a guest's new session reopens (the frame remounts the stream for it, App). */
let reopen: [commentId: string | null, until: number] = [null, 0];
/** Whether the reply box under `commentId` is to open as it mounts (once). */
export const reopens = (commentId: string): boolean =>
  reopen[0] === commentId && Date.now() < reopen[1] && ((reopen = [null, 0]), true);

/** Props of {@link Composer}. */
export interface ComposerProps {
  /** Story the comment goes to. */
  storyId: string;
  /** The comment replied to, or null for a top-level comment. */
  parentId: string | null;
}

/**
 * The comment box: Markdown toolbar, server-rendered preview, counter near the limit, Post.
 * Posting is optimistic (the thread shows the comment at once) and goes through the outbox, so a
 * post made offline is sent when the connection returns; a refused post comes back into the box
 * with its error. Signed out, the box still works and keeps the draft; Post opens sign-in, or,
 * where the site lets guests comment, the guest form (a chunk) whose new session posts the draft.
 */
export function Composer({ storyId, parentId }: ComposerProps) {
  const env = useStreamEnv();
  const { t, thread } = env;
  const { viewer, settings } = useStreamData();
  const draft = useDraft(env.transport.storage, draftKey(storyId, parentId));
  const [error, setError] = useState<CodedError | null>(null);
  const [queued, setQueued] = useState(false);
  // null: writing; {}: the preview's code is loading; { View }: previewing.
  const [preview, setPreview] = useState<{ View?: ComponentType<{ body: string }> } | null>(null);
  const [Guest, setGuest] = useState<ComponentType<GuestFormProps> | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  // One post per press: until the outbox has the post (its chunk may still be loading), a second
  // click or Ctrl+Enter must not send the same text again under a new key.
  const sending = useRef(false);
  const withOutbox = useOutbox(storyId, parentId, viewer !== null, (refusal, body) => {
    sending.current = false;
    // Put back and kept at once: a reload right after the refusal must still find the text.
    if (body !== undefined) draft.set(draft.text.trim() ? `${body}\n\n${draft.text}` : body, true);
    setError(refusal);
  });

  useEffect(() => {
    const check = () =>
      setQueued(
        thread
          .list()
          .some((c) => c.storyId === storyId && c.parentId === parentId && c.state === 'queued'),
      );
    check();
    return thread.subscribe(check);
  }, [thread, storyId, parentId]);

  const submit = (event?: Event) => {
    event?.preventDefault();
    if (viewer === null && !settings.guestComments) return openAuthPopup(env, 'signin');
    if (sending.current) return;
    const body = draft.text.trim();
    const invalid = checkBody(body, settings.maxCommentLength);
    setError(invalid);
    if (invalid) return box.current?.focus();
    // Signed out where guests may comment: a name first (the guest chunk).
    if (viewer === null) {
      return void guestChunk(true).then(
        (m) => setGuest(() => m.GuestForm),
        () => setError({ code: 'NETWORK_ERROR', extensions: {} }),
      );
    }
    setPreview(null);
    const createdAt = new Date().toISOString();
    // The box empties once the post is stored (the outbox keeps it from then on); if the outbox's
    // chunk cannot be fetched, the text stays in the box with the error.
    sending.current = true;
    withOutbox((outbox) => {
      sending.current = false;
      draft.clear(outbox.post({ key: newPostKey(), storyId, parentId, body, createdAt }));
    });
  };

  // The guest chunk: the form, and the text of guests' refusals (IP_BANNED…). A guest's composer
  // fetches it too, and posts the draft their new session was started for (the frame remounted).
  const key = draftKey(storyId, parentId);
  const guestChunk = (form?: boolean) =>
    import('./GuestForm').then(async (m) => (await m.prepare(env, form), m));
  useEffect(() => {
    if (draft.loaded && viewer?.isGuest) {
      guestChunk().then(
        (m) => m.takePending(key) && submit(),
        () => undefined,
      );
    }
  }, [draft.loaded]);

  // Images (the site allows them): picked, pasted or dropped, uploaded by a chunk of their own.
  const [uploading, setUploading] = useState(0);
  // Not for guests, who post words only.
  const images = settings.commentImages && viewer !== null && !viewer.isGuest;
  // Fetched ahead, so the Image button opens the file dialog while the click still counts.
  useEffect(() => void (images && import('./imageUpload').catch(() => undefined)), [images]);
  const addImages = (files?: File[]) => {
    if (viewer === null) return openAuthPopup(env, 'signin');
    setError(null);
    import('./imageUpload')
      .then((m) =>
        m.addImages(
          {
            env,
            storyId,
            box,
            onText: draft.set,
            onError: setError,
            onBusy: (change) => setUploading((n) => n + change),
          },
          files,
        ),
      )
      .catch(() => setError({ code: 'NETWORK_ERROR', extensions: {} }));
  };
  // Images pasted or dropped, not text: an office program's paste carries both, and means text.
  const takeImages = (event: Event, data: DataTransfer | null) => {
    const files = [...(data?.files ?? [])].filter((file) => file.type.startsWith('image/'));
    if (files.length && images && !data?.getData('text/plain')) {
      event.preventDefault();
      addImages(files);
    }
  };

  const togglePreview = () => {
    if (preview) return setPreview(null);
    setPreview({});
    import('./MarkdownPreview').then(
      // Only if still waiting: the reader may have switched back while the chunk loaded.
      ({ MarkdownPreview }) => setPreview((now) => now && { View: MarkdownPreview }),
      () => (setPreview(null), setError({ code: 'NETWORK_ERROR', extensions: {} })),
    );
  };

  const length = [...draft.text.trim()].length;
  const left = settings.maxCommentLength - length;
  const near = length > settings.maxCommentLength * COUNTER_THRESHOLD;
  const previewing = preview !== null;
  const form = (
    <form class="parley-composer" onSubmit={submit}>
      <label for={id}>{t(parentId ? 'composer.replyLabel' : 'composer.label')}</label>
      <MarkdownToolbar box={box} onChange={draft.set} disabled={previewing}>
        {settings.commentImages && !viewer?.isGuest && (
          <button type="button" disabled={previewing} onClick={() => addImages()}>
            {t('composer.image')}
          </button>
        )}
        <button
          type="button"
          class="parley-preview-toggle"
          aria-pressed={previewing}
          onClick={togglePreview}
        >
          {t('composer.preview')}
        </button>
      </MarkdownToolbar>
      <textarea
        id={id}
        ref={box}
        rows={parentId ? 3 : 4}
        // Each writer's own direction, whatever the thread's language.
        dir="auto"
        value={draft.text}
        hidden={previewing}
        aria-invalid={error !== null}
        aria-describedby={`${id}-count${error ? ` ${id}-error` : ''}`}
        onInput={(event) => draft.set(event.currentTarget.value)}
        onPaste={(event) => takeImages(event, event.clipboardData)}
        onDrop={(event) => takeImages(event, event.dataTransfer)}
        onKeyDown={(event) =>
          event.key === 'Enter' && (event.ctrlKey || event.metaKey) && submit(event)
        }
      />
      {preview?.View ? (
        <preview.View body={draft.text} />
      ) : (
        previewing && <p role="status">{t('composer.previewLoading')}</p>
      )}
      <div class="parley-composer-foot">
        {/* Always present: a live region must exist before its text changes to be announced. */}
        <span
          id={`${id}-count`}
          class="parley-counter"
          role="status"
          aria-live="polite"
          data-over={left < 0}
        >
          {near && t(left < 0 ? 'composer.over' : 'composer.left', { count: Math.abs(left) })}
        </span>
        <button type="submit" class="parley-primary" disabled={uploading > 0}>
          {t('composer.post')}
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert">
          {describeError(env, error)}
        </p>
      )}
      {queued && <p role="status">{t('composer.queued')}</p>}
      {uploading > 0 && <p role="status">{t('composer.uploading')}</p>}
    </form>
  );
  // Beside the box's form, not in it (forms do not nest).
  return Guest ? (
    <>
      {form}
      <Guest
        draftKey={key}
        onStarted={() => (reopen = [parentId, Date.now() + GUEST_SESSION_WAIT_MS])}
        onCancel={() => (setGuest(null), box.current?.focus())}
      />
    </>
  ) : (
    form
  );
}
