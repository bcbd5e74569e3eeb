import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { EditForm, secondsUntil } from './EditForm';
import type { StreamData } from './StreamContext';
import { createTestEnv, renderInStream } from './testing/createTestEnv';
import type { CommentData } from './CommentView';
import type { StoryData, StreamSettings } from './StreamContext';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const data: StreamData = {
  viewer: null,
  settings: { maxCommentLength: 100 } as StreamSettings,
  story: { id: 's1' } as StoryData,
  refetch: () => undefined,
};
const comment = (secondsLeft: number): CommentData => ({
  id: 'c1',
  body: '<p>Hello <a href="https://x.example" rel="nofollow ugc noopener" target="_blank">there</a></p>',
  createdAt: new Date().toISOString(),
  editedAt: null,
  editableUntil: new Date(Date.now() + secondsLeft * 1000).toISOString(),
  status: 'NONE',
  removed: false,
  tags: [],
  replyCount: 0,
  reactionCount: 0,
  downvoteCount: 0,
  viewerVote: null,
  parent: null,
  author: { id: 'u1', username: 'ada', avatarUrl: null, badges: [], isGuest: false },
});
const source = (bodySource: string | null) =>
  graphql.query('CommentSource', () =>
    HttpResponse.json({ data: { comment: { id: 'c1', bodySource } } }),
  );
const box = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Edit your comment' });

test('starts from the text of the HTML, then the Markdown source when the server gives it', async () => {
  let answer!: () => void;
  const later = new Promise<void>((resolve) => (answer = resolve));
  server.use(
    graphql.query(
      'CommentSource',
      async () => (
        await later,
        HttpResponse.json({
          data: { comment: { id: 'c1', bodySource: 'Hello [there](https://x.example)' } },
        })
      ),
    ),
  );
  const env = createTestEnv();
  renderInStream(<EditForm comment={comment(25)} onDone={() => undefined} />, env, data);
  expect(box().value).toBe('Hello there');
  answer();
  await waitFor(() => expect(box().value).toBe('Hello [there](https://x.example)'));
});

test('shows the time left and counts it down', async () => {
  server.use(source(null));
  const env = createTestEnv();
  renderInStream(<EditForm comment={comment(25)} onDone={() => undefined} />, env, data);
  expect(screen.getByText('You can edit for 25 more seconds')).toBeTruthy();
  expect(
    await screen.findByText('You can edit for 24 more seconds', {}, { timeout: 2000 }),
  ).toBeTruthy();
  expect(secondsUntil('2026-01-01T00:00:01.500Z', Date.parse('2026-01-01T00:00:00Z'))).toBe(2);
  expect(secondsUntil(null, 0)).toBeNull();
});

test('when the window closes it says so and Save is disabled', async () => {
  server.use(source(null));
  const env = createTestEnv();
  renderInStream(<EditForm comment={comment(1)} onDone={() => undefined} />, env, data);
  expect((await screen.findByRole('alert', {}, { timeout: 2500 })).textContent).toBe(
    'The time to edit this comment has passed.',
  );
  expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
});

test('saves with editComment and hands the server copy to onDone', async () => {
  let input: unknown;
  server.use(
    source(null),
    graphql.mutation('EditComment', ({ variables }) => {
      input = variables.input;
      return HttpResponse.json({
        data: {
          editComment: {
            comment: { ...comment(20), body: '<p>Better</p>', editedAt: new Date().toISOString() },
          },
        },
      });
    }),
  );
  const env = createTestEnv();
  const onDone = jest.fn();
  renderInStream(<EditForm comment={comment(25)} onDone={onDone} />, env, data);
  fireEvent.input(box(), { target: { value: ' Better ' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() =>
    expect(onDone).toHaveBeenCalledWith(expect.objectContaining({ body: '<p>Better</p>' })),
  );
  expect(input).toEqual({ commentId: 'c1', body: 'Better' });
  expect(env.bridge.sent).toContainEqual({
    type: 'event',
    payload: { name: 'commentEdited', data: { commentId: 'c1' } },
  });
});

test('a refused edit shows its error by code and keeps the text; Cancel leaves', async () => {
  server.use(
    source(null),
    graphql.mutation('EditComment', () =>
      HttpResponse.json({
        data: null,
        errors: [{ message: 'late', extensions: { code: 'EDIT_WINDOW_EXPIRED' } }],
      }),
    ),
  );
  const env = createTestEnv();
  const onDone = jest.fn();
  renderInStream(<EditForm comment={comment(25)} onDone={onDone} />, env, data);
  fireEvent.input(box(), { target: { value: 'Too late' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect((await screen.findByRole('alert')).textContent).toBe(
    'The time to edit this comment has passed.',
  );
  expect(box().value).toBe('Too late');
  expect(onDone).not.toHaveBeenCalled();
  fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(onDone).toHaveBeenCalledWith();
});
