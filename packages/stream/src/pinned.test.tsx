// Staff pin one top-level comment per story: it leads the thread (once, wherever its page has
// it), and a pin or unpin reaches readers live.
import { screen, waitFor, within } from '@testing-library/preact';
import { setupServer } from 'msw/node';
import { disposeThreadEnvs, renderThread } from './testing/renderThread';
import { makeComment, makeStreamData } from './testing/threadFixtures';
import type { CommentData } from './CommentView';
import type { StoryData } from './StreamContext';

// A comment as the root query's pinnedComment (its replies, when it has any, come with it).
const asPinned = (comment: CommentData) => comment as StoryData['pinnedComment'];

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterEach(disposeThreadEnvs);
afterAll(() => server.close());

const order = () =>
  screen.getAllByRole('article').map((article) => article.getAttribute('aria-label'));

test('the pinned comment leads the thread once, marked Pinned, whatever the sort put first', () => {
  const pinned = makeComment('p1', { tags: ['PINNED'] });
  const data = makeStreamData([makeComment('c1'), pinned, makeComment('c2')], {
    story: { pinnedComment: asPinned(pinned) },
  });
  renderThread(data);
  expect(order()).toEqual(['Comment by user_p1', 'Comment by user_c1', 'Comment by user_c2']);
  const first = screen.getAllByRole('article')[0]!;
  expect(within(first).getByText('Pinned')).toBeTruthy();
  expect(screen.getAllByText('Pinned')).toHaveLength(1);
});

test('shows the pinned comment even when its page has not loaded yet', () => {
  const pinned = makeComment('far', { tags: ['PINNED'] });
  renderThread(makeStreamData([makeComment('c1')], { story: { pinnedComment: asPinned(pinned) } }));
  expect(order()).toEqual(['Comment by user_far', 'Comment by user_c1']);
});

test('a comment pinned live rises to the top, and the one unpinned goes back in line', async () => {
  const pinned = makeComment('p1', { tags: ['PINNED'] });
  const { live } = renderThread(
    makeStreamData([makeComment('c1'), makeComment('c2'), pinned], {
      story: { pinnedComment: asPinned(pinned) },
    }),
  );
  await live.subscribed('commentUpdated');
  expect(order()).toEqual(['Comment by user_p1', 'Comment by user_c1', 'Comment by user_c2']);
  live.publish('commentUpdated', makeComment('p1', { tags: [] }));
  live.publish('commentUpdated', makeComment('c2', { tags: ['PINNED'] }));
  // p1 is back where its page has it (last); c2 leads.
  await waitFor(() =>
    expect(order()).toEqual(['Comment by user_c2', 'Comment by user_c1', 'Comment by user_p1']),
  );
  expect(within(screen.getAllByRole('article')[0]!).getByText('Pinned')).toBeTruthy();
  expect(screen.getAllByText('Pinned')).toHaveLength(1);
});

test('unpinned live with nothing pinned instead, the comment leaves the top', async () => {
  const pinned = makeComment('p1', { tags: ['PINNED'] });
  const { live } = renderThread(
    makeStreamData([makeComment('c1'), pinned], { story: { pinnedComment: asPinned(pinned) } }),
  );
  await live.subscribed('commentUpdated');
  live.publish('commentUpdated', makeComment('p1', { tags: [] }));
  await waitFor(() => expect(order()).toEqual(['Comment by user_c1', 'Comment by user_p1']));
  expect(screen.queryByText('Pinned')).toBeNull();
});
