import { screen, waitFor } from '@testing-library/preact';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { App } from './App';
import { createTestEnv, renderInStream } from './testing/createTestEnv';
import { makeComment } from './testing/threadFixtures';
import type { StreamEnv } from './StreamContext';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const settings = {
  editWindowSeconds: 30,
  maxCommentLength: 2000,
  signUpOpen: true,
  liveUpdates: true,
  guidelinesHtml: '<p>Be <strong>kind</strong>.</p>',
  locale: 'en',
  premod: 'OFF',
  reactionLabel: '',
  featuredTab: true,
  voting: 'LIKE',
  commentImages: false,
  guestComments: false,
  customCssUrl: '',
};

const story = (overrides: Record<string, unknown> = {}) => ({
  id: 's1',
  url: 'http://host.test/article',
  title: 'Article',
  status: 'OPEN',
  commentCount: 3,
  settings: { effectivePremod: 'OFF', liveUpdates: true, premod: null },
  featuredComments: { edges: [], pageInfo: { hasNextPage: false, endCursor: null } },
  pinnedComment: null,
  comments: { edges: [], pageInfo: { hasNextPage: false, endCursor: null } },
  ...overrides,
});

test('asks for the story by the URL the loader passed and shows its count and guidelines', async () => {
  let variables: Record<string, unknown> = {};
  server.use(
    graphql.query('Stream', ({ variables: v }) => {
      variables = v;
      return HttpResponse.json({ data: { viewer: null, settings, story: story() } });
    }),
  );
  const env = createTestEnv();
  renderInStream(<App env={env} />, env);
  expect(await screen.findByText('3 comments')).toBeTruthy();
  expect(variables).toMatchObject({ url: 'http://host.test/article', first: 20 });
  expect(screen.getByText('kind').tagName).toBe('STRONG');
});

test.each([
  [true, ['Comments', 'Featured']],
  [false, ['Comments']],
])(
  'with the Featured tab switched %s, a story with featured comments shows tabs %j',
  async (featuredTab, tabs) => {
    const featured = {
      edges: [{ node: { id: 'c1' } }],
      pageInfo: { hasNextPage: false, endCursor: null },
    };
    server.use(
      graphql.query('Stream', () =>
        HttpResponse.json({
          data: {
            viewer: null,
            settings: { ...settings, featuredTab },
            story: story({ featuredComments: featured }),
          },
        }),
      ),
    );
    const env = createTestEnv();
    renderInStream(<App env={env} />, env);
    expect(await screen.findByText('3 comments')).toBeTruthy();
    expect(screen.queryAllByRole('tab').map((tab) => tab.textContent)).toEqual(
      tabs.length > 1 ? tabs : [],
    );
  },
);

test("loads the organization's stylesheet after the stream's own", async () => {
  const customCssUrl = 'https://cdn.example/parley.css';
  server.use(
    graphql.query('Stream', () =>
      HttpResponse.json({
        data: { viewer: null, settings: { ...settings, customCssUrl }, story: story() },
      }),
    ),
  );
  const env = createTestEnv();
  const own = env.window.document.createElement('link');
  own.rel = 'stylesheet';
  own.href = 'http://parley.test/embed/assets/stream.css';
  env.window.document.head.append(own);
  renderInStream(<App env={env} />, env);
  expect(await screen.findByText('3 comments')).toBeTruthy();
  const sheets = () =>
    [...env.window.document.head.querySelectorAll('link[rel="stylesheet"]')].map((link) =>
      link.getAttribute('href'),
    );
  await waitFor(() => expect(sheets()).toEqual([own.href, customCssUrl]));
  own.remove();
});

test('explains a page that is not a permitted origin, for the site owner', async () => {
  server.use(
    graphql.query('Stream', () =>
      HttpResponse.json({
        errors: [{ message: 'no', extensions: { code: 'ORIGIN_NOT_PERMITTED' } }],
        data: null,
      }),
    ),
  );
  const env = createTestEnv();
  renderInStream(<App env={env} />, env);
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('This page (http://host.test) is not a permitted origin');
});

test('says when comments are closed and offers no comment box', async () => {
  server.use(
    graphql.query('Stream', () =>
      HttpResponse.json({ data: { viewer: null, settings, story: story({ status: 'CLOSED' }) } }),
    ),
  );
  const env = createTestEnv();
  renderInStream(<App env={env} />, env);
  expect(await screen.findByText('Comments on this story are closed.')).toBeTruthy();
});

test('a mutation does not reload the whole thread (the thread applies changes itself)', async () => {
  let loads = 0;
  server.use(
    graphql.query('Stream', () => {
      loads += 1;
      // With typenames, as the server answers: the kept result would hold a Comment.
      const comment = { __typename: 'Comment', ...makeComment('c1') };
      const comments = {
        edges: [{ cursor: 'c1', node: comment }],
        pageInfo: { hasNextPage: false, endCursor: 'c1' },
      };
      return HttpResponse.json({ data: { viewer: null, settings, story: story({ comments }) } });
    }),
    graphql.mutation('CreateReaction', () =>
      HttpResponse.json({
        data: {
          createReaction: { comment: { __typename: 'Comment', id: 'c1', reactionCount: 1 } },
        },
      }),
    ),
  );
  const env = createTestEnv();
  renderInStream(<App env={env} />, env);
  await screen.findByText('3 comments');
  await env.transport.client
    .mutation(
      'mutation CreateReaction { createReaction(input: { commentId: "c1" }) { comment { id reactionCount } } }',
      {},
    )
    .toPromise();
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(loads).toBe(1);
});

describe('a page the server rendered (env.initial)', () => {
  const rendered = () => ({
    viewer: null,
    settings,
    story: story({
      comments: {
        edges: [{ cursor: 'c1', node: makeComment('c1', { body: '<p>From the server</p>' }) }],
        pageInfo: { hasNextPage: false, endCursor: 'c1' },
      },
    }),
  });

  test('starts from the answer on the page: no request for the thread', async () => {
    // msw fails the test on any request nobody answers: the thread must come from env.initial.
    const env = { ...createTestEnv(), initial: rendered() as StreamEnv['initial'] };
    renderInStream(<App env={env} />, env);
    expect(screen.getByText('From the server')).toBeTruthy();
    await env.session.ready;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText('3 comments')).toBeTruthy();
  });

  test('asks again as the reader when a session is stored (the server rendered the anonymous view)', async () => {
    let asked = 0;
    server.use(
      graphql.query('Stream', () => {
        asked += 1;
        return HttpResponse.json({
          data: { viewer: null, settings, story: story({ commentCount: 4 }) },
        });
      }),
    );
    const base = createTestEnv();
    await base.transport.storage.set('session.token', 'stored-token');
    const env = { ...createTestEnv(), initial: rendered() as StreamEnv['initial'] };
    renderInStream(<App env={env} />, env);
    expect(screen.getByText('3 comments')).toBeTruthy();
    expect(await screen.findByText('4 comments')).toBeTruthy();
    expect(asked).toBe(1);
    await base.transport.storage.remove('session.token');
  });

  test('shows the permalinked comment the server put above the thread, without asking for it', async () => {
    // No PermalinkComment handler: msw fails the test if the frame asks.
    const scrolled = jest.fn();
    Element.prototype.scrollIntoView = scrolled;
    const far = {
      ...makeComment('far', { parent: { id: 'old' } }),
      parent: makeComment('old'),
      story: { id: 's1' },
    };
    const env = {
      ...createTestEnv({ params: { commentID: 'far' } }),
      initial: { ...rendered(), permalink: far } as StreamEnv['initial'],
    };
    renderInStream(<App env={env} />, env);
    const names = screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'));
    expect(names).toEqual(['Comment by user_old', 'Comment by user_far', 'Comment by user_c1']);
    expect(
      screen.getByRole('article', { name: 'Comment by user_far' }).getAttribute('aria-current'),
    ).toBe('true');
    expect(scrolled).toHaveBeenCalled();
    await env.session.ready;
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
});

test('the loader’s sort is the thread’s first order, and the menu shows it', async () => {
  const sorts: unknown[] = [];
  server.use(
    graphql.query('Stream', ({ variables }) => {
      sorts.push(variables.sort);
      // No live updates: this test is about the first query.
      return HttpResponse.json({
        data: { viewer: null, settings: { ...settings, liveUpdates: false }, story: story() },
      });
    }),
  );
  const env = createTestEnv({ params: { sort: 'REACTIONS_DESC' } });
  renderInStream(<App env={env} />, env);
  const select = (await screen.findByRole('combobox', { name: 'Sort by' })) as HTMLSelectElement;
  expect(select.value).toBe('REACTIONS_DESC');
  expect(sorts).toEqual(['REACTIONS_DESC']);
});
