// A comment removed live (a moderator rejects it while the page is open): found by the e2e live
// journey, where the writer's stream kept "1 comment" over an empty thread without its invitation.
import { screen, waitFor } from '@testing-library/preact';
import { setupServer } from 'msw/node';
import type { createFakeSocketServer } from './testing/createFakeSocket';
import { disposeThreadEnvs, renderThread } from './testing/renderThread';
import { makeComment, makeStreamData, TEST_VIEWER } from './testing/threadFixtures';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterEach(disposeThreadEnvs);
afterAll(() => server.close());

const EMPTY = 'No comments yet. Start the conversation!';

const ready = async (live: ReturnType<typeof createFakeSocketServer>) => {
  await live.subscribed('commentCreated');
  await live.subscribed('commentUpdated');
};

test('a loaded comment rejected live leaves the count, and the empty thread invites again', async () => {
  const data = makeStreamData([makeComment('c1')]);
  data.story.commentCount = 1;
  const { live } = renderThread(data);
  await ready(live);
  expect(screen.getByText('1 comment')).toBeTruthy();
  expect(screen.queryByText(EMPTY)).toBeNull();
  live.publish('commentUpdated', { ...makeComment('c1'), status: 'REJECTED' });
  await waitFor(() => expect(screen.queryAllByRole('article')).toHaveLength(0));
  expect(screen.getByText('0 comments')).toBeTruthy();
  expect(screen.getByText(EMPTY)).toBeTruthy();
});

test('the reader’s own posted comment rejected live is no longer counted or shown', async () => {
  const data = makeStreamData([], { viewer: TEST_VIEWER });
  data.story.commentCount = 0;
  const { env, live } = renderThread(data);
  await ready(live);
  const own = makeComment('mine', { author: TEST_VIEWER });
  env.thread.upsert({
    key: 'k1',
    storyId: 's1',
    parentId: null,
    text: 'Mine',
    createdAt: own.createdAt,
    state: 'posted',
    comment: own,
  });
  expect(await screen.findByText('1 comment')).toBeTruthy();
  expect(screen.queryByText(EMPTY)).toBeNull();
  live.publish('commentUpdated', { ...own, status: 'REJECTED' });
  expect(await screen.findByText('0 comments')).toBeTruthy();
  expect(screen.queryAllByRole('article')).toHaveLength(0);
  expect(screen.getByText(EMPTY)).toBeTruthy();
});

test('a posted comment the thread loaded too is counted once', async () => {
  const own = makeComment('mine', { author: TEST_VIEWER });
  const data = makeStreamData([own], { viewer: TEST_VIEWER });
  data.story.commentCount = 1;
  const { env, live } = renderThread(data);
  await ready(live);
  env.thread.upsert({
    key: 'k1',
    storyId: 's1',
    parentId: null,
    text: 'Mine',
    createdAt: own.createdAt,
    state: 'posted',
    comment: own,
  });
  await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
  expect(screen.getByText('1 comment')).toBeTruthy();
});
