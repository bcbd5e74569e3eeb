// Live updates go through the real path: urql's subscription exchange, the transport's graphql-ws
// client and a fake WebSocket (testing/createFakeSocket.ts) that speaks graphql-transport-ws.
// The reducer itself is tested directly in applyLiveEvent.test.ts.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import type { SocketStatus, Transport } from '@parley/transport';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { CATCH_UP_MARGIN_MS } from './followLiveComments';
import { createFakeSocketServer } from './testing/createFakeSocket';
import { createTestEnv, renderInStream } from './testing/createTestEnv';
import { articleBy, disposeLater, disposeThreadEnvs, renderThread } from './testing/renderThread';
import { makeComment, makeConnection, makeStreamData, TEST_VIEWER } from './testing/threadFixtures';
import { Thread } from './Thread';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterEach(disposeThreadEnvs);
afterAll(() => server.close());

describe('live', () => {
  const ready = async (live: ReturnType<typeof createFakeSocketServer>) => {
    await live.subscribed('commentCreated');
    await live.subscribed('commentUpdated');
  };

  test('a new top-level comment waits behind a button and is inserted at the top on click', async () => {
    const { live } = renderThread(makeStreamData([makeComment('c1')]));
    await ready(live);
    live.publish('commentCreated', makeComment('n1'));
    const button = await screen.findByRole('button', { name: '1 new comment' });
    expect(screen.queryByRole('article', { name: 'Comment by user_n1' })).toBeNull();
    live.publish('commentCreated', makeComment('n2'));
    fireEvent.click(await screen.findByRole('button', { name: '2 new comments' }));
    expect(button.isConnected).toBe(false);
    const names = screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'));
    expect(names).toEqual(['Comment by user_n2', 'Comment by user_n1', 'Comment by user_c1']);
  });

  test('the count follows live arrivals, and an empty thread does not invite a first comment meanwhile', async () => {
    const { live } = renderThread(makeStreamData([]));
    await ready(live);
    expect(screen.getByText('0 comments')).toBeTruthy();
    live.publish('commentCreated', makeComment('n1'));
    await screen.findByRole('button', { name: '1 new comment' });
    expect(screen.getByText('1 comment')).toBeTruthy();
    expect(screen.queryByText('No comments yet. Start the conversation!')).toBeNull();
    // The same comment again (its update, a duplicate delivery) is not counted twice.
    live.publish('commentCreated', makeComment('n1'));
    live.publish('commentCreated', makeComment('r1', { parent: { id: 'n1' } }));
    await screen.findByText('2 comments');
  });

  test('a new reply appears under its parent at once', async () => {
    const { live } = renderThread(makeStreamData([makeComment('c1'), makeComment('c2')]));
    await ready(live);
    live.publish('commentCreated', makeComment('r1', { parent: { id: 'c2' } }));
    const reply = await screen.findByRole('article', { name: 'Comment by user_r1' });
    expect(reply.closest('.parley-item')?.parentElement?.closest('.parley-item')).toBe(
      articleBy('user_c2').closest('.parley-item'),
    );
    expect(screen.queryByRole('button', { name: /new comment/ })).toBeNull();
  });

  test('edits and reaction counts apply in place; a removal drops the comment or leaves a tombstone', async () => {
    const withReply = makeComment('c2', {
      replyCount: 1,
      replies: makeConnection([makeComment('r1', { parent: { id: 'c2' } })]),
    });
    const { live } = renderThread(
      makeStreamData([makeComment('c1'), withReply, makeComment('c3')]),
    );
    await ready(live);
    live.publish('commentUpdated', {
      ...makeComment('c1'),
      body: '<p>Edited text</p>',
      editedAt: new Date().toISOString(),
      reactionCount: 9,
    });
    expect(await within(articleBy('user_c1')).findByText('Edited text')).toBeTruthy();
    expect(within(articleBy('user_c1')).getByText('edited')).toBeTruthy();
    expect(within(articleBy('user_c1')).getByRole('button', { name: 'Like 9' })).toBeTruthy();
    live.publish('commentUpdated', {
      ...withReply,
      replies: undefined,
      status: 'REJECTED',
      body: '',
    });
    live.publish('commentUpdated', { ...makeComment('c3'), status: 'REJECTED', body: '' });
    expect(await screen.findByText('This comment was removed.')).toBeTruthy();
    expect(screen.queryByRole('article', { name: 'Comment by user_c2' })).toBeNull();
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'Comment by user_c3' })).toBeNull(),
    );
    expect(articleBy('user_r1')).toBeTruthy();
  });

  test('the reader’s own posted comment arriving live is not announced again', async () => {
    const { env, live } = renderThread(
      makeStreamData([makeComment('c1')], { viewer: TEST_VIEWER }),
    );
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
    live.publish('commentCreated', own);
    live.publish('commentCreated', makeComment('other'));
    expect(await screen.findByRole('button', { name: '1 new comment' })).toBeTruthy();
    expect(screen.getAllByRole('article', { name: 'Comment by me' })).toHaveLength(1);
  });

  test('does not subscribe when the story has live updates off', async () => {
    const data = makeStreamData([makeComment('c1')]);
    data.story.settings.liveUpdates = false;
    const { live } = renderThread(data);
    const subscribed = jest.fn();
    void live.subscribed('commentCreated').then(subscribed);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(subscribed).not.toHaveBeenCalled();
  });
});

test('says when the live connection is reconnecting, and when it is back', async () => {
  const env = createTestEnv({ transport: { WebSocket: createFakeSocketServer().WebSocket } });
  disposeLater(env);
  let report: (status: SocketStatus) => void = () => {};
  const transport: Transport = {
    ...env.transport,
    client: env.transport.client,
    status: 'connected',
    onStatusChange: (listener) => ((report = listener), () => {}),
  };
  const data = makeStreamData([makeComment('c1')]);
  renderInStream(
    <Thread sort="CREATED_AT_DESC" onSortChange={() => {}} />,
    { ...env, transport },
    data,
  );
  const line = document.querySelector('.parley-live');
  expect(line?.getAttribute('role')).toBe('status');
  expect(line?.textContent).toBe('');
  act(() => report('reconnecting'));
  expect(line?.textContent).toBe('Live updates paused, reconnecting…');
  act(() => report('offline'));
  expect(line?.textContent).toBe('You are offline. Your comments will be sent when you are back.');
  act(() => report('connected'));
  expect(line?.textContent).toBe('');
});

test('after a drop, the comments published meanwhile are fetched and shown as live ones', async () => {
  const live = createFakeSocketServer();
  const env = createTestEnv({ transport: { WebSocket: live.WebSocket } });
  disposeLater(env);
  let report: (status: SocketStatus) => void = () => {};
  const heard = Date.parse('2026-11-26T10:00:00.000Z');
  let lastHeard = heard;
  const transport: Transport = {
    ...env.transport,
    client: env.transport.client,
    status: 'connected',
    onStatusChange: (listener) => ((report = listener), () => {}),
    lastHeard: () => lastHeard,
  };
  const asked: unknown[] = [];
  server.use(
    graphql.query('CommentsSince', ({ variables }) => {
      asked.push(variables);
      return HttpResponse.json({
        data: {
          commentsSince: [
            makeComment('missed'),
            makeComment('missed-reply', { parent: { id: 'c1' } }),
            // Already here (posted before the drop and delivered): shown once.
            makeComment('c1'),
          ],
        },
      });
    }),
  );
  renderInStream(
    <Thread sort="CREATED_AT_DESC" onSortChange={() => {}} />,
    { ...env, transport },
    makeStreamData([makeComment('c1')]),
  );
  await live.subscribed('commentCreated');
  act(() => report('reconnecting'));
  act(() => report('connected'));
  // The link flaps before the catch-up is asked: it still starts from the first drop.
  lastHeard = heard + 30_000;
  act(() => report('reconnecting'));
  act(() => report('connected'));
  expect(
    await screen.findByRole('button', { name: '1 new comment' }, { timeout: 3_000 }),
  ).toBeTruthy();
  expect(screen.getByRole('article', { name: 'Comment by user_missed-reply' })).toBeTruthy();
  expect(screen.getAllByRole('article', { name: 'Comment by user_c1' })).toHaveLength(1);
  // From the last word heard, less the margin, by the server's clock.
  expect(asked).toEqual([
    { storyId: expect.any(String), since: new Date(heard - CATCH_UP_MARGIN_MS).toISOString() },
  ]);
});
