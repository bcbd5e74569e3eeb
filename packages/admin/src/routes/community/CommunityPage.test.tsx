import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole, TEST_MODERATOR } from '../../testing/renderConsole';
import type { ConsoleViewer } from '../../Viewer';
import { CommunityPage } from './CommunityPage';
import type { CommunityUser } from './UserRow';

/** No network is banned, unless a test says otherwise (the page lists them under the users). */
const noBans = graphql.query('ConsoleIpBans', () =>
  HttpResponse.json({ data: { ipBans: { edges: [] } } }),
);
const server = setupServer(noBans);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  jest.restoreAllMocks();
});
afterAll(() => server.close());

const ADMIN: ConsoleViewer = { ...TEST_MODERATOR, id: 'u-admin', username: 'root', role: 'ADMIN' };

function user(id: string, patch: Partial<CommunityUser> = {}): CommunityUser {
  return {
    id,
    username: `user${id}`,
    email: `${id}@example.com`,
    role: 'COMMENTER',
    status: 'ACTIVE',
    suspendedUntil: null,
    createdAt: '2026-01-02T10:00:00.000Z',
    isGuest: false,
    ...patch,
  };
}

/** Answers ConsoleUsers with two pages and records every variables object sent. */
function usersHandler(sent: Record<string, unknown>[]) {
  return graphql.query('ConsoleUsers', ({ variables }) => {
    sent.push(variables);
    const second = variables.after === 'c2';
    const nodes = second ? [user('3')] : [user('1'), user('2')];
    return HttpResponse.json({
      data: {
        users: {
          edges: nodes.map((node) => ({ cursor: `c${node.id}`, node })),
          pageInfo: { hasNextPage: !second, endCursor: second ? 'c3' : 'c2' },
        },
      },
    });
  });
}

async function renderPage(viewer: ConsoleViewer = TEST_MODERATOR) {
  const env = await createTestConsoleEnv({ token: 't' });
  return renderInConsole(<CommunityPage />, env, { path: '/community', viewer });
}

test('search is debounced, filters go into the variables, and Load more sends the cursor', async () => {
  const sent: Record<string, unknown>[] = [];
  server.use(usersHandler(sent));
  await renderPage();
  expect(await screen.findByRole('rowheader', { name: 'user1' })).toBeTruthy();
  expect(sent[0]).toMatchObject({ query: null, role: null, status: null, after: null });

  fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'a' } });
  fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'ada ' } });
  fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'STAFF' } });
  fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'BANNED' } });
  await waitFor(() =>
    expect(sent.at(-1)).toMatchObject({ query: 'ada', role: 'STAFF', status: 'BANNED' }),
  );
  // One query per pause, never one per keystroke.
  expect(sent.some((v) => v.query === 'a')).toBe(false);

  fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
  expect(await screen.findByRole('rowheader', { name: 'user3' })).toBeTruthy();
  expect(sent.at(-1)).toMatchObject({ query: 'ada', role: 'STAFF', after: 'c2' });
  expect(screen.getByRole('rowheader', { name: 'user1' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
});

test('an admin changes a role with the select, with the row’s message when written', async () => {
  const inputs: unknown[] = [];
  server.use(
    usersHandler([]),
    graphql.mutation('SetUserRole', ({ variables }) => {
      inputs.push(variables.input);
      return HttpResponse.json({
        data: { setUserRole: { user: user('1', { role: 'MODERATOR' }) } },
      });
    }),
    graphql.mutation('SetUserPremod', ({ variables }) => {
      inputs.push(variables.input);
      return HttpResponse.json({ data: { setUserPremod: { user: user('2') } } });
    }),
  );
  await renderPage(ADMIN);
  fireEvent.change(await screen.findByLabelText('Role of user1'), {
    target: { value: 'MODERATOR' },
  });
  await waitFor(() => expect(inputs).toEqual([{ userId: '1', role: 'MODERATOR' }]));

  fireEvent.click(screen.getByRole('button', { name: 'Actions for user2' }));
  fireEvent.change(screen.getByLabelText('Message to user2 (optional)'), {
    target: { value: 'Welcome aboard' },
  });
  fireEvent.change(screen.getByLabelText('Role of user2'), { target: { value: 'STAFF' } });
  await waitFor(() =>
    expect(inputs.at(-1)).toEqual({ userId: '2', role: 'STAFF', message: 'Welcome aboard' }),
  );
  fireEvent.click(screen.getByRole('button', { name: 'Pre-moderation on' }));
  await waitFor(() => expect(inputs.at(-1)).toEqual({ userId: '2', premod: true }));
});

test('a moderator bans with a message, and sees a coded error when it fails', async () => {
  jest.spyOn(window, 'confirm').mockReturnValue(true);
  const inputs: unknown[] = [];
  let fail = false;
  server.use(
    usersHandler([]),
    graphql.mutation('BanUser', ({ variables }) => {
      inputs.push(variables.input);
      if (fail) {
        return HttpResponse.json({
          data: null,
          errors: [{ message: 'no', extensions: { code: 'FORBIDDEN' } }],
        });
      }
      return HttpResponse.json({ data: { banUser: { user: user('2', { status: 'BANNED' }) } } });
    }),
  );
  await renderPage();
  // No role select for a moderator: roles are the admins' to change.
  await screen.findByRole('rowheader', { name: 'user2' });
  expect(screen.queryByLabelText('Role of user2')).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Actions for user2' }));
  const panel = screen.getByLabelText('Message to user2 (optional)').closest('div')!;
  fireEvent.change(within(panel).getByLabelText('Message to user2 (optional)'), {
    target: { value: ' Please stop. ' },
  });
  fireEvent.click(within(panel).getByRole('button', { name: 'Ban' }));
  await waitFor(() => expect(inputs).toEqual([{ userId: '2', message: 'Please stop.' }]));
  expect(await within(panel).findByText('Banned.')).toBeTruthy();

  fail = true;
  fireEvent.click(within(panel).getByRole('button', { name: 'Ban' }));
  expect((await within(panel).findByRole('alert')).textContent).toBe(
    'Your role does not allow this.',
  );
});

test('a moderator suspends for a preset length, and ends a suspension', async () => {
  const sent: { name: string; input: Record<string, unknown> }[] = [];
  server.use(
    graphql.query('ConsoleUsers', () =>
      HttpResponse.json({
        data: {
          users: {
            edges: [
              { cursor: 'a', node: user('1') },
              {
                cursor: 'b',
                node: user('2', { status: 'SUSPENDED', suspendedUntil: '2031-01-01T00:00:00Z' }),
              },
            ],
            pageInfo: { hasNextPage: false, endCursor: 'b' },
          },
        },
      }),
    ),
    graphql.mutation(/^(SuspendUser|UnbanUser)$/, ({ operationName, variables }) => {
      sent.push({ name: operationName, input: variables.input });
      const field = operationName === 'SuspendUser' ? 'suspendUser' : 'unbanUser';
      return HttpResponse.json({ data: { [field]: { user: user('1') } } });
    }),
  );
  await renderPage();
  fireEvent.click(await screen.findByRole('button', { name: 'Actions for user1' }));
  const hours = screen.getByLabelText('For');
  expect(
    within(hours)
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual(['1 hour', '24 hours', '7 days', 'Until…']);
  expect((hours as HTMLSelectElement).value).toBe('24');
  fireEvent.change(hours, { target: { value: '168' } });
  const before = Date.now();
  fireEvent.click(screen.getByRole('button', { name: 'Suspend' }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({ name: 'SuspendUser', input: { userId: '1', message: null } });
  const until = Date.parse(String(sent[0]!.input.until)) - before;
  expect(until).toBeGreaterThanOrEqual(168 * 3_600_000);
  expect(until).toBeLessThan(168 * 3_600_000 + 5000);

  fireEvent.click(screen.getByRole('button', { name: 'Actions for user2' }));
  fireEvent.click(screen.getByRole('button', { name: 'End suspension' }));
  await waitFor(() => expect(sent[1]).toEqual({ name: 'UnbanUser', input: { userId: '2' } }));
  expect(await screen.findByText('Restored.')).toBeTruthy();
});

test('the moderator cannot act on themself or an admin', async () => {
  server.use(
    graphql.query('ConsoleUsers', () =>
      HttpResponse.json({
        data: {
          users: {
            edges: [
              { cursor: 'a', node: user('u-mod', { username: 'moderator', role: 'MODERATOR' }) },
              { cursor: 'b', node: user('9', { username: 'boss', role: 'ADMIN' }) },
            ],
            pageInfo: { hasNextPage: false, endCursor: 'b' },
          },
        },
      }),
    ),
  );
  await renderPage();
  await screen.findByRole('rowheader', { name: 'boss' });
  expect(screen.queryByRole('button', { name: /^Actions/ })).toBeNull();
});

test('guests are a kind of their own: filtered, marked, without a role, their comments a click away', async () => {
  const sent: Record<string, unknown>[] = [];
  server.use(
    graphql.query('ConsoleUsers', ({ variables }) => {
      sent.push(variables);
      const node = user('9', { username: 'Sam Smith', isGuest: true, email: 'sam@example.com' });
      return HttpResponse.json({
        data: {
          users: {
            edges: [{ cursor: 'c9', node }],
            pageInfo: { hasNextPage: false, endCursor: 'c9' },
          },
        },
      });
    }),
    graphql.query('ModerationUser', ({ variables }) =>
      HttpResponse.json({
        data: {
          user: {
            id: variables.id,
            username: 'Sam Smith',
            email: 'sam@example.com',
            role: 'COMMENTER',
            status: 'ACTIVE',
            suspendedUntil: null,
            createdAt: '2026-01-02T10:00:00.000Z',
            isGuest: true,
            ipAddress: '203.0.113.7',
            suggestedBanRange: '203.0.113.0/24',
            all: {
              edges: [
                {
                  node: {
                    id: 'c1',
                    body: '<p>Hello from a guest</p>',
                    status: 'PREMOD',
                    createdAt: '2026-01-02T10:00:00.000Z',
                    deletedAt: null,
                    story: { id: 's1', title: 'Story', url: 'https://news.example/a' },
                  },
                },
              ],
            },
            rejected: { edges: [] },
            history: [],
          },
        },
      }),
    ),
  );
  await renderPage(ADMIN);
  fireEvent.change(await screen.findByLabelText('Kind'), { target: { value: 'GUESTS' } });
  await waitFor(() => expect(sent.at(-1)).toMatchObject({ guest: true }));
  const row = (await screen.findByRole('rowheader', { name: 'Sam Smith Guest' })).closest('tr')!;
  // No role select: a guest has no account to give a role to.
  expect(within(row).queryByRole('combobox')).toBeNull();
  fireEvent.click(within(row).getByRole('button', { name: 'Comments of Sam Smith' }));
  const drawer = await screen.findByRole('dialog', { name: 'Sam Smith' });
  expect(await within(drawer).findByText('Hello from a guest')).toBeTruthy();
  expect(within(drawer).getByText('203.0.113.7')).toBeTruthy();
  expect(within(drawer).getByLabelText<HTMLInputElement>('Address or range').value).toBe(
    '203.0.113.0/24',
  );
  fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'MEMBERS' } });
  await waitFor(() => expect(sent.at(-1)).toMatchObject({ guest: false }));
});
