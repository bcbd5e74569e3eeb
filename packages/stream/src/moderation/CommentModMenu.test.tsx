import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestEnv, renderInStream } from '../testing/createTestEnv';
import type { CommentData } from '../CommentView';
import { CommentModMenu } from './CommentModMenu';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const comment = (overrides: Partial<CommentData> = {}): CommentData => ({
  id: 'c1',
  body: '<p>Hello</p>',
  createdAt: '2026-11-21T10:00:00.000Z',
  editedAt: null,
  editableUntil: null,
  status: 'NONE',
  removed: false,
  tags: [],
  replyCount: 0,
  reactionCount: 0,
  downvoteCount: 0,
  viewerVote: null,
  parent: null,
  author: { id: 'u9', username: 'troll', avatarUrl: null, badges: [], isGuest: false },
  ...overrides,
});

/** Records a comment mutation's variables and answers the comment with `changes`. */
function answerComment(operation: string, field: string, changes: Partial<CommentData>) {
  const calls: Record<string, unknown>[] = [];
  server.use(
    graphql.mutation(operation, ({ variables }) => {
      calls.push(variables);
      return HttpResponse.json({ data: { [field]: { comment: comment(changes) } } });
    }),
  );
  return calls;
}

function renderMenu(data: CommentData = comment()) {
  const onChanged = jest.fn();
  const env = createTestEnv();
  renderInStream(<CommentModMenu comment={data} onChanged={onChanged} />, env);
  const button = screen.getByRole('button', { name: 'Moderate' });
  return { onChanged, button };
}

test('is a menu button: opens on click, moves by arrows, closes on Escape back to the button', async () => {
  const { button } = renderMenu();
  expect(button.getAttribute('aria-haspopup')).toBe('menu');
  expect(button.getAttribute('aria-expanded')).toBe('false');
  fireEvent.click(button);
  expect(button.getAttribute('aria-expanded')).toBe('true');
  const items = within(screen.getByRole('menu')).getAllByRole('menuitem');
  expect(items.map((item) => item.textContent)).toEqual([
    'Approve',
    'Reject',
    'Reject as spam',
    'Feature',
    'Pin to the top',
    'Ban author',
  ]);
  await waitFor(() => expect(document.activeElement).toBe(items[0]));
  fireEvent.keyDown(items[0]!, { key: 'ArrowDown' });
  expect(document.activeElement).toBe(items[1]);
  fireEvent.keyDown(items[1]!, { key: 'Escape' });
  expect(screen.queryByRole('menu')).toBeNull();
  expect(button.getAttribute('aria-expanded')).toBe('false');
  expect(document.activeElement).toBe(button);

  // Focus moving elsewhere (a click outside) closes it too.
  fireEvent.click(button);
  const first = screen.getAllByRole('menuitem')[0]!;
  // A real `focusout`: the Preact fireEvent helper names it `FocusOut`, which jsdom never sends.
  act(() => {
    first.dispatchEvent(
      new FocusEvent('focusout', { bubbles: true, relatedTarget: document.body }),
    );
  });
  expect(screen.queryByRole('menu')).toBeNull();
});

test.each([
  ['Approve', 'ApproveComment', 'approveComment', { status: 'APPROVED' }, 'Comment approved.'],
  ['Reject', 'RejectComment', 'rejectComment', { status: 'REJECTED' }, 'Comment rejected.'],
  ['Feature', 'FeatureComment', 'featureComment', { tags: ['FEATURED'] }, 'Comment featured.'],
  [
    'Pin to the top',
    'PinComment',
    'pinComment',
    { tags: ['PINNED'], status: 'APPROVED' },
    'Comment pinned above the thread.',
  ],
] as const)(
  '%s sends %s and hands the updated comment over',
  async (label, op, field, changes, done) => {
    const calls = answerComment(op, field, changes as Partial<CommentData>);
    const { button, onChanged } = renderMenu();
    fireEvent.click(button);
    fireEvent.click(screen.getByRole('menuitem', { name: label }));
    expect(await screen.findByText(done)).toBeTruthy();
    expect(calls).toEqual([{ input: { commentId: 'c1' } }]);
    expect(onChanged).toHaveBeenCalledWith(expect.objectContaining({ id: 'c1', ...changes }));
  },
);

test('Reject as spam sends the reason, also for a comment already rejected', async () => {
  const calls = answerComment('RejectComment', 'rejectComment', { status: 'REJECTED' });
  const { button, onChanged } = renderMenu(comment({ status: 'REJECTED' }));
  fireEvent.click(button);
  expect(screen.queryByRole('menuitem', { name: 'Reject' })).toBeNull();
  fireEvent.click(screen.getByRole('menuitem', { name: 'Reject as spam' }));
  expect(
    await screen.findByText('Comment rejected as spam; the spam filter learns from it.'),
  ).toBeTruthy();
  expect(calls).toEqual([{ input: { commentId: 'c1', reason: 'SPAM' } }]);
  expect(onChanged).toHaveBeenCalledWith(expect.objectContaining({ status: 'REJECTED' }));
});

test('offers Unfeature for a featured comment, and shows a refusal by its code', async () => {
  const calls: unknown[] = [];
  server.use(
    graphql.mutation('UnfeatureComment', ({ variables }) => {
      calls.push(variables);
      return HttpResponse.json({
        errors: [{ message: 'nope', extensions: { code: 'FORBIDDEN' } }],
        data: null,
      });
    }),
  );
  const { button, onChanged } = renderMenu(comment({ tags: ['FEATURED'], status: 'APPROVED' }));
  fireEvent.click(button);
  const items = screen.getAllByRole('menuitem').map((item) => item.textContent);
  expect(items).toEqual(['Reject', 'Reject as spam', 'Unfeature', 'Pin to the top', 'Ban author']);
  fireEvent.click(screen.getByRole('menuitem', { name: 'Unfeature' }));
  expect((await screen.findByRole('alert')).textContent).toBe('You are not allowed to do that.');
  expect(calls).toEqual([{ input: { commentId: 'c1' } }]);
  expect(onChanged).not.toHaveBeenCalled();
});

test('offers Unpin for the pinned comment, and no pin at all for a reply', async () => {
  const calls = answerComment('UnpinComment', 'unpinComment', { tags: [] });
  const { button, onChanged } = renderMenu(comment({ tags: ['PINNED'], status: 'APPROVED' }));
  fireEvent.click(button);
  fireEvent.click(screen.getByRole('menuitem', { name: 'Unpin' }));
  expect(await screen.findByText('Comment unpinned.')).toBeTruthy();
  expect(calls).toEqual([{ input: { commentId: 'c1' } }]);
  expect(onChanged).toHaveBeenCalledWith(expect.objectContaining({ id: 'c1', tags: [] }));
  cleanup();

  const reply = renderMenu(comment({ id: 'c2', parent: { id: 'c1' } }));
  fireEvent.click(reply.button);
  const items = screen.getAllByRole('menuitem').map((item) => item.textContent);
  expect(items).toEqual(['Approve', 'Reject', 'Reject as spam', 'Feature', 'Ban author']);
});

test('bans the author only after confirming, with the optional message', async () => {
  const calls: Record<string, unknown>[] = [];
  server.use(
    graphql.mutation('BanUser', ({ variables }) => {
      calls.push(variables);
      const user = { id: 'u9', role: 'COMMENTER', status: 'BANNED', suspendedUntil: null };
      return HttpResponse.json({ data: { banUser: { user } } });
    }),
  );
  const { button, onChanged } = renderMenu();
  fireEvent.click(button);
  fireEvent.click(screen.getByRole('menuitem', { name: 'Ban author' }));
  const form = screen.getByRole('form', { name: 'Ban troll' });
  expect(within(form).getByText('Ban troll? They will no longer be able to comment.')).toBeTruthy();
  expect(calls).toHaveLength(0);

  // Cancelling sends nothing.
  fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
  expect(screen.queryByRole('form')).toBeNull();
  fireEvent.click(button);
  fireEvent.click(screen.getByRole('menuitem', { name: 'Ban author' }));
  const again = screen.getByRole('form', { name: 'Ban troll' });
  fireEvent.input(within(again).getByLabelText('Message to them (optional)'), {
    target: { value: '  Repeated abuse.  ' },
  });
  fireEvent.click(within(again).getByRole('button', { name: 'Ban troll' }));
  expect(await screen.findByText('troll is banned.')).toBeTruthy();
  expect(calls).toEqual([{ input: { userId: 'u9', message: 'Repeated abuse.' } }]);
  expect(onChanged).toHaveBeenCalledWith();
  expect(screen.queryByRole('form')).toBeNull();
});
