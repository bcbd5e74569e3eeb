import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { ERROR_TEXT } from '../../errorText';
import { createTestConsoleEnv, renderInConsole, TEST_MODERATOR } from '../../testing/renderConsole';
import { ModeratePage } from './ModeratePage';
import type { ModeratePageProps } from './ModeratePage';
import type { QueueComment } from './ModerationCard';
import { createFakeLive, makeQueueComment, queueConnection } from './testFixtures';

const live = createFakeLive();

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  live.subscribers.clear();
});
afterAll(() => server.close());

const COUNTS = { pending: 3, reported: 1, unmoderated: 7, approved: 12, rejected: 4 };

interface Sent {
  name: string;
  variables: Record<string, unknown>;
}

/** Standard answers; `queue` is what moderationQueue returns (read at each request). */
function serve(
  options: { premod?: string; queue?: () => QueueComment[]; decide?: () => Promise<Response> } = {},
) {
  const sent: Sent[] = [];
  const queueVariables: Record<string, unknown>[] = [];
  server.use(
    live.handler,
    graphql.query('ModerateSetup', () =>
      HttpResponse.json({
        data: {
          settings: {
            premod: options.premod ?? 'ALL',
            bannedWords: ['idiot'],
            suspectWords: ['dumb'],
          },
          sites: [{ id: 'site1', name: 'Example' }],
          stories: {
            edges: [
              {
                node: {
                  id: 's1',
                  title: 'A story',
                  url: 'https://site.example/a',
                  site: { id: 'site1' },
                },
              },
              {
                node: {
                  id: 's2',
                  title: 'B story',
                  url: 'https://site.example/b',
                  site: { id: 'site1' },
                },
              },
            ],
          },
        },
      }),
    ),
    graphql.query('ModerationCounts', () =>
      HttpResponse.json({ data: { moderationCounts: COUNTS } }),
    ),
    graphql.query('ModerationQueue', ({ variables }) => {
      queueVariables.push(variables);
      const items = options.queue?.() ?? [
        makeQueueComment(3),
        makeQueueComment(2),
        makeQueueComment(1),
      ];
      return HttpResponse.json({ data: queueConnection(items) });
    }),
    graphql.mutation(/.*/, async ({ operationName, variables }) => {
      sent.push({ name: operationName, variables });
      if (options.decide) return options.decide();
      return HttpResponse.json({
        data: {
          [operationName.replace('Decide_', '')]: {
            comment: { id: variables.commentId, status: 'APPROVED', tags: [] },
          },
        },
      });
    }),
  );
  return { sent, queueVariables };
}

async function renderPage(path: string, props: ModeratePageProps = {}, viewer = TEST_MODERATOR) {
  const env = await createTestConsoleEnv({ token: 'token' });
  const view = renderInConsole(<ModeratePage {...props} />, env, { path, viewer });
  return { env, ...view };
}

const card = (username: string) => screen.getByRole('article', { name: `Comment by ${username}` });
const press = (key: string) => fireEvent.keyDown(window, { key });

test('lists the five queues as links with their counts', async () => {
  serve();
  await renderPage('/moderate/pending');
  for (const [label, count] of [
    ['Pending', 3],
    ['Reported', 1],
    ['Unmoderated', 7],
    ['Approved', 12],
    ['Rejected', 4],
  ] as const) {
    expect(
      await screen.findByRole('link', {
        name: label,
        description: `${count} ${count === 1 ? 'comment' : 'comments'}`,
      }),
    ).toBeTruthy();
  }
  expect(screen.getByRole('link', { name: 'Pending' }).getAttribute('aria-current')).toBe('page');
});

test.each([
  ['ALL', '/moderate/pending?story=s2'],
  ['OFF', '/moderate/reported?story=s2'],
])(
  'with pre-moderation %s the default queue is %s, keeping the story filter',
  async (premod, to) => {
    const { queueVariables } = serve({ premod });
    const { location } = await renderPage('/moderate?story=s2');
    await waitFor(() => expect(location.history.at(-1)).toBe(to));
    expect(((await screen.findByLabelText('Story')) as HTMLSelectElement).value).toBe('s2');
    await waitFor(() => expect(queueVariables.at(-1)).toMatchObject({ storyId: 's2' }));
  },
);

test('?comment= shows only that comment, until "Show the whole queue" (other filters kept)', async () => {
  // c2 alone when asked for it (it is in the queue), else the whole queue.
  const { queueVariables } = serve({
    queue: () =>
      queueVariables.at(-1)?.commentId === 'c2'
        ? [makeQueueComment(2)]
        : [makeQueueComment(3), makeQueueComment(2), makeQueueComment(1)],
  });
  const { location } = await renderPage('/moderate/reported?site=site1&comment=c2&order=oldest');
  expect(await screen.findByRole('article', { name: 'Comment by user2' })).toBeTruthy();
  expect(screen.getAllByRole('article')).toHaveLength(1);
  expect(queueVariables.at(-1)).toMatchObject({
    queue: 'REPORTED',
    siteId: 'site1',
    commentId: 'c2',
    orderBy: 'CREATED_AT_ASC',
  });
  expect(screen.getByText(/^Showing one comment\./)).toBeTruthy();

  fireEvent.click(screen.getByRole('link', { name: 'Show the whole queue' }));
  expect(location.history.at(-1)).toBe('/moderate/reported?site=site1&order=oldest');
  await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3));
  expect(queueVariables.at(-1)).toMatchObject({ siteId: 'site1', commentId: null });
  expect(screen.queryByText(/Showing one comment/)).toBeNull();
});

test('?comment= of a comment not in the queue shows the empty queue', async () => {
  const { queueVariables } = serve({ queue: () => [] });
  await renderPage('/moderate/pending?comment=c9');
  expect(await screen.findByText('Nothing to review here.')).toBeTruthy();
  expect(screen.getByText(/^Showing one comment\./)).toBeTruthy();
  expect(queueVariables.at(-1)).toMatchObject({ queue: 'PENDING', commentId: 'c9' });
});

test('a card says why it is here: the banned word marked in the source, reports counted', async () => {
  serve({
    queue: () => [
      makeQueueComment(1, {
        bodySource: 'You idiot, this is dumb.',
        body: '<p>You idiot, this is dumb.</p>',
        heldBecause: ['BANNED_WORD', 'SUSPECT_WORD', 'REPORTS'],
        reports: [
          {
            id: 'r1',
            reason: 'SPAM',
            details: null,
            reporter: null,
            createdAt: '2026-11-20T10:00:00Z',
          },
          {
            id: 'r2',
            reason: 'SPAM',
            details: 'Selling pills',
            reporter: { id: 'u9', username: 'reader' },
            createdAt: '2026-11-20T10:00:00Z',
          },
          {
            id: 'r3',
            reason: 'ABUSIVE',
            details: null,
            reporter: null,
            createdAt: '2026-11-20T10:00:00Z',
          },
        ],
      }),
    ],
  });
  await renderPage('/moderate/pending');
  const why = within(await screen.findByRole('region', { name: 'Why it is here' }));
  expect(why.getByText('Banned word')).toBeTruthy();
  const marks = [...card('user1').querySelectorAll('mark')].map((m) => [
    m.className,
    m.textContent,
  ]);
  expect(marks).toEqual([
    ['banned', 'idiot'],
    ['suspect', 'dumb'],
  ]);
  expect(why.getByText('3 reports: Spam ×2, Abusive ×1')).toBeTruthy();
  expect(why.getByText(/Selling pills/)).toBeTruthy();
  for (const name of ['Approve', 'Reject', 'Feature']) {
    expect(within(card('user1')).getByRole('button', { name })).toBeTruthy();
  }
});

test('a card held as likely spam shows its score; Spam and `s` reject it as spam', async () => {
  const { sent } = serve({
    queue: () => [
      makeQueueComment(2, { heldBecause: ['SPAM'], spamScore: 0.934 }),
      makeQueueComment(1, { heldBecause: ['SPAM'], spamScore: 0.97 }),
    ],
  });
  await renderPage('/moderate/pending', { undoWindowMs: 20 });
  await screen.findByRole('article', { name: 'Comment by user2' });
  expect(within(card('user2')).getByText('Likely spam (score 0.93)')).toBeTruthy();
  fireEvent.click(within(card('user2')).getByRole('button', { name: 'Spam' }));
  expect(screen.getByText(/Rejected as spam user2’s comment/)).toBeTruthy();
  await waitFor(() =>
    expect(sent).toEqual([{ name: 'Decide_rejectSpam', variables: { commentId: 'c2' } }]),
  );
  press('s');
  await waitFor(() =>
    expect(sent).toEqual([
      { name: 'Decide_rejectSpam', variables: { commentId: 'c2' } },
      { name: 'Decide_rejectSpam', variables: { commentId: 'c1' } },
    ]),
  );
});

test('j and k move the selection and the focus', async () => {
  serve();
  await renderPage('/moderate/pending');
  await screen.findByRole('article', { name: 'Comment by user3' });
  expect(card('user3').getAttribute('aria-current')).toBe('true');
  press('j');
  expect(card('user2').getAttribute('aria-current')).toBe('true');
  expect(card('user3').getAttribute('aria-current')).toBeNull();
  expect(document.activeElement).toBe(card('user2'));
  press('j');
  press('k');
  expect(card('user2').getAttribute('aria-current')).toBe('true');
});

test('keys typed into a field are not shortcuts', async () => {
  serve();
  await renderPage('/moderate/pending');
  await screen.findByRole('article', { name: 'Comment by user3' });
  fireEvent.keyDown(screen.getByLabelText('Story'), { key: 'j' });
  expect(card('user3').getAttribute('aria-current')).toBe('true');
});

test('`a` approves at once; a failed mutation brings the card back with the coded error', async () => {
  let answer: (response: Response) => void = () => {};
  const { sent } = serve({
    decide: () => new Promise<Response>((resolve) => (answer = resolve)),
  });
  await renderPage('/moderate/pending', { undoWindowMs: 20 });
  await screen.findByRole('article', { name: 'Comment by user3' });
  press('a');
  // Gone before anything was sent, let alone answered.
  expect(screen.queryByRole('article', { name: 'Comment by user3' })).toBeNull();
  expect(sent).toEqual([]);
  expect(card('user2').getAttribute('aria-current')).toBe('true');
  await waitFor(() =>
    expect(sent).toEqual([{ name: 'Decide_approveComment', variables: { commentId: 'c3' } }]),
  );
  expect(screen.queryByRole('article', { name: 'Comment by user3' })).toBeNull();
  answer(
    HttpResponse.json({
      data: null,
      errors: [{ message: 'no', extensions: { code: 'FORBIDDEN' } }],
    }) as unknown as Response,
  );
  const back = await screen.findByRole('article', { name: 'Comment by user3' });
  expect(within(back).getByRole('alert').textContent).toBe(ERROR_TEXT.FORBIDDEN);
});

test('a decision still waiting when the moderator leaves is sent; a refusal becomes a console notice', async () => {
  const { sent } = serve({
    decide: async () =>
      HttpResponse.json({
        data: null,
        errors: [{ message: 'no', extensions: { code: 'FORBIDDEN' } }],
      }) as unknown as Response,
  });
  const { env, unmount } = await renderPage('/moderate/pending', { undoWindowMs: 60_000 });
  await screen.findByRole('article', { name: 'Comment by user3' });
  press('r');
  expect(sent).toEqual([]);
  unmount();
  await waitFor(() =>
    expect(sent).toEqual([{ name: 'Decide_rejectComment', variables: { commentId: 'c3' } }]),
  );
  await waitFor(() => expect(env.notices.list()).toHaveLength(1));
  expect(env.notices.list()[0]?.text).toBe(
    `Not saved: Rejected user3’s comment. ${ERROR_TEXT.FORBIDDEN} The comment is still in its queue.`,
  );
});

test('Undo within the window restores the card and sends nothing', async () => {
  const { sent } = serve();
  await renderPage('/moderate/pending', { undoWindowMs: 150 });
  await screen.findByRole('article', { name: 'Comment by user3' });
  fireEvent.click(within(card('user3')).getByRole('button', { name: 'Reject' }));
  expect(screen.queryByRole('article', { name: 'Comment by user3' })).toBeNull();
  expect(screen.getByText(/Rejected user3’s comment/)).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
  expect(card('user3')).toBeTruthy();
  await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
  expect(sent).toEqual([]);
});

test('a decision not undone is sent when the window closes', async () => {
  const { sent } = serve();
  await renderPage('/moderate/pending', { undoWindowMs: 20 });
  await screen.findByRole('article', { name: 'Comment by user3' });
  fireEvent.click(within(card('user2')).getByRole('button', { name: 'Feature' }));
  await waitFor(() =>
    expect(sent).toEqual([{ name: 'Decide_featureComment', variables: { commentId: 'c2' } }]),
  );
  await waitFor(() => expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull());
});

test('a live arrival waits behind "1 new"; the list does not move until it is pressed', async () => {
  let items = [makeQueueComment(2), makeQueueComment(1)];
  serve({ queue: () => items });
  await renderPage('/moderate/pending');
  await screen.findByRole('article', { name: 'Comment by user2' });
  await waitFor(() => expect(live.subscribers.size).toBe(1));
  items = [makeQueueComment(3), ...items];
  live.publish({
    moderationQueueUpdated: { comment: { id: 'c3', status: 'PREMOD' }, counts: COUNTS },
  });
  const button = await screen.findByRole('button', { name: '1 new' });
  expect(screen.queryByRole('article', { name: 'Comment by user3' })).toBeNull();
  fireEvent.click(button);
  expect(document.activeElement).toBe(card('user3'));
  const titles = screen.getAllByRole('article').map((a) => a.getAttribute('aria-labelledby'));
  expect(titles).toEqual(['card-c3-by', 'card-c2-by', 'card-c1-by']);
});

test('`z` shows only the selected card, and again all of them', async () => {
  serve();
  await renderPage('/moderate/pending');
  await screen.findByRole('article', { name: 'Comment by user3' });
  press('j');
  press('z');
  expect(screen.getAllByRole('article').map((a) => a.id)).toEqual(['card-c2']);
  press('z');
  expect(screen.getAllByRole('article')).toHaveLength(3);
});
