import { act, fireEvent, screen, waitFor } from '@testing-library/preact';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Composer } from './Composer';
import { outboxKey } from './createOutbox';
import type { StreamData } from './StreamContext';
import { createTestEnv, renderInStream } from './testing/createTestEnv';
import type { CommentData } from './CommentView';
import type { StoryData, StreamSettings, Viewer } from './StreamContext';
import { DRAFT_SAVE_DELAY_MS, draftKey } from './useDraft';
import { openAuthPopup } from './auth/openAuthPopup';

jest.mock('./auth/openAuthPopup', () => ({ openAuthPopup: jest.fn() }));

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  localStorage.clear();
  jest.restoreAllMocks();
});
afterAll(() => server.close());

const settings: StreamSettings = {
  editWindowSeconds: 30,
  maxCommentLength: 100,
  signUpOpen: true,
  liveUpdates: true,
  guidelinesHtml: '',
  locale: 'en',
  premod: 'OFF',
  reactionLabel: '',
  featuredTab: true,
  voting: 'LIKE',
  commentImages: false,
  guestComments: false,
  customCssUrl: '',
};
const viewer: Viewer = {
  id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  avatarUrl: null,
  badges: [],
  isGuest: false,
  role: 'COMMENTER',
  status: 'ACTIVE',
  suspendedUntil: null,
};
const data = (overrides: Partial<StreamData> = {}): StreamData => ({
  viewer,
  settings,
  story: { id: 's1' } as StoryData,
  refetch: () => undefined,
  ...overrides,
});
const serverComment = (input: Record<string, unknown>, status = 'NONE'): CommentData => ({
  id: 'c1',
  body: `<p>${String(input.body)}</p>`,
  createdAt: '2026-01-01T00:00:00.000Z',
  editedAt: null,
  editableUntil: '2026-01-01T00:00:30.000Z',
  status: status as CommentData['status'],
  removed: false,
  tags: [],
  replyCount: 0,
  reactionCount: 0,
  downvoteCount: 0,
  viewerVote: null,
  parent: input.parentId ? { id: String(input.parentId) } : null,
  author: { id: 'u1', username: 'ada', avatarUrl: null, badges: [], isGuest: false },
});

/** Answers every CreateComment with `answer` and records the inputs. */
function createCommentAnswers(
  answer: (input: Record<string, unknown>) => Response | Promise<Response>,
) {
  const inputs: Record<string, unknown>[] = [];
  server.use(
    graphql.mutation('CreateComment', ({ variables }) => {
      inputs.push(variables.input as Record<string, unknown>);
      return answer(variables.input as Record<string, unknown>);
    }),
  );
  return inputs;
}
const ok = (status?: string) => (input: Record<string, unknown>) =>
  HttpResponse.json({ data: { createComment: { comment: serverComment(input, status) } } });
const refuse =
  (code: string, extensions: Record<string, unknown> = {}) =>
  () =>
    HttpResponse.json({
      data: null,
      errors: [{ message: 'no', extensions: { code, ...extensions } }],
    });

const box = (name = 'Write a comment') =>
  screen.getByRole<HTMLTextAreaElement>('textbox', { name });
const type = (text: string, name?: string) =>
  fireEvent.input(box(name), { target: { value: text } });
const post = () => fireEvent.click(screen.getByRole('button', { name: 'Post' }));
const stored = (env: ReturnType<typeof createTestEnv>, key: string) =>
  env.transport.storage.get(key);

test('a double click posts once, even while the outbox is still loading', async () => {
  const inputs = createCommentAnswers(ok());
  const env = createTestEnv();
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  type('Once is enough');
  post();
  post();
  await waitFor(() => expect(env.thread.list()[0]?.state).toBe('posted'));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(inputs).toHaveLength(1);
  expect(env.thread.list()).toHaveLength(1);
});

test('posts with story, parent, body and a key; the comment shows as posting, then posted', async () => {
  let release!: () => void;
  const answered = new Promise<void>((resolve) => (release = resolve));
  const inputs = createCommentAnswers(async (input) => (await answered, ok()(input)));
  const env = createTestEnv();
  renderInStream(<Composer storyId="s1" parentId="p1" />, env, data());
  type('  Hello *world*  ', 'Write a reply');
  post();

  await waitFor(() => expect(env.thread.list()).toHaveLength(1));
  const [local] = env.thread.list();
  expect(local).toMatchObject({
    storyId: 's1',
    parentId: 'p1',
    text: 'Hello *world*',
    state: 'posting',
  });
  expect(box('Write a reply').value).toBe('');
  await waitFor(() => expect(inputs).toHaveLength(1));
  expect(inputs[0]).toEqual({
    storyId: 's1',
    parentId: 'p1',
    body: 'Hello *world*',
    clientMutationId: local!.key,
  });

  release();
  await waitFor(() => expect(env.thread.list()[0]?.state).toBe('posted'));
  expect(env.thread.list()[0]?.comment?.id).toBe('c1');
  expect(env.bridge.sent).toContainEqual({
    type: 'event',
    payload: {
      name: 'commentPosted',
      data: { commentId: 'c1', storyId: 's1', parentId: 'p1', status: 'NONE' },
    },
  });
  expect(await stored(env, outboxKey('s1'))).toBeUndefined();
  expect(await stored(env, draftKey('s1', 'p1'))).toBeUndefined();
});

test('a comment held for review is marked held', async () => {
  createCommentAnswers(ok('PREMOD'));
  const env = createTestEnv();
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  type('Check https://x.example');
  post();
  await waitFor(() => expect(env.thread.list()[0]?.state).toBe('held'));
});

test('a banned word: the message shows by the box, the text comes back, nothing is queued', async () => {
  const inputs = createCommentAnswers(refuse('BANNED_WORD'));
  const env = createTestEnv();
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  type('You are a frob');
  post();

  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toBe(
    'Your comment contains a word this community does not allow. Please edit it and post again.',
  );
  expect(box().value).toBe('You are a frob');
  expect(box().getAttribute('aria-describedby')).toContain(alert.id);
  expect(env.thread.list()).toEqual([]);
  expect(inputs).toHaveLength(1);
  expect(await stored(env, outboxKey('s1'))).toBeUndefined();
  // Kept as the draft at once, not after the typing delay: a reload right now still has it.
  await waitFor(() => expect(stored(env, draftKey('s1', null))).resolves.toBe('You are a frob'), {
    timeout: DRAFT_SAVE_DELAY_MS / 3,
  });
});

test('rate limited: says when to try again, from the error extensions', async () => {
  createCommentAnswers(refuse('RATE_LIMITED', { retryAfterSeconds: 12 }));
  const env = createTestEnv();
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  type('Again');
  post();
  expect((await screen.findByRole('alert')).textContent).toBe(
    'You are going a little fast. Try again in 12 seconds.',
  );
  expect(box().value).toBe('Again');
});

test("suspended: says until when, as a date in the reader's locale", async () => {
  createCommentAnswers(refuse('USER_SUSPENDED', { until: '2026-03-01T12:00:00.000Z' }));
  const env = createTestEnv();
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  type('Hi');
  post();
  const text = (await screen.findByRole('alert')).textContent!;
  expect(text).toMatch(/^Your account is suspended until Mar 1, 2026, \d+:00 [AP]M\.$/);
});

test('an empty or overlong comment is refused before anything is sent', async () => {
  const inputs = createCommentAnswers(ok());
  const env = createTestEnv();
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  post();
  expect((await screen.findByRole('alert')).textContent).toBe('Write something first.');
  type('x'.repeat(101));
  post();
  expect((await screen.findByRole('alert')).textContent).toBe(
    'Your comment is too long. Please shorten it.',
  );
  expect(inputs).toEqual([]);
  expect(box().value).toHaveLength(101);
});

test('the draft is saved as the reader types and restored on the next render', async () => {
  const env = createTestEnv();
  const first = renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  type('Half a thought');
  await waitFor(() => expect(stored(env, draftKey('s1', null))).resolves.toBe('Half a thought'), {
    timeout: DRAFT_SAVE_DELAY_MS * 5,
  });
  first.unmount();
  const second = renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  await waitFor(() => expect(box().value).toBe('Half a thought'));
  second.unmount();
  // Another parent's box has its own draft.
  renderInStream(<Composer storyId="s1" parentId="p9" />, env, data());
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  expect(box('Write a reply').value).toBe('');
});

test('keystrokes just before an unmount (the remount after sign-in) are not lost', async () => {
  const env = createTestEnv();
  const view = renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  type('typed fast');
  view.unmount();
  await waitFor(() => expect(stored(env, draftKey('s1', null))).resolves.toBe('typed fast'), {
    timeout: DRAFT_SAVE_DELAY_MS / 2,
  });
});

test('signed out: the box keeps the draft and Post opens the sign-in popup', async () => {
  const env = createTestEnv();
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data({ viewer: null }));
  type('Before signing in');
  post();
  expect(openAuthPopup).toHaveBeenCalledWith(env, 'signin');
  expect(box().value).toBe('Before signing in');
  expect(env.thread.list()).toEqual([]);
});

test('offline: a failed post is queued with its key and sent once when the connection returns', async () => {
  const inputs = createCommentAnswers(() => HttpResponse.error());
  const env = createTestEnv();
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  type('Written on a train');
  post();

  await waitFor(() => expect(env.thread.list()[0]?.state).toBe('queued'));
  const key = env.thread.list()[0]!.key;
  expect(await screen.findByText(/Your comment is saved and will be posted/)).toBeTruthy();
  expect(await stored(env, outboxKey('s1'))).toEqual([
    expect.objectContaining({ key, storyId: 's1', parentId: null, body: 'Written on a train' }),
  ]);
  expect(box().value).toBe('');

  server.resetHandlers();
  const resent = createCommentAnswers(ok());
  act(() => {
    window.dispatchEvent(new Event('online'));
    window.dispatchEvent(new Event('online'));
  });
  await waitFor(() => expect(env.thread.list()[0]?.state).toBe('posted'));
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  expect(inputs).toHaveLength(1);
  expect(resent.map((input) => input.clientMutationId)).toEqual([key]);
  expect(await stored(env, outboxKey('s1'))).toBeUndefined();
});

test('posted while the browser is offline: nothing is sent until it is back', async () => {
  const inputs = createCommentAnswers(ok());
  jest.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
  const env = createTestEnv();
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  type('No signal');
  post();
  await waitFor(() => expect(env.thread.list()[0]?.state).toBe('queued'));
  await waitFor(async () => expect(await stored(env, outboxKey('s1'))).toHaveLength(1));
  expect(inputs).toEqual([]);

  jest.restoreAllMocks();
  act(() => void window.dispatchEvent(new Event('online')));
  await waitFor(() => expect(env.thread.list()[0]?.state).toBe('posted'));
  expect(inputs).toHaveLength(1);
});

test('a post queued in an earlier page view is sent on load with its key', async () => {
  const env = createTestEnv();
  const entry = {
    key: 'k-earlier',
    storyId: 's1',
    parentId: null,
    body: 'From before',
    createdAt: '2026-01-01T00:00:00Z',
  };
  await env.transport.storage.set(outboxKey('s1'), [entry]);
  const inputs = createCommentAnswers(ok());
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  await waitFor(() =>
    expect(env.thread.list()[0]).toMatchObject({ key: 'k-earlier', state: 'posted' }),
  );
  expect(inputs).toEqual([
    { storyId: 's1', parentId: null, body: 'From before', clientMutationId: 'k-earlier' },
  ]);
});

test('a queued post refused on resend comes back into its box with the error', async () => {
  const env = createTestEnv();
  const entry = {
    key: 'k1',
    storyId: 's1',
    parentId: null,
    body: 'Too late',
    createdAt: '2026-01-01T00:00:00Z',
  };
  await env.transport.storage.set(outboxKey('s1'), [entry]);
  createCommentAnswers(refuse('STORY_CLOSED'));
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  expect((await screen.findByRole('alert')).textContent).toBe('Comments on this story are closed.');
  expect(box().value).toBe('Too late');
  expect(await stored(env, outboxKey('s1'))).toBeUndefined();
});

test('the counter appears near the limit and counts down, then past it', async () => {
  const env = createTestEnv();
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  const counter = () =>
    screen.getAllByRole('status').find((el) => el.classList.contains('parley-counter'))!;
  type('x'.repeat(80));
  expect(counter().textContent).toBe('');
  type('x'.repeat(85));
  expect(counter().textContent).toBe('15 characters left');
  expect(counter().getAttribute('aria-live')).toBe('polite');
  type('x'.repeat(99));
  expect(counter().textContent).toBe('1 character left');
  type('x'.repeat(104));
  expect(counter().textContent).toBe('4 characters too many');
});

test('the toolbar wraps the selection in Markdown', async () => {
  const env = createTestEnv();
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  type('make this strong');
  box().setSelectionRange(5, 9);
  fireEvent.click(screen.getByRole('button', { name: 'Bold' }));
  expect(box().value).toBe('make **this** strong');
  expect([box().selectionStart, box().selectionEnd]).toEqual([7, 11]);
  fireEvent.click(screen.getByRole('button', { name: 'Italic' }));
  expect(box().value).toBe('make **_this_** strong');
  for (const name of ['Quote', 'Link', 'Code'])
    expect(screen.getByRole('button', { name })).toBeTruthy();
  await waitFor(() =>
    expect(stored(env, draftKey('s1', null))).resolves.toBe('make **_this_** strong'),
  );
});

test('Preview shows the HTML the server renders for the Markdown', async () => {
  let body: unknown;
  server.use(
    graphql.query('RenderMarkdown', ({ variables }) => {
      body = variables.body;
      return HttpResponse.json({ data: { renderMarkdown: '<p><strong>big</strong></p>' } });
    }),
  );
  const env = createTestEnv();
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data());
  type('**big** ');
  fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
  expect((await screen.findByText('big')).tagName).toBe('STRONG');
  expect(body).toBe('**big**');
  expect(screen.getByRole('button', { name: 'Preview' }).getAttribute('aria-pressed')).toBe('true');
  expect(screen.getByRole('button', { name: 'Bold' }).hasAttribute('disabled')).toBe(true);
  fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
  expect(box().value).toBe('**big** ');
});
