import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { AuthBar } from './AuthBar';
import { Composer, reopens } from './Composer';
import type { CommentData } from './CommentView';
import type { StreamData, StreamSettings, Viewer } from './StreamContext';
import { createTestEnv, renderInStream } from './testing/createTestEnv';
import { makeComment, makeStreamData, TEST_VIEWER } from './testing/threadFixtures';
import { openAuthPopup } from './auth/openAuthPopup';

jest.mock('./auth/openAuthPopup', () => ({ openAuthPopup: jest.fn() }));

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  localStorage.clear();
  jest.mocked(openAuthPopup).mockClear();
});
afterAll(() => server.close());

const guest: Viewer = {
  ...TEST_VIEWER,
  id: 'g1',
  username: 'Sam Smith',
  email: null,
  isGuest: true,
};
/** A story where guests may comment, read by `viewer` (null: signed out). */
const data = (viewer: Viewer | null, settings: Partial<StreamSettings> = {}): StreamData =>
  makeStreamData([], { viewer, settings: { guestComments: true, ...settings } });
/** The server's answer to a guest's post: held for review. */
const held = (input: Record<string, unknown>): CommentData =>
  makeComment('c1', {
    body: `<p>${String(input.body)}</p>`,
    status: 'PREMOD',
    author: { id: 'g1', username: 'Sam Smith', avatarUrl: null, badges: [], isGuest: true },
  });

function answers(start: (input: Record<string, unknown>) => Response) {
  const started: Record<string, unknown>[] = [];
  const posted: Record<string, unknown>[] = [];
  server.use(
    graphql.mutation('StartGuestSession', ({ variables }) => {
      started.push(variables.input as Record<string, unknown>);
      return start(variables.input as Record<string, unknown>);
    }),
    graphql.mutation('CreateComment', ({ variables }) => {
      posted.push(variables.input as Record<string, unknown>);
      return HttpResponse.json({
        data: { createComment: { comment: held(variables.input as Record<string, unknown>) } },
      });
    }),
  );
  return { started, posted };
}
const session = () => HttpResponse.json({ data: { startGuestSession: { token: 'guest-token' } } });

const write = (text: string) =>
  fireEvent.input(screen.getByRole('textbox', { name: 'Write a comment' }), {
    target: { value: text },
  });

test('signed out where guests may comment, Post asks for a name, then posts the draft as the guest', async () => {
  const { started, posted } = answers(session);
  const env = createTestEnv();
  const signIn = jest.spyOn(env.session, 'signIn');
  const view = renderInStream(<Composer storyId="s1" parentId={null} />, env, data(null));
  write('Hello as a guest');
  fireEvent.click(screen.getByRole('button', { name: 'Post' }));
  const form = await screen.findByRole('form', { name: /Post as a guest/ });
  expect(openAuthPopup).not.toHaveBeenCalled();
  await waitFor(() =>
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Your name' })),
  );

  // No name: said at the field, nothing sent.
  fireEvent.click(screen.getByRole('button', { name: 'Post as guest' }));
  expect(await screen.findByText('Enter a name of at least 2 characters.')).toBeTruthy();
  expect(started).toEqual([]);

  fireEvent.input(screen.getByRole('textbox', { name: 'Your name' }), {
    target: { value: ' Sam Smith ' },
  });
  fireEvent.input(screen.getByRole('textbox', { name: /Email/ }), {
    target: { value: 'sam@example.com' },
  });
  fireEvent.submit(form);
  await waitFor(() => expect(signIn).toHaveBeenCalledWith('guest-token'));
  // The honeypot goes empty, as people leave it.
  expect(started).toEqual([
    { name: 'Sam Smith', email: 'sam@example.com', locale: 'en', website: '' },
  ]);
  expect(posted).toEqual([]);

  // The frame remounts the stream for the new session (App): the composer posts the draft.
  view.unmount();
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data(guest));
  await waitFor(() => expect(posted).toHaveLength(1));
  expect(posted[0]).toMatchObject({ storyId: 's1', body: 'Hello as a guest' });
  // Guests wait for a moderator by default: the thread shows it as held for its author.
  await waitFor(() => expect(env.thread.list()[0]?.state).toBe('held'));
});

test("a member's name is refused with the reason, and the reader may sign in instead", async () => {
  const { started } = answers(() =>
    HttpResponse.json({
      data: null,
      errors: [{ message: 'taken', extensions: { code: 'GUEST_NAME_TAKEN', field: 'name' } }],
    }),
  );
  const env = createTestEnv();
  const signIn = jest.spyOn(env.session, 'signIn');
  renderInStream(<Composer storyId="s1" parentId={null} />, env, data(null));
  write('Hi');
  fireEvent.click(screen.getByRole('button', { name: 'Post' }));
  fireEvent.input(await screen.findByRole('textbox', { name: 'Your name' }), {
    target: { value: 'admin' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Post as guest' }));
  const said = await screen.findByRole('alert');
  expect(said.textContent).toBe(
    'A member goes by that name, or one that looks like it. Choose another.',
  );
  // Said at the field it is about.
  const field = screen.getByRole('textbox', { name: 'Your name' });
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(field.getAttribute('aria-describedby')).toBe(said.id);
  expect(started).toEqual([{ name: 'admin', email: null, locale: 'en', website: '' }]);
  expect(signIn).not.toHaveBeenCalled();
  fireEvent.click(screen.getByRole('button', { name: 'Sign in instead' }));
  expect(openAuthPopup).toHaveBeenCalledWith(env, 'signin');
  // The draft is still in the box, where Cancel returns.
  const box = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Write a comment' });
  expect(box.value).toBe('Hi');
  fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(screen.queryByRole('form', { name: /Post as a guest/ })).toBeNull();
  expect(document.activeElement).toBe(box);
});

test('an empty draft asks for text before a name; without guest comments Post opens sign-in', async () => {
  answers(session);
  const env = createTestEnv();
  const view = renderInStream(<Composer storyId="s1" parentId={null} />, env, data(null));
  fireEvent.click(screen.getByRole('button', { name: 'Post' }));
  expect((await screen.findByRole('alert')).textContent).toBe('Write something first.');
  expect(screen.queryByRole('form', { name: /Post as a guest/ })).toBeNull();
  view.unmount();
  renderInStream(
    <Composer storyId="s1" parentId={null} />,
    env,
    data(null, { guestComments: false }),
  );
  write('Hello');
  fireEvent.click(screen.getByRole('button', { name: 'Post' }));
  expect(openAuthPopup).toHaveBeenCalledWith(env, 'signin');
  expect(screen.queryByRole('form', { name: /Post as a guest/ })).toBeNull();
});

/**
 * Writes `text` in the reply box under `parentId` signed out, starts a guest session from it,
 * and unmounts the box, as the frame's remount for the new session does; returns the frame's env.
 */
async function replyAsNewGuest(parentId: string, text: string) {
  const env = createTestEnv();
  const view = renderInStream(<Composer storyId="s1" parentId={parentId} />, env, data(null));
  fireEvent.input(screen.getByRole('textbox', { name: 'Write a reply' }), {
    target: { value: text },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Post' }));
  fireEvent.input(await screen.findByRole('textbox', { name: 'Your name' }), {
    target: { value: 'Sam' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Post as guest' }));
  await waitFor(() => expect(env.session.getToken()).toBe('guest-token'));
  view.unmount();
  return env;
}

test("a reply's box opens again under the guest's new session, and posts the reply", async () => {
  const { posted } = answers(session);
  const env = await replyAsNewGuest('p1', 'A guest answers');
  // The remounted thread asks whether each reply box was open: this one was, once.
  expect([reopens('p0'), reopens('p1'), reopens('p1')]).toEqual([false, true, false]);
  renderInStream(<Composer storyId="s1" parentId="p1" />, env, data(guest));
  await waitFor(() => expect(posted).toHaveLength(1));
  expect(posted[0]).toMatchObject({ storyId: 's1', parentId: 'p1', body: 'A guest answers' });
});

test('an address the server refuses is said at its field', async () => {
  answers(() =>
    HttpResponse.json({
      data: null,
      errors: [{ message: 'bad', extensions: { code: 'INVALID_INPUT', field: 'email' } }],
    }),
  );
  renderInStream(<Composer storyId="s1" parentId={null} />, createTestEnv(), data(null));
  write('Hi');
  fireEvent.click(screen.getByRole('button', { name: 'Post' }));
  fireEvent.input(await screen.findByRole('textbox', { name: 'Your name' }), {
    target: { value: 'Sam' },
  });
  fireEvent.input(screen.getByRole('textbox', { name: /Email/ }), {
    target: { value: 'sam@example' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Post as guest' }));
  const said = await screen.findByRole('alert');
  expect(said.textContent).toBe('Enter an email address like name@example.com, or leave it empty.');
  const field = screen.getByRole('textbox', { name: /Email/ });
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(said.id);
});

test('a draft left waiting never posts by itself once its moment has passed', async () => {
  const { posted } = answers(session);
  const env = await replyAsNewGuest('p2', 'Later');
  // The reply's comment was not on screen at once; the reader opens it a minute later.
  const now = Date.now();
  const later = jest.spyOn(Date, 'now').mockReturnValue(now + 60_000);
  try {
    expect(reopens('p2')).toBe(false);
    renderInStream(<Composer storyId="s1" parentId="p2" />, env, data(guest));
    await screen.findByRole('textbox', { name: 'Write a reply' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(posted).toEqual([]);
  } finally {
    later.mockRestore();
  }
});

test('the bar names a guest as a guest', () => {
  renderInStream(<AuthBar />, createTestEnv(), data(guest));
  expect(screen.getByText('Commenting as Sam Smith (guest)')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
});
