import { useEffect, useRef, useState } from 'preact/hooks';
import type { TransportStorage } from '@parley/transport';

/** Wait after the last keystroke before a draft is written to storage. */
export const DRAFT_SAVE_DELAY_MS = 300;

/** Storage key of the draft of one box: one per story and parent (a reply box has its own). */
export const draftKey = (storyId: string, parentId: string | null): string =>
  `draft:${storyId}:${parentId ?? ''}`;

/** A box's text, kept in storage as the reader types. */
export interface Draft {
  /** The text now. */
  text: string;
  /** Whether storage has answered (the stored draft, if any, is in `text`). */
  loaded: boolean;
  /**
   * Changes the text; storage follows after {@link DRAFT_SAVE_DELAY_MS}, or at once with `now`
   * (text put back after a refused post: a reload right after must still find it).
   */
  set(next: string, now?: boolean): void;
  /** Empties the box; the stored draft is removed once `saved` settles (the text is safe elsewhere). */
  clear(saved?: Promise<unknown>): void;
}

/**
 * The draft of the box stored under `key`: restored on mount (a reload, or the remount that
 * follows sign-in), saved while typing, written at once on unmount so the last keystrokes before
 * a remount are not lost. Storage failures (quota, blocked storage) never block typing.
 */
export function useDraft(storage: TransportStorage, key: string): Draft {
  const [text, setText] = useState('');
  const [loaded, setLoaded] = useState(false);
  const state = useRef<{
    typed: boolean;
    timer?: ReturnType<typeof setTimeout>;
    save?: () => void;
  }>({
    typed: false,
  });
  const write = (value: string) =>
    (value === '' ? storage.remove(key) : storage.set(key, value)).catch(() => undefined);

  useEffect(() => {
    let live = true;
    storage
      .get<string>(key)
      .then(
        // Typing that started before storage answered wins over the stored text.
        (stored) => live && !state.current.typed && typeof stored === 'string' && setText(stored),
        () => undefined,
      )
      .then(() => live && setLoaded(true));
    return () => {
      live = false;
      const { timer, save } = state.current;
      clearTimeout(timer);
      if (timer !== undefined) save?.();
    };
  }, [storage, key]);

  const cancel = () => {
    clearTimeout(state.current.timer);
    state.current.timer = undefined;
  };
  return {
    text,
    loaded,
    set(next, now = false) {
      cancel();
      state.current.typed = true;
      state.current.save = () => void write(next);
      if (now) void write(next);
      else {
        state.current.timer = setTimeout(() => {
          state.current.timer = undefined;
          void write(next);
        }, DRAFT_SAVE_DELAY_MS);
      }
      setText(next);
    },
    clear(saved = Promise.resolve()) {
      cancel();
      state.current.typed = true;
      setText('');
      // Removed even if `saved` failed: a stale draft restored later could be posted twice.
      void saved.catch(() => undefined).then(() => write(''));
    },
  };
}
