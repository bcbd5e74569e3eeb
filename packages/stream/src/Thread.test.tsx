import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { App } from './App';
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

test('shows each comment as an article with its author, relative and exact time, and body', () => {
  const edited = new Date(Date.now() - 60_000).toISOString();
  renderThread(
    makeStreamData([
      makeComment('c1', { body: '<p>Hello <em>world</em></p>', editedAt: edited }),
      makeComment('c2', {
        author: {
          id: 'u2',
          username: 'bea',
          avatarUrl: 'http://img.test/b.png',
          badges: [],
          isGuest: false,
        },
      }),
    ]),
  );
  const first = articleBy('user_c1');
  expect(within(first).getByText('user_c1')).toBeTruthy();
  expect(within(first).getByText('world').tagName).toBe('EM');
  const time = first.querySelector('time');
  expect(time?.textContent).toMatch(/3 min/);
  expect(time?.getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(time?.getAttribute('title')).toMatch(/\d{4}/);
  expect(within(first).getByText('edited')).toBeTruthy();
  expect(within(first).getByText('U').getAttribute('aria-hidden')).toBe('true');
  expect(articleBy('bea').querySelector('img')?.getAttribute('src')).toBe('http://img.test/b.png');
  expect(within(articleBy('bea')).queryByText('edited')).toBeNull();
});

test('shows a server tombstone (an erased account’s comment, with replies) as removed, keeping its replies', () => {
  const reply = makeComment('r1', { body: '<p>The answer</p>' });
  renderThread(
    makeStreamData([
      makeComment('gone', {
        // Erased with its author's account: the status stays, `removed` says it is gone.
        removed: true,
        status: 'NONE',
        body: '',
        author: null,
        replyCount: 1,
        replies: makeConnection([reply]),
      }),
    ]),
  );
  expect(screen.getByText('This comment was removed.')).toBeTruthy();
  expect(screen.getByText('The answer')).toBeTruthy();
  expect(screen.queryByRole('article', { name: /Comment by null/ })).toBeNull();
});

test('marks staff comments and shows the badges a host gave the author', () => {
  renderThread(
    makeStreamData([
      makeComment('c1', {
        tags: ['STAFF'],
        author: {
          id: 'u1',
          username: 'editor',
          avatarUrl: null,
          badges: ['Subscriber'],
          isGuest: false,
        },
      }),
    ]),
  );
  const article = articleBy('editor');
  expect(within(article).getByText('Staff')).toBeTruthy();
  expect(within(article).getByText('Subscriber')).toBeTruthy();
});

test('invites the first comment when the thread is empty', () => {
  renderThread(makeStreamData([]));
  expect(screen.getByText('No comments yet. Start the conversation!')).toBeTruthy();
});

test('nests replies three levels deep and continues deeper ones on request', async () => {
  const deep = makeComment('c3', { parent: { id: 'c2' }, replyCount: 1 });
  const reply = makeComment('c2', {
    parent: { id: 'c1' },
    replyCount: 1,
    replies: makeConnection([deep]),
  });
  const top = makeComment('c1', { replyCount: 1, replies: makeConnection([reply]) });
  let asked: Record<string, unknown> = {};
  server.use(
    graphql.query('Replies', ({ variables }) => {
      asked = variables;
      const fourth = makeComment('c4', { parent: { id: 'c3' } });
      return HttpResponse.json({
        data: { comment: { id: 'c3', replies: makeConnection([fourth]) } },
      });
    }),
  );
  renderThread(makeStreamData([top]));
  expect(within(articleBy('user_c1')).queryByRole('article')).toBeNull();
  // Nesting is in the DOM: the level-3 article sits inside the replies of both ancestors.
  const levels = document.querySelectorAll('.parley-replies .parley-replies article');
  expect([...levels].map((a) => a.getAttribute('aria-label'))).toEqual(['Comment by user_c3']);
  expect(screen.queryByRole('article', { name: 'Comment by user_c4' })).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Continue this thread' }));
  expect(await screen.findByRole('article', { name: 'Comment by user_c4' })).toBeTruthy();
  expect(asked).toMatchObject({ id: 'c3', after: null });
  expect(screen.queryByRole('button', { name: 'Continue this thread' })).toBeNull();
});

test('"Show more replies" asks for the page after the last reply shown and appends it', async () => {
  const replies = ['r1', 'r2', 'r3'].map((id) => makeComment(id, { parent: { id: 'c1' } }));
  const top = makeComment('c1', { replyCount: 5, replies: makeConnection(replies, true) });
  let asked: Record<string, unknown> = {};
  server.use(
    graphql.query('Replies', ({ variables }) => {
      asked = variables;
      const more = ['r4', 'r5'].map((id) => makeComment(id, { parent: { id: 'c1' } }));
      return HttpResponse.json({ data: { comment: { id: 'c1', replies: makeConnection(more) } } });
    }),
  );
  renderThread(makeStreamData([top]));
  fireEvent.click(screen.getByRole('button', { name: 'Show more replies (2)' }));
  expect(await screen.findByRole('article', { name: 'Comment by user_r5' })).toBeTruthy();
  expect(asked).toMatchObject({ id: 'c1', after: 'cursor-r3' });
  expect(screen.queryByRole('button', { name: /Show more replies/ })).toBeNull();
});

test('"Load more" sends the cursor and appends the next page after the first', async () => {
  const page = Array.from({ length: 20 }, (_, i) => makeComment(`c${i + 1}`));
  let asked: Record<string, unknown> = {};
  server.use(
    graphql.query('MoreComments', ({ variables }) => {
      asked = variables;
      return HttpResponse.json({
        data: { story: { id: 's1', page: makeConnection([makeComment('c21')]) } },
      });
    }),
  );
  renderThread(makeStreamData(page, { hasNextPage: true }));
  fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
  expect(await screen.findByRole('article', { name: 'Comment by user_c21' })).toBeTruthy();
  expect(asked).toMatchObject({
    id: 's1',
    after: 'cursor-c20',
    first: 20,
    sort: 'CREATED_AT_DESC',
  });
  const names = screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'));
  expect(names.at(0)).toBe('Comment by user_c1');
  expect(names.at(-1)).toBe('Comment by user_c21');
  expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
});

test('a failed "Load more" says why, by code, and keeps the button', async () => {
  server.use(
    graphql.query('MoreComments', () =>
      HttpResponse.json({ errors: [{ message: 'x', extensions: { code: 'FORBIDDEN' } }] }),
    ),
  );
  renderThread(makeStreamData([makeComment('c1')], { hasNextPage: true }));
  fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
  expect((await screen.findByRole('alert')).textContent).toBe('You are not allowed to do that.');
  expect(screen.getByRole('button', { name: 'Load more' })).toBeTruthy();
});

test('the labelled sort menu asks the root for the chosen order', () => {
  const { onSortChange } = renderThread(makeStreamData([makeComment('c1')]));
  const select = screen.getByRole('combobox', { name: 'Sort by' }) as HTMLSelectElement;
  expect([...select.options].map((o) => o.textContent)).toEqual([
    'Newest',
    'Oldest',
    'Most replies',
    'Most reactions',
  ]);
  select.value = 'REACTIONS_DESC';
  fireEvent.change(select);
  expect(onSortChange).toHaveBeenCalledWith('REACTIONS_DESC');
});

test('with up and down votes the menu offers Best instead of Most reactions', () => {
  const { onSortChange } = renderThread(
    makeStreamData([makeComment('c1')], { settings: { voting: 'UP_DOWN' } }),
  );
  const select = screen.getByRole('combobox', { name: 'Sort by' }) as HTMLSelectElement;
  expect([...select.options].map((o) => o.textContent)).toEqual([
    'Newest',
    'Oldest',
    'Most replies',
    'Best',
  ]);
  select.value = 'BEST';
  fireEvent.change(select);
  expect(onSortChange).toHaveBeenCalledWith('BEST');
});

test('the menu names the order the site asked for, even one its voting does not offer', () => {
  const live = createFakeSocketServer();
  const env = disposeLater(createTestEnv({ transport: { WebSocket: live.WebSocket } }));
  renderInStream(<Thread sort="BEST" onSortChange={jest.fn()} />, env, makeStreamData([]));
  const select = screen.getByRole('combobox', { name: 'Sort by' }) as HTMLSelectElement;
  expect(select.value).toBe('BEST');
  expect([...select.options].map((o) => o.value)).toEqual([
    'CREATED_AT_DESC',
    'CREATED_AT_ASC',
    'REPLIES_DESC',
    'REACTIONS_DESC',
    'BEST',
  ]);
});

test('the Featured tab loads the story’s featured comments', async () => {
  server.use(
    graphql.query('FeaturedComments', () =>
      HttpResponse.json({
        data: {
          story: { id: 's1', page: makeConnection([makeComment('f1')]) },
        },
      }),
    ),
  );
  renderThread(makeStreamData([makeComment('c1')]), { featured: true });
  expect(await screen.findByRole('article', { name: 'Comment by user_f1' })).toBeTruthy();
  expect(screen.queryByRole('article', { name: 'Comment by user_c1' })).toBeNull();
  expect(screen.queryByRole('combobox', { name: 'Sort by' })).toBeNull();
});

describe('the reader’s own comments', () => {
  const entry = (
    key: string,
    state: 'posting' | 'queued' | 'held',
    parentId: string | null = null,
  ) => ({
    key,
    storyId: 's1',
    parentId,
    text: `Text ${key}`,
    createdAt: new Date().toISOString(),
    state,
  });

  test('show their state at the top, or under their parent', async () => {
    const { env } = renderThread(makeStreamData([makeComment('c1')], { viewer: TEST_VIEWER }));
    env.thread.upsert(entry('a', 'posting'));
    env.thread.upsert(entry('b', 'queued'));
    env.thread.upsert(entry('c', 'held', 'c1'));
    env.thread.upsert({ ...entry('d', 'posting'), storyId: 'another-story' });
    expect(await screen.findByText('Text a')).toBeTruthy();
    const articles = screen.getAllByRole('article');
    expect(articles.map((a) => a.textContent)).toEqual([
      'Text aPosting…',
      'Text bWill be sent when you are back online',
      expect.stringContaining('Body of c1'),
      'Text cYour comment will appear after review',
    ]);
    expect(articles[3]!.closest('.parley-replies')).toBeTruthy();
    expect(screen.queryByText('Text d')).toBeNull();
  });

  test('a posted one shows the server’s copy once, even when the thread has it too', async () => {
    const { env } = renderThread(makeStreamData([makeComment('c1')], { viewer: TEST_VIEWER }));
    const own = makeComment('p1', { author: TEST_VIEWER, body: '<p>Server copy</p>' });
    env.thread.upsert({ ...entry('p', 'posting'), state: 'posted', comment: own });
    expect(await screen.findByText('Server copy')).toBeTruthy();
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual([
      'Comment by me',
      'Comment by user_c1',
    ]);
  });
});

describe('permalinks', () => {
  beforeEach(() => {
    Element.prototype.scrollIntoView = jest.fn();
  });

  test('mark and scroll to the linked comment; the host can move the mark', async () => {
    const { env } = renderThread(makeStreamData([makeComment('c1'), makeComment('c2')]), {
      commentID: 'c2',
    });
    const linked = articleBy('user_c2');
    expect(linked.getAttribute('aria-current')).toBe('true');
    expect(linked.classList.contains('parley-current')).toBe(true);
    expect(Element.prototype.scrollIntoView).toHaveBeenCalled();
    expect(articleBy('user_c1').getAttribute('aria-current')).toBeNull();
    env.bridge.emit('showComment', { commentId: 'c1' });
    await waitFor(() => expect(articleBy('user_c1').getAttribute('aria-current')).toBe('true'));
    expect(articleBy('user_c2').getAttribute('aria-current')).toBeNull();
  });

  test('load a comment outside the first page, with its parent, above the list', async () => {
    let asked: Record<string, unknown> = {};
    server.use(
      graphql.query('PermalinkComment', ({ variables }) => {
        asked = variables;
        const parent = makeComment('old');
        return HttpResponse.json({
          data: {
            comment: {
              ...makeComment('far', { parent: { id: 'old' } }),
              parent,
              story: { id: 's1' },
            },
          },
        });
      }),
    );
    renderThread(makeStreamData([makeComment('c1')]), { commentID: 'far' });
    const linked = await screen.findByRole('article', { name: 'Comment by user_far' });
    expect(asked).toEqual({ id: 'far' });
    expect(linked.getAttribute('aria-current')).toBe('true');
    const names = screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'));
    expect(names).toEqual(['Comment by user_old', 'Comment by user_far', 'Comment by user_c1']);
    await waitFor(() => expect(Element.prototype.scrollIntoView).toHaveBeenCalled());
  });

  test('shows nothing for a comment of another story (a reply to it would land there)', async () => {
    let asked = false;
    server.use(
      graphql.query('PermalinkComment', () => {
        asked = true;
        return HttpResponse.json({
          data: { comment: { ...makeComment('elsewhere'), parent: null, story: { id: 'other' } } },
        });
      }),
    );
    renderThread(makeStreamData([makeComment('c1')]), { commentID: 'elsewhere' });
    await waitFor(() => expect(asked).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual([
      'Comment by user_c1',
    ]);
  });
});

test('changing the sort re-runs the root query and shows the new order', async () => {
  const sorts: unknown[] = [];
  server.use(
    graphql.query('Stream', ({ variables }) => {
      sorts.push(variables.sort);
      const ids = variables.sort === 'CREATED_AT_ASC' ? ['old', 'new'] : ['new', 'old'];
      const data = makeStreamData(ids.map((id) => makeComment(id)));
      return HttpResponse.json({ data: { ...data, refetch: undefined } });
    }),
  );
  const env = createTestEnv({ transport: { WebSocket: createFakeSocketServer().WebSocket } });
  disposeLater(env);
  renderInStream(<App env={env} />, env);
  await screen.findByRole('article', { name: 'Comment by user_new' });
  const select = screen.getByRole('combobox', { name: 'Sort by' }) as HTMLSelectElement;
  select.value = 'CREATED_AT_ASC';
  fireEvent.change(select);
  await waitFor(() =>
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual([
      'Comment by user_old',
      'Comment by user_new',
    ]),
  );
  expect(sorts).toEqual(['CREATED_AT_DESC', 'CREATED_AT_ASC']);
});

test('links the story’s Atom feed, outside the frame', () => {
  const data = makeStreamData([makeComment('c1')]);
  renderThread(data);
  const link = screen.getByRole('link', { name: 'Follow these comments in a feed reader (Atom)' });
  expect(link.getAttribute('href')).toBe(
    `../feeds/story.atom?url=${encodeURIComponent(data.story.url)}`,
  );
  expect(link.getAttribute('target')).toBe('_blank');
});
