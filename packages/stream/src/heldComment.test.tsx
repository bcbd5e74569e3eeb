// The reader's own comment held for review (pre-moderation), then approved while the page stays
// open: found by the e2e pre-moderation journey, where the note "will appear after review" stayed
// under a comment every other reader already saw.
import { screen, within } from '@testing-library/preact';
import { setupServer } from 'msw/node';
import type { createFakeSocketServer } from './testing/createFakeSocket';
import { disposeThreadEnvs, renderThread } from './testing/renderThread';
import { makeComment, makeStreamData, TEST_VIEWER } from './testing/threadFixtures';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterEach(disposeThreadEnvs);
afterAll(() => server.close());

const ready = async (live: ReturnType<typeof createFakeSocketServer>) => {
  await live.subscribed('commentCreated');
  await live.subscribed('commentUpdated');
};

test('a held top-level comment shows as published once its approval arrives live, once', async () => {
  const { env, live } = renderThread(makeStreamData([makeComment('c1')], { viewer: TEST_VIEWER }));
  await ready(live);
  const held = makeComment('mine', {
    author: TEST_VIEWER,
    status: 'PREMOD',
    body: '<p>Mine, approved</p>',
  });
  env.thread.upsert({
    key: 'k1',
    storyId: 's1',
    parentId: null,
    text: 'Mine, as typed',
    createdAt: held.createdAt,
    state: 'held',
    comment: held,
  });
  expect(await screen.findByText('Your comment will appear after review')).toBeTruthy();

  live.publish('commentCreated', { ...held, status: 'APPROVED' });
  const published = await screen.findByText('Mine, approved');
  expect(screen.queryByText('Your comment will appear after review')).toBeNull();
  expect(screen.queryByText('Mine, as typed')).toBeNull();
  const mine = screen.getAllByRole('article', { name: 'Comment by me' });
  expect(mine).toHaveLength(1);
  expect(within(mine[0]!).getByText('Mine, approved')).toBe(published);
  // Not announced as someone else's new comment either.
  expect(screen.queryByRole('button', { name: /new comment/ })).toBeNull();
});

test('a held comment stays held while other comments arrive', async () => {
  const { env, live } = renderThread(makeStreamData([makeComment('c1')], { viewer: TEST_VIEWER }));
  await ready(live);
  const held = makeComment('mine', { author: TEST_VIEWER, status: 'PREMOD' });
  env.thread.upsert({
    key: 'k1',
    storyId: 's1',
    parentId: null,
    text: 'Mine, as typed',
    createdAt: held.createdAt,
    state: 'held',
    comment: held,
  });
  live.publish('commentCreated', makeComment('other'));
  expect(await screen.findByRole('button', { name: '1 new comment' })).toBeTruthy();
  expect(screen.getByText('Your comment will appear after review')).toBeTruthy();
  expect(screen.getByText('Mine, as typed')).toBeTruthy();
});
