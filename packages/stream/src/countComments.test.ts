import { applyLiveEvent, EMPTY_LIVE_STATE } from './applyLiveEvent';
import type { LiveEvent, LiveState } from './applyLiveEvent';
import { countComments } from './countComments';
import type { LocalComment } from './createThreadStore';
import { makeComment, makeConnection } from './testing/threadFixtures';

const live = (...events: LiveEvent[]): LiveState => events.reduce(applyLiveEvent, EMPTY_LIVE_STATE);
const posted = (id: string, parentId: string | null = null): LocalComment => ({
  key: `k-${id}`,
  storyId: 's1',
  parentId,
  text: id,
  createdAt: '2026-11-25T10:00:00.000Z',
  state: 'posted',
  comment: makeComment(id, parentId ? { parent: { id: parentId } } : {}),
});

describe('countComments', () => {
  const page = [
    makeComment('a', { replyCount: 1, replies: makeConnection([makeComment('a1')]) }),
    makeComment('b'),
  ];

  it('is the story count when nothing happened since the page loaded', () => {
    expect(countComments(7, page, EMPTY_LIVE_STATE, [])).toBe(7);
  });

  it('adds each comment that arrived live once: waiting, revealed or a reply', () => {
    const state = live(
      { type: 'created', comment: makeComment('n1') },
      { type: 'created', comment: makeComment('n1') },
      { type: 'created', comment: makeComment('n2') },
      { type: 'reveal' },
      { type: 'created', comment: makeComment('r1', { parent: { id: 'b' } }) },
    );
    expect(countComments(7, page, state, [])).toBe(10);
  });

  it("adds the reader's posted comments once, even when they also arrived live", () => {
    const state = live({ type: 'created', comment: makeComment('mine') });
    const queued: LocalComment = { ...posted('later'), state: 'queued', comment: undefined };
    expect(countComments(7, page, state, [posted('mine'), posted('reply', 'a'), queued])).toBe(9);
  });

  it('does not add what the page loaded, nor what was removed before it showed', () => {
    const state = live(
      { type: 'created', comment: makeComment('gone') },
      { type: 'updated', comment: { id: 'gone', status: 'REJECTED' } },
    );
    expect(countComments(7, page, state, [posted('b')])).toBe(7);
  });

  it('takes away loaded comments and replies removed since, never going below zero', () => {
    const state = live(
      { type: 'updated', comment: { id: 'b', status: 'REJECTED' } },
      { type: 'updated', comment: { id: 'a1', removed: true } },
    );
    expect(countComments(7, page, state, [])).toBe(5);
    expect(countComments(1, page, state, [])).toBe(0);
  });

  it('does not take away a comment that was already hidden when the page loaded', () => {
    const held = [makeComment('h', { status: 'PREMOD' })];
    const state = live({ type: 'updated', comment: { id: 'h', status: 'REJECTED' } });
    expect(countComments(3, held, state, [])).toBe(3);
  });
});
