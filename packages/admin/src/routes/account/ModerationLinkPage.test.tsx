import { ACCOUNT_PATHS } from '@parley/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole } from '../../testing/renderConsole';
import { AccountPage } from './AccountPage';
import type { ConsoleModerationLink } from './ModerationLinkPage';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  window.history.replaceState(null, '', '/');
});
afterAll(() => server.close());

function linkOf(fields: Partial<ConsoleModerationLink> = {}) {
  return {
    __typename: 'ModerationLink',
    action: 'APPROVE',
    moderator: 'mo',
    commentId: 'c1',
    author: 'ada',
    excerpt: 'First line\nsecond line',
    storyTitle: 'A story',
    storyUrl: 'https://site.example/a',
    status: 'PREMOD',
    decidable: true,
    expiresAt: '2026-11-29T10:00:00.000Z',
    ...fields,
  } as ConsoleModerationLink & { __typename: 'ModerationLink' };
}

/** What the page sent: the query's and the mutation's variables, by operation. */
interface Sent {
  read: unknown[];
  used: unknown[];
  /** Each mutation's Idempotency-Key header: none, for a mutation sent once and never again. */
  keys: (string | null)[];
}

/** What the server answers: a link, or the coded error of a link that does not work. */
type Answer = ReturnType<typeof linkOf> | { code: string };

/** The JSON answer: `data` under `field`, or the coded error. */
function answer(
  field: string,
  value: Answer,
  wrap: (link: Record<string, unknown>) => Record<string, unknown> = (link) => link,
): { data: Record<string, unknown> | null; errors?: Record<string, unknown>[] } {
  return 'code' in value
    ? { data: null, errors: [{ message: value.code, extensions: { code: value.code } }] }
    : { data: { [field]: wrap(value) } };
}

/**
 * A server answering the link's page: `read` is what the query answers, `used` what the button's
 * mutation answers.
 */
function serve(read: Answer, used: Answer = read): Sent {
  const sent: Sent = { read: [], used: [], keys: [] };
  server.use(
    graphql.query('ConsoleModerationLink', ({ variables }) => {
      sent.read.push(variables);
      return HttpResponse.json(answer('moderationLink', read));
    }),
    graphql.mutation('ConsoleUseModerationLink', ({ variables, request }) => {
      sent.used.push(variables);
      sent.keys.push(request.headers.get('idempotency-key'));
      return HttpResponse.json(
        answer('useModerationLink', used, (link) => ({
          __typename: 'ModerationLinkPayload',
          link,
        })),
      );
    }),
  );
  return sent;
}

/** Opens the email's link, `…/account/moderate#token=…`. */
async function openLink(token: string) {
  window.history.replaceState(null, '', `${ACCOUNT_PATHS.moderate}#token=${token}`);
  const env = await createTestConsoleEnv();
  return renderInConsole(<AccountPage />, env, { path: ACCOUNT_PATHS.moderate });
}

test('shows the comment and who acts, and decides nothing before the button', async () => {
  const sent = serve(linkOf());
  await openLink('tok-1');
  expect(await screen.findByRole('heading', { name: 'Approve a comment' })).toBeTruthy();
  expect(window.location.hash).toBe('');
  expect(screen.getByText('ada')).toBeTruthy();
  expect(screen.getByRole('link', { name: 'A story' }).getAttribute('href')).toBe(
    'https://site.example/a',
  );
  expect(document.querySelector('blockquote')?.textContent).toBe('First line\nsecond line');
  expect(screen.getByText('Acting as mo')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Approve this comment' })).toBeTruthy();
  // A mail scanner opening the page reads the link, and that is all.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(sent).toEqual({ read: [{ token: 'tok-1' }], used: [], keys: [] });
});

test('the button sends the token once, then says the comment is rejected', async () => {
  const sent = serve(
    linkOf({ action: 'REJECT' }),
    linkOf({ action: 'REJECT', status: 'REJECTED', decidable: false }),
  );
  await openLink('tok-2');
  const button = await screen.findByRole('button', { name: 'Reject this comment' });
  expect(screen.getByRole('heading', { name: 'Reject a comment' })).toBeTruthy();
  fireEvent.click(button);
  fireEvent.click(button);
  expect((await screen.findByRole('status')).textContent).toBe('Rejected.');
  expect(sent.used).toEqual([{ input: { token: 'tok-2' } }]);
  expect(sent.keys).toEqual([null]);
  expect(screen.queryByRole('button', { name: 'Reject this comment' })).toBeNull();
  // The answer is shown; the link is not read again.
  expect(sent.read).toHaveLength(1);
});

test('approves, and says so', async () => {
  const sent = serve(linkOf(), linkOf({ status: 'APPROVED', decidable: false }));
  await openLink('tok-3');
  fireEvent.click(await screen.findByRole('button', { name: 'Approve this comment' }));
  expect((await screen.findByRole('status')).textContent).toBe('Approved.');
  expect(sent.used).toEqual([{ input: { token: 'tok-3' } }]);
});

test('a comment decided already offers no button, and says what it is now', async () => {
  const sent = serve(linkOf({ status: 'APPROVED', decidable: false, action: 'REJECT' }));
  await openLink('tok-4');
  expect(
    await screen.findByText(
      'Nothing to do: this comment is no longer waiting (now approved), or this link was used.',
    ),
  ).toBeTruthy();
  expect(screen.queryByRole('button')).toBeNull();
  expect(sent.used).toEqual([]);
});

test('an expired link says so, with the way to decide instead', async () => {
  const sent = serve({ code: 'TOKEN_EXPIRED' });
  await openLink('old');
  expect((await screen.findByRole('alert')).textContent).toBe('This link has expired.');
  expect(screen.getByText(/Decide in the console instead/)).toBeTruthy();
  expect(screen.queryByRole('button')).toBeNull();
  expect(sent.used).toEqual([]);
});

test('a link refused at the button leaves nothing to click', async () => {
  serve(linkOf(), { code: 'TOKEN_INVALID' });
  await openLink('tok-5');
  fireEvent.click(await screen.findByRole('button', { name: 'Approve this comment' }));
  expect((await screen.findByRole('alert')).textContent).toContain('This link is not valid');
  await waitFor(() =>
    expect(screen.queryByRole('button', { name: 'Approve this comment' })).toBeNull(),
  );
});

test('a link without its token says so and reads nothing', async () => {
  const sent = serve(linkOf());
  window.history.replaceState(null, '', ACCOUNT_PATHS.moderate);
  const env = await createTestConsoleEnv();
  renderInConsole(<AccountPage />, env, { path: ACCOUNT_PATHS.moderate });
  expect(screen.getByRole('alert').textContent).toContain('This link is incomplete');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(sent.read).toEqual([]);
});
