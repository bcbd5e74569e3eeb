import type { CommentData } from './CommentView';

/**
 * A comment this reader wrote in this page view, from the moment they press Post: shown at once
 * ("posting…"), kept while offline ("queued"), then replaced by the server's copy. Its `key` is
 * the `clientMutationId` the post is sent with, so a retry can never create a second comment.
 */
export interface LocalComment {
  /** The post's clientMutationId. */
  key: string;
  /** Story it belongs to. */
  storyId: string;
  /** Parent comment, or null for a top-level comment. */
  parentId: string | null;
  /** What the reader typed (Markdown source, shown as plain text until the server's copy). */
  text: string;
  /** When Post was pressed (ISO). */
  createdAt: string;
  /** posting: sent, no answer yet; queued: waiting for the network; held: accepted for review; posted: `comment` is the server's copy. */
  state: 'posting' | 'queued' | 'held' | 'posted';
  /** The server's copy, once known. */
  comment?: CommentData;
}

/** Shared between the composer (which adds) and the thread (which shows). */
export interface ThreadStore {
  /** Every local comment, oldest first. */
  list(): readonly LocalComment[];
  /** Adds or replaces (by key). */
  upsert(comment: LocalComment): void;
  /** Removes (a failed post whose text went back into the box). */
  remove(key: string): void;
  /** Listens to changes; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/** Creates an empty store. */
export function createThreadStore(): ThreadStore {
  let items: LocalComment[] = [];
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((listener) => listener());
  return {
    list: () => items,
    upsert(comment) {
      const index = items.findIndex((item) => item.key === comment.key);
      items =
        index === -1 ? [...items, comment] : items.map((item, i) => (i === index ? comment : item));
      emit();
    },
    remove(key) {
      items = items.filter((item) => item.key !== key);
      emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
