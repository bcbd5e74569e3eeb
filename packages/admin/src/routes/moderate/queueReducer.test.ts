import { INITIAL_QUEUE_STATE, queueReducer, visibleCards } from './queueReducer';
import type { QueueAction, QueueState } from './queueReducer';
import { makeQueueComment as c } from './testFixtures';

const page = { hasNextPage: false, endCursor: null };
const snapshot = (
  items: ReturnType<typeof c>[],
  hasNextPage = false,
  order: 'newest' | 'oldest' = 'newest',
): QueueAction => ({
  type: 'snapshot',
  items,
  pageInfo: { hasNextPage, endCursor: null },
  order,
});
const run = (...actions: QueueAction[]): QueueState =>
  actions.reduce(queueReducer, INITIAL_QUEUE_STATE);
const ids = (state: QueueState) => visibleCards(state).map((x) => x.id);

test('the first snapshot is shown as is', () => {
  expect(ids(run(snapshot([c(2), c(1)])))).toEqual(['c2', 'c1']);
});

test('later arrivals wait behind the button; the shown list does not move', () => {
  const state = run(snapshot([c(2), c(1)]), snapshot([c(3), c(2), c(1)]));
  expect(ids(state)).toEqual(['c2', 'c1']);
  expect(state.arrivals.map((x) => x.id)).toEqual(['c3']);
  const shown = queueReducer(state, { type: 'showArrivals', order: 'newest' });
  expect(ids(shown)).toEqual(['c3', 'c2', 'c1']);
  expect(shown.arrivals).toEqual([]);
});

test('in oldest-first order, shown arrivals go to the end', () => {
  const state = run(
    snapshot([c(1), c(2)], false, 'oldest'),
    snapshot([c(1), c(2), c(3)], false, 'oldest'),
  );
  expect(ids(queueReducer(state, { type: 'showArrivals', order: 'oldest' }))).toEqual([
    'c1',
    'c2',
    'c3',
  ]);
});

test('a card that left elsewhere stays in place, marked gone, until the list is refreshed', () => {
  const state = run(snapshot([c(3), c(2), c(1)]), snapshot([c(3), c(1)]));
  expect(ids(state)).toEqual(['c3', 'c2', 'c1']);
  expect(state.gone).toEqual(['c2']);
});

test('a card beyond the snapshot’s page is not taken for gone', () => {
  const state = run(
    snapshot([c(5), c(4), c(3), c(2), c(1)]),
    snapshot([c(6), c(5)], true), // the server's first page no longer reaches c4…c1
  );
  expect(state.gone).toEqual([]);
});

test('hidden (decided here) cards are neither shown, nor arrivals, nor gone', () => {
  let state = run(snapshot([c(2), c(1)]), { type: 'hide', id: 'c2' });
  expect(ids(state)).toEqual(['c1']);
  state = queueReducer(state, snapshot([c(1)])); // the server already dropped it
  expect(state.gone).toEqual([]);
  state = queueReducer(state, { type: 'restore', id: 'c2' });
  expect(ids(state)).toEqual(['c2', 'c1']);
  state = queueReducer(queueReducer(state, { type: 'hide', id: 'c2' }), {
    type: 'decided',
    id: 'c2',
  });
  expect(ids(state)).toEqual(['c1']);
  expect(state.hidden).toEqual([]);
});

test('an arrival that leaves again before it is shown is dropped', () => {
  const state = run(snapshot([c(1)]), snapshot([c(2), c(1)]), snapshot([c(1)]));
  expect(state.arrivals).toEqual([]);
});

test('"more" appends the next page without duplicates', () => {
  const state = queueReducer(run(snapshot([c(3), c(2)], true)), {
    type: 'more',
    items: [c(2), c(1)],
    pageInfo: page,
  });
  expect(ids(state)).toEqual(['c3', 'c2', 'c1']);
  expect(state.pageInfo.hasNextPage).toBe(false);
});

test('a card decided here never comes back as new from a snapshot older than the decision', () => {
  const state = run(
    snapshot([c(2), c(1)]),
    { type: 'hide', id: 'c2' },
    { type: 'decided', id: 'c2' },
    // Fetched before the server applied the decision: c2 is still in it.
    snapshot([c(3), c(2), c(1)]),
  );
  expect(ids(state)).toEqual(['c1']);
  expect(state.arrivals.map((x) => x.id)).toEqual(['c3']);
});
