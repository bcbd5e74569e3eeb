import { createContext } from 'preact';
import type { LocalComment } from './createThreadStore';
import type { CommentModMenu } from './moderation/CommentModMenu';
import type { CommentData, Connection } from './CommentView';

// The thread keeps what it fetched as fetched (urql's results, the pages it loaded) and records
// every later change here, applied at render time. A refetch of the root query (the transport
// refetches it after any mutation that returns a Comment) therefore never loses live state, and
// the reducer stays pure and testable without a socket.

/** What live events and the reader's own actions changed since the thread loaded. */
export interface LiveState {
  /** Changed fields by comment id (edits, reaction counts, status), laid over fetched copies. */
  patches: Record<string, Partial<CommentData>>;
  /** Replies that arrived live, by parent id, oldest first. */
  replies: Record<string, CommentData[]>;
  /** New top-level comments waiting behind the "N new comments" button, newest first. */
  waiting: CommentData[];
  /** New top-level comments the reader chose to see, newest first. */
  revealed: CommentData[];
  /** Authors the reader ignored in this view. */
  ignored: string[];
}

/** Something that changes the thread after it loaded. */
export type LiveEvent =
  | { type: 'created'; comment: CommentData }
  | { type: 'updated'; comment: Partial<CommentData> & { id: string } }
  | { type: 'reveal' }
  | { type: 'ignore'; userId: string };

/** The state before any event. */
export const EMPTY_LIVE_STATE: LiveState = {
  patches: {},
  replies: {},
  waiting: [],
  revealed: [],
  ignored: [],
};

/** The thread's reducer: returns the state after `event` (the same object when nothing changed). */
export function applyLiveEvent(state: LiveState, event: LiveEvent): LiveState {
  switch (event.type) {
    case 'created': {
      const { comment } = event;
      const parentId = comment.parent?.id;
      const list = parentId ? (state.replies[parentId] ?? []) : state.waiting;
      // A socket that reconnects may deliver an event twice.
      if (list.some((c) => c.id === comment.id) || state.revealed.some((c) => c.id === comment.id))
        return state;
      return parentId
        ? { ...state, replies: { ...state.replies, [parentId]: [...list, comment] } }
        : { ...state, waiting: [comment, ...list] };
    }
    case 'updated': {
      // An update never carries the replies the thread already shows under the comment.
      const { replies: _replies, ...fields } = event.comment;
      const patch = { ...state.patches[fields.id], ...fields };
      return { ...state, patches: { ...state.patches, [fields.id]: patch } };
    }
    case 'reveal':
      return { ...state, waiting: [], revealed: [...state.waiting, ...state.revealed] };
    case 'ignore':
      return { ...state, ignored: [...state.ignored, event.userId] };
  }
}

/** `comment` with the changes recorded since it was fetched. */
export function resolveComment(state: LiveState, comment: CommentData): CommentData {
  const patch = state.patches[comment.id];
  return patch ? { ...comment, ...patch } : comment;
}

/** The nodes of a connection, or none. */
export function nodesOf(connection: Connection<CommentData> | undefined | null): CommentData[] {
  return connection ? connection.edges.map((edge) => edge.node) : [];
}

/** `comments` without repeats (a page boundary that moved, a live copy of a fetched comment). */
export function uniqueComments(comments: CommentData[]): CommentData[] {
  const seen = new Set<string>();
  return comments.filter((c) => !seen.has(c.id) && !!seen.add(c.id));
}

/** What every comment of one thread shares. */
export interface ThreadView {
  /** Changes since load. */
  live: LiveState;
  /** Records a change. */
  dispatch(event: LiveEvent): void;
  /** The reader's own comments of this page view, for this story. */
  local: readonly LocalComment[];
  /** The comment a permalink points at, or null. */
  marked: string | null;
  /** The moderator menu, once its chunk loaded (moderators only). */
  ModMenu?: typeof CommentModMenu;
}

/** The thread the comments below belong to. */
export const ThreadContext = createContext<ThreadView>({
  live: EMPTY_LIVE_STATE,
  dispatch: () => {},
  local: [],
  marked: null,
});
