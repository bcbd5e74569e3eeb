import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { openAuthPopup } from './auth/openAuthPopup';
import { articleBy, disposeThreadEnvs, renderThread } from './testing/renderThread';
import { makeComment, makeConnection, makeStreamData, TEST_VIEWER } from './testing/threadFixtures';

jest.mock('./auth/openAuthPopup', () => ({ openAuthPopup: jest.fn() }));

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterEach(disposeThreadEnvs);
afterAll(() => server.close());

describe('reactions', () => {
  test("show the organization's reaction label, when set, in both states", async () => {
    server.use(
      graphql.mutation('Vote', () =>
        HttpResponse.json({
          data: {
            vote: { comment: { id: 'c1', reactionCount: 4, downvoteCount: 0, viewerVote: 'UP' } },
          },
        }),
      ),
    );
    renderThread(
      makeStreamData([makeComment('c1', { reactionCount: 3 })], {
        viewer: TEST_VIEWER,
        settings: { reactionLabel: 'Respect' },
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Respect 3' }));
    const pressed = await screen.findByRole('button', { name: 'Respect 4' });
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
  });

  test('count and state change at once, then settle on the server’s answer', async () => {
    let release: () => void = () => {};
    let asked: Record<string, unknown> = {};
    server.use(
      graphql.mutation('Vote', async ({ variables }) => {
        asked = variables;
        await new Promise<void>((resolve) => (release = resolve));
        return HttpResponse.json({
          data: {
            vote: { comment: { id: 'c1', reactionCount: 7, downvoteCount: 0, viewerVote: 'UP' } },
          },
        });
      }),
    );
    renderThread(
      makeStreamData([makeComment('c1', { reactionCount: 3 })], { viewer: TEST_VIEWER }),
    );
    const like = screen.getByRole('button', { name: 'Like 3' });
    expect(like.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(like);
    const liked = screen.getByRole('button', { name: 'Liked 4' });
    expect(liked.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(asked).toEqual({ input: { commentId: 'c1', vote: 'UP' } }));
    release();
    expect(await screen.findByRole('button', { name: 'Liked 7' })).toBeTruthy();
  });

  test('a refused reaction goes back and says why next to the button', async () => {
    server.use(
      graphql.mutation('Vote', () =>
        HttpResponse.json({
          errors: [
            { message: 'slow down', extensions: { code: 'RATE_LIMITED', retryAfterSeconds: 5 } },
          ],
        }),
      ),
    );
    renderThread(
      makeStreamData([makeComment('c1', { reactionCount: 3 })], { viewer: TEST_VIEWER }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Like 3' }));
    expect(screen.getByRole('button', { name: 'Liked 4' })).toBeTruthy();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('You are going a little fast. Try again in 5 seconds.');
    expect(alert.closest('.parley-react')?.querySelector('button')?.textContent).toBe('Like 3');
  });

  test('with up and down votes: a score between two buttons, a vote flips and is taken back', async () => {
    const asked: unknown[] = [];
    server.use(
      graphql.mutation('Vote', ({ variables }) => {
        asked.push(variables.input.vote);
        const vote = variables.input.vote as 'UP' | 'DOWN' | null;
        return HttpResponse.json({
          data: {
            vote: {
              comment: {
                id: 'c1',
                reactionCount: 5 + +(vote === 'UP'),
                downvoteCount: 2 + +(vote === 'DOWN'),
                viewerVote: vote,
              },
            },
          },
        });
      }),
    );
    renderThread(
      makeStreamData([makeComment('c1', { reactionCount: 5, downvoteCount: 2 })], {
        viewer: TEST_VIEWER,
        settings: { voting: 'UP_DOWN' },
      }),
    );
    const react = () => articleBy('user_c1').querySelector('.parley-react')!;
    const up = screen.getByRole('button', { name: 'Vote up' });
    const down = screen.getByRole('button', { name: 'Vote down' });
    expect(react().textContent).toBe('▲3▼');
    expect(screen.queryByRole('button', { name: /Like/ })).toBeNull();
    fireEvent.click(down);
    expect(react().textContent).toBe('▲2▼');
    await waitFor(() => expect(down.getAttribute('aria-pressed')).toBe('true'));
    await waitFor(() => expect(asked).toEqual(['DOWN']));
    // Up from down: one click moves the score by two.
    fireEvent.click(up);
    expect(react().textContent).toBe('▲4▼');
    await waitFor(() => expect(asked).toEqual(['DOWN', 'UP']));
    await waitFor(() => expect(up.getAttribute('aria-pressed')).toBe('true'));
    // Up again takes it back.
    fireEvent.click(up);
    await waitFor(() => expect(asked).toEqual(['DOWN', 'UP', null]));
    await waitFor(() => expect(react().textContent).toBe('▲3▼'));
    expect(up.getAttribute('aria-pressed')).toBe('false');
  });

  test('a signed-out reader is asked to sign in instead', () => {
    const { env } = renderThread(makeStreamData([makeComment('c1')]));
    fireEvent.click(screen.getByRole('button', { name: 'Like 0' }));
    expect(openAuthPopup).toHaveBeenCalledWith(env, 'signin');
    expect(screen.getByRole('button', { name: 'Like 0' })).toBeTruthy();
  });
});

describe('report', () => {
  test('sends the chosen reason and details and thanks the reader', async () => {
    let asked: Record<string, unknown> = {};
    server.use(
      graphql.mutation('ReportComment', ({ variables }) => {
        asked = variables;
        return HttpResponse.json({ data: { reportComment: { comment: { id: 'c1' } } } });
      }),
    );
    renderThread(makeStreamData([makeComment('c1')], { viewer: TEST_VIEWER }));
    fireEvent.click(within(articleBy('user_c1')).getByRole('button', { name: 'Report' }));
    const form = await screen.findByRole('form', { name: 'Report this comment' });
    const send = within(form).getByRole('button', { name: 'Send report' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(form).getByRole('radio', { name: 'Spam' }));
    const details = within(form).getByRole('textbox', { name: 'Details (optional)' });
    expect(details.getAttribute('maxlength')).toBe('500');
    fireEvent.input(details, { target: { value: ' Sells pills ' } });
    fireEvent.click(send);
    expect(
      await screen.findByText('Thank you. A moderator will look at this comment.'),
    ).toBeTruthy();
    expect(asked).toEqual({ input: { commentId: 'c1', reason: 'SPAM', details: 'Sells pills' } });
  });

  test('needs a signed-in reader', () => {
    const { env } = renderThread(makeStreamData([makeComment('c1')]));
    fireEvent.click(screen.getByRole('button', { name: 'Report' }));
    expect(openAuthPopup).toHaveBeenCalledWith(env, 'signin');
  });
});

test('Edit shows only on the viewer’s own comment while its edit window is open', () => {
  const later = new Date(Date.now() + 60_000).toISOString();
  const earlier = new Date(Date.now() - 1_000).toISOString();
  const mine = TEST_VIEWER;
  renderThread(
    makeStreamData(
      [
        makeComment('c1', { author: mine, editableUntil: later }),
        makeComment('c2', { author: { ...mine, username: 'me-again' }, editableUntil: earlier }),
        makeComment('c3', { editableUntil: later }),
      ],
      { viewer: mine },
    ),
  );
  expect(within(articleBy('me')).getByRole('button', { name: 'Edit' })).toBeTruthy();
  expect(within(articleBy('me')).queryByRole('button', { name: 'Report' })).toBeNull();
  expect(within(articleBy('me-again')).queryByRole('button', { name: 'Edit' })).toBeNull();
  expect(within(articleBy('user_c3')).queryByRole('button', { name: 'Edit' })).toBeNull();
});

test('Share asks the host to link the comment and says the link was copied', async () => {
  const writeText = jest.fn(() => Promise.resolve());
  Object.defineProperty(window.navigator, 'clipboard', {
    value: { writeText },
    configurable: true,
  });
  const { env } = renderThread(makeStreamData([makeComment('c1')]));
  fireEvent.click(screen.getByRole('button', { name: 'Share' }));
  expect(env.bridge.sent).toContainEqual({ type: 'permalink', payload: { commentId: 'c1' } });
  expect(await screen.findByText('Link copied')).toBeTruthy();
  expect(writeText).toHaveBeenCalledWith('http://host.test/article?commentID=c1');
});

test('Ignore user hides every comment of that user in this view', async () => {
  let asked: Record<string, unknown> = {};
  server.use(
    graphql.mutation('IgnoreUser', ({ variables }) => {
      asked = variables;
      return HttpResponse.json({ data: { ignoreUser: { user: { id: 'troll' } } } });
    }),
  );
  const troll = { id: 'troll', username: 'troll', avatarUrl: null, badges: [], isGuest: false };
  renderThread(
    makeStreamData(
      [
        makeComment('c1', { author: troll }),
        makeComment('c2'),
        makeComment('c3', { author: troll }),
      ],
      { viewer: TEST_VIEWER },
    ),
  );
  expect(screen.getAllByRole('article', { name: 'Comment by troll' })).toHaveLength(2);
  fireEvent.click(
    within(screen.getAllByRole('article')[0]!).getByRole('button', { name: 'Ignore user' }),
  );
  await waitFor(() =>
    expect(screen.queryByRole('article', { name: 'Comment by troll' })).toBeNull(),
  );
  expect(asked).toEqual({ input: { userId: 'troll' } });
  expect(articleBy('user_c2')).toBeTruthy();
});

test('moderators get each comment’s moderation menu; readers do not', async () => {
  const moderator = { ...TEST_VIEWER, role: 'MODERATOR' as const };
  renderThread(makeStreamData([makeComment('c1'), makeComment('c2')], { viewer: moderator }));
  const menus = await screen.findAllByRole('button', { name: 'Moderate' });
  expect(menus).toHaveLength(2);
  expect(articleBy('user_c1').contains(menus[0]!)).toBe(true);
});

test('readers get no moderation menu', async () => {
  renderThread(makeStreamData([makeComment('c1')], { viewer: TEST_VIEWER }));
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(screen.queryByRole('button', { name: 'Moderate' })).toBeNull();
});

describe('deleting one’s own comment', () => {
  const mine = (id: string, overrides = {}) =>
    makeComment(id, { author: TEST_VIEWER, ...overrides });
  const deletedCopy = (id: string, replyCount: number) => ({
    ...makeComment(id, { author: null, body: '', removed: true, replyCount }),
  });

  /** The question's own Delete button, under `article`. */
  const confirmIn = async (article: HTMLElement) =>
    within(await within(article).findByRole('group')).getByRole('button', { name: 'Delete' });

  test('Delete shows only on the viewer’s own comment, and asks first', async () => {
    renderThread(makeStreamData([mine('c1'), makeComment('c2')], { viewer: TEST_VIEWER }));
    expect(within(articleBy('user_c2')).queryByRole('button', { name: 'Delete' })).toBeNull();
    fireEvent.click(within(articleBy('me')).getByRole('button', { name: 'Delete' }));
    const keep = await screen.findByRole('button', { name: 'Keep it' });
    expect(screen.getByText('Delete your comment?')).toBeTruthy();
    // The safe choice has the focus; keeping it closes the question and changes nothing.
    await waitFor(() => expect(keep.ownerDocument.activeElement).toBe(keep));
    fireEvent.click(keep);
    await waitFor(() => expect(screen.queryByText('Delete your comment?')).toBeNull());
    const deleteButton = within(articleBy('me')).getByRole('button', { name: 'Delete' });
    expect(deleteButton.ownerDocument.activeElement).toBe(deleteButton);
    // Escape keeps it too.
    fireEvent.click(deleteButton);
    fireEvent.keyDown(await screen.findByRole('button', { name: 'Keep it' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByText('Delete your comment?')).toBeNull());
    expect(within(articleBy('me')).getByText('Body of c1')).toBeTruthy();
  });

  test('a deleted comment leaves the thread, or leaves a tombstone above its replies', async () => {
    const asked: unknown[] = [];
    server.use(
      graphql.mutation('DeleteComment', ({ variables }) => {
        const { commentId } = (variables as { input: { commentId: string } }).input;
        asked.push(commentId);
        return HttpResponse.json({
          data: { deleteComment: { comment: deletedCopy(commentId, commentId === 'c2' ? 1 : 0) } },
        });
      }),
    );
    const reply = makeComment('r1', { body: '<p>The answer</p>' });
    const { env } = renderThread(
      makeStreamData(
        [
          mine('c1', { body: '<p>Lonely</p>' }),
          {
            ...mine('c2', { body: '<p>Answered</p>' }),
            replyCount: 1,
            replies: makeConnection([reply]),
          },
        ],
        { viewer: TEST_VIEWER },
      ),
    );
    const [lonely, answered] = screen.getAllByRole('article', { name: 'Comment by me' });
    for (const article of [lonely!, answered!]) {
      fireEvent.click(within(article).getByRole('button', { name: 'Delete' }));
      fireEvent.click(await confirmIn(article));
    }
    await waitFor(() => expect(screen.queryByText('Lonely')).toBeNull());
    await waitFor(() => expect(screen.queryByText('Answered')).toBeNull());
    expect(screen.getByText('This comment was removed.')).toBeTruthy();
    expect(screen.getByText('The answer')).toBeTruthy();
    expect(asked).toEqual(['c1', 'c2']);
    expect(env.bridge.sent).toContainEqual({
      type: 'event',
      payload: { name: 'commentDeleted', data: { commentId: 'c1' } },
    });
  });

  test('a refused delete says why by its code and keeps the comment', async () => {
    server.use(
      graphql.mutation('DeleteComment', () =>
        HttpResponse.json({
          data: null,
          errors: [
            {
              message: 'Too many deleted comments.',
              extensions: { code: 'RATE_LIMITED', retryAfterSeconds: 30 },
            },
          ],
        }),
      ),
    );
    renderThread(makeStreamData([mine('c1')], { viewer: TEST_VIEWER }));
    fireEvent.click(within(articleBy('me')).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Delete your comment?');
    fireEvent.click(await confirmIn(articleBy('me')));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/30/);
    expect(within(articleBy('me')).getByText('Body of c1')).toBeTruthy();
    expect(screen.getByText('Delete your comment?')).toBeTruthy();
  });
});
