/**
 * The visible list of a queue as a pure reducer, so that "the list never jumps" is a property of
 * one function that tests drive directly. Server snapshots (the first page, fetched again after
 * every live event) are merged, not swapped in: comments the moderator has not seen wait in
 * `arrivals` behind the "N new" button, and cards that left the queue elsewhere stay in place,
 * marked, until the list is refreshed.
 */
import type { ResultOf } from '@parley/transport/graphql';
import type { QueueComment } from './ModerationCard';
import type { QUEUE_QUERY } from './queries';

/** State of one queue's list. */
export interface QueueState {
  /** The cards in display order; null before the first page arrives. */
  shown: QueueComment[] | null;
  /** Comments that arrived since, not shown yet (the "N new" button). */
  arrivals: QueueComment[];
  /** Ids decided here and hidden at once (optimistic), until the server confirms or refuses. */
  hidden: string[];
  /** Ids that left the queue by someone else's hand; their cards stay, marked. */
  gone: string[];
  /** Ids decided here: a snapshot older than the decision never brings them back as new. */
  decided: string[];
  /** Paging of what `shown` covers. */
  pageInfo: ResultOf<typeof QUEUE_QUERY>['moderationQueue']['pageInfo'];
}

/** Something that changes the list. */
export type QueueAction =
  | {
      type: 'snapshot';
      items: QueueComment[];
      pageInfo: QueueState['pageInfo'];
      /** `oldest` lists ascending: arrivals then go at the end. */
      order: 'newest' | 'oldest';
    }
  | { type: 'more'; items: QueueComment[]; pageInfo: QueueState['pageInfo'] }
  | { type: 'showArrivals'; order: 'newest' | 'oldest' }
  | { type: 'hide'; id: string }
  | { type: 'restore'; id: string }
  | { type: 'decided'; id: string }
  | { type: 'update'; id: string; patch: Partial<QueueComment> };

/** The empty state, before the first page. */
export const INITIAL_QUEUE_STATE: QueueState = {
  shown: null,
  arrivals: [],
  hidden: [],
  gone: [],
  decided: [],
  pageInfo: { hasNextPage: false, endCursor: null },
};

const time = (c: QueueComment) => Date.parse(c.createdAt);

/** Whether `item` falls inside the range the snapshot `items` covers (the rest is on later pages). */
function covered(
  item: QueueComment,
  items: QueueComment[],
  hasNextPage: boolean,
  order: 'newest' | 'oldest',
): boolean {
  if (!hasNextPage) return true;
  const last = items.at(-1);
  if (!last) return false;
  return order === 'newest' ? time(item) >= time(last) : time(item) <= time(last);
}

/** Applies `action` to `state`. */
export function queueReducer(state: QueueState, action: QueueAction): QueueState {
  switch (action.type) {
    case 'snapshot': {
      const { items, pageInfo, order } = action;
      if (state.shown === null) return { ...state, shown: items, pageInfo };
      const byId = new Map(items.map((item) => [item.id, item]));
      const known = new Set([...state.shown, ...state.arrivals].map((c) => c.id));
      // Fresh data for cards already shown (new reports, edits); their place stays.
      const shown = state.shown.map((c) => byId.get(c.id) ?? c);
      const gone = state.shown
        .filter((c) => !byId.has(c.id) && !state.hidden.includes(c.id))
        .filter((c) => covered(c, items, pageInfo.hasNextPage, order))
        .map((c) => c.id);
      const fresh = items.filter(
        (item) =>
          !known.has(item.id) &&
          !state.hidden.includes(item.id) &&
          !state.decided.includes(item.id),
      );
      // An arrival that left again before it was shown is dropped.
      const arrivals = [
        ...state.arrivals.filter((c) => byId.has(c.id)).map((c) => byId.get(c.id) ?? c),
        ...fresh,
      ];
      return { ...state, shown, arrivals, gone: [...new Set([...state.gone, ...gone])] };
    }
    case 'more': {
      const have = new Set((state.shown ?? []).map((c) => c.id));
      return {
        ...state,
        shown: [...(state.shown ?? []), ...action.items.filter((c) => !have.has(c.id))],
        pageInfo: action.pageInfo,
      };
    }
    case 'showArrivals': {
      if (state.arrivals.length === 0) return state;
      const current = (state.shown ?? []).filter((c) => !state.gone.includes(c.id));
      const merged = [...state.arrivals, ...current].sort((a, b) =>
        action.order === 'newest' ? time(b) - time(a) : time(a) - time(b),
      );
      return { ...state, shown: merged, arrivals: [], gone: [] };
    }
    case 'hide':
      return state.hidden.includes(action.id)
        ? state
        : { ...state, hidden: [...state.hidden, action.id] };
    case 'restore':
      return { ...state, hidden: state.hidden.filter((id) => id !== action.id) };
    case 'decided':
      return {
        ...state,
        shown: state.shown?.filter((c) => c.id !== action.id) ?? null,
        hidden: state.hidden.filter((id) => id !== action.id),
        decided: [...state.decided, action.id],
      };
    case 'update':
      return {
        ...state,
        shown:
          state.shown?.map((c) => (c.id === action.id ? { ...c, ...action.patch } : c)) ?? null,
      };
  }
}

/** The cards to render: shown minus the ones hidden by a pending decision. */
export function visibleCards(state: QueueState): QueueComment[] {
  return (state.shown ?? []).filter((c) => !state.hidden.includes(c.id));
}
