import { useSyncExternalStore } from 'react';
import { useT } from './i18n';

/** A message for the moderator that outlives the page that raised it. */
export interface Notice {
  id: number;
  text: string;
}

/**
 * Console-wide notices: what a page must still say after it is gone (a decision sent as the
 * moderator left the queue, and refused). The layout shows them until dismissed.
 */
export interface Notices {
  /** The notices shown now, oldest first. */
  list(): readonly Notice[];
  /** Shows `text` until dismissed. */
  add(text: string): void;
  /** Removes the notice `id`. */
  dismiss(id: number): void;
  /** Calls `listener` after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** An empty set of notices. */
export function createNotices(): Notices {
  let notices: readonly Notice[] = [];
  let next = 1;
  const listeners = new Set<() => void>();
  const change = (list: readonly Notice[]) => {
    notices = list;
    for (const listener of listeners) listener();
  };
  return {
    list: () => notices,
    add: (text) => change([...notices, { id: next++, text }]),
    dismiss: (id) => change(notices.filter((notice) => notice.id !== id)),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The notices, each with its Dismiss button; nothing when there are none. */
export function NoticeList({ notices }: { notices: Notices }) {
  const list = useSyncExternalStore(notices.subscribe, notices.list);
  const t = useT();
  if (list.length === 0) return null;
  return (
    <ul className="notices" role="alert">
      {list.map((notice) => (
        <li key={notice.id}>
          {notice.text}{' '}
          <button type="button" onClick={() => notices.dismiss(notice.id)}>
            {t('console.shell.dismiss')}
          </button>
        </li>
      ))}
    </ul>
  );
}
