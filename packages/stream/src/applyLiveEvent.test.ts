import { applyLiveEvent, EMPTY_LIVE_STATE, resolveComment, uniqueComments } from './applyLiveEvent';
import type { LiveEvent, LiveState } from './applyLiveEvent';
import { makeComment, makeConnection } from './testing/threadFixtures';

const run = (...events: LiveEvent[]): LiveState => events.reduce(applyLiveEvent, EMPTY_LIVE_STATE);

test('new top-level comments wait newest first; reveal moves them above earlier revealed ones', () => {
  const a = makeComment('a');
  const b = makeComment('b');
  const c = makeComment('c');
  const waiting = run({ type: 'created', comment: a }, { type: 'created', comment: b });
  expect(waiting.waiting.map((x) => x.id)).toEqual(['b', 'a']);
  const state = run(
    { type: 'created', comment: a },
    { type: 'reveal' },
    { type: 'created', comment: b },
    { type: 'created', comment: c },
    { type: 'reveal' },
  );
  expect(state.waiting).toEqual([]);
  expect(state.revealed.map((x) => x.id)).toEqual(['c', 'b', 'a']);
});

test('replies go under their parent in arrival order, and a repeated event is ignored', () => {
  const r1 = makeComment('r1', { parent: { id: 'p' } });
  const r2 = makeComment('r2', { parent: { id: 'p' } });
  const once = run({ type: 'created', comment: r1 }, { type: 'created', comment: r2 });
  expect(applyLiveEvent(once, { type: 'created', comment: r1 })).toBe(once);
  expect(once.replies.p?.map((x) => x.id)).toEqual(['r1', 'r2']);
  expect(once.waiting).toEqual([]);
  const top = run({ type: 'created', comment: makeComment('t') }, { type: 'reveal' });
  expect(applyLiveEvent(top, { type: 'created', comment: makeComment('t') })).toBe(top);
});

test('updates merge over the fetched copy and never replace its replies', () => {
  const fetched = makeComment('c', {
    reactionCount: 1,
    replies: makeConnection([makeComment('r', { parent: { id: 'c' } })]),
  });
  const state = run(
    { type: 'updated', comment: { id: 'c', reactionCount: 5 } },
    { type: 'updated', comment: { ...makeComment('c'), body: '<p>new</p>', replies: undefined } },
  );
  const shown = resolveComment(state, fetched);
  expect(shown.body).toBe('<p>new</p>');
  expect(shown.reactionCount).toBe(0);
  expect(shown.replies?.edges).toHaveLength(1);
  const other = makeComment('other');
  expect(resolveComment(state, other)).toBe(other);
});

test('ignored users accumulate; uniqueComments keeps the first copy of each id', () => {
  expect(run({ type: 'ignore', userId: 'u1' }, { type: 'ignore', userId: 'u2' }).ignored).toEqual([
    'u1',
    'u2',
  ]);
  const first = makeComment('x', { body: 'first' });
  expect(uniqueComments([first, makeComment('y'), makeComment('x')]).map((c) => c.body)).toEqual([
    'first',
    '<p>Body of y</p>',
  ]);
});
