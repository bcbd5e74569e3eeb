import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole, TEST_MODERATOR } from '../../testing/renderConsole';
import type { ConsoleViewer } from '../../Viewer';
import { ModeratePage } from './ModeratePage';
import { UserDrawer } from './UserDrawer';
import type { DrawerUser } from './UserDrawer';
import { createFakeLive, makeQueueComment, queueConnection } from './testFixtures';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const USER: DrawerUser = {
  id: 'u1',
  username: 'user1',
  email: 'user1@example.com',
  role: 'COMMENTER',
  status: 'ACTIVE',
  suspendedUntil: null,
  createdAt: '2025-01-02T10:00:00.000Z',
  isGuest: false,
  ipAddress: null,
  suggestedBanRange: null,
  all: {
    edges: [
      {
        node: {
          id: 'c1',
          body: '<p>Kind words</p>',
          status: 'APPROVED',
          createdAt: '2026-11-01T10:00:00.000Z',
          deletedAt: null,
          story: { id: 's1', title: 'A story', url: 'https://site.example/a' },
        },
      },
      {
        node: {
          id: 'c2',
          body: '',
          status: 'NONE',
          createdAt: '2026-11-03T10:00:00.000Z',
          deletedAt: '2026-11-04T10:00:00.000Z',
          story: { id: 's1', title: 'A story', url: 'https://site.example/a' },
        },
      },
    ],
  },
  rejected: {
    edges: [
      {
        node: {
          id: 'c9',
          body: '<p>Rude words</p>',
          status: 'REJECTED',
          createdAt: '2026-11-02T10:00:00.000Z',
          deletedAt: null,
          story: { id: 's1', title: 'A story', url: 'https://site.example/a' },
        },
      },
    ],
  },
  history: [
    {
      id: 'h1',
      action: 'SUSPEND',
      message: 'Cool down.',
      actor: { username: 'moderator' },
      createdAt: '2026-10-01T10:00:00.000Z',
    },
  ],
};

/** Serves the drawer's user; records every mutation sent. */
function serveUser() {
  const sent: { name: string; variables: Record<string, unknown> }[] = [];
  server.use(
    graphql.query('ModerationUser', () => HttpResponse.json({ data: { user: USER } })),
    graphql.mutation(/.*/, ({ operationName, variables }) => {
      sent.push({ name: operationName, variables });
      const field = operationName.charAt(0).toLowerCase() + operationName.slice(1);
      return HttpResponse.json({
        data: {
          [field]: {
            user: { id: 'u1', role: 'COMMENTER', status: 'ACTIVE', suspendedUntil: null },
          },
        },
      });
    }),
  );
  return sent;
}

async function openDrawer(viewer: ConsoleViewer = TEST_MODERATOR) {
  const env = await createTestConsoleEnv({ token: 'token' });
  const onClose = jest.fn();
  const { unmount } = renderInConsole(<UserDrawer userId="u1" onClose={onClose} />, env, {
    viewer,
  });
  const drawer = await screen.findByRole('dialog', { name: 'user1' });
  await within(drawer).findByText('user1@example.com');
  return { drawer: within(drawer), onClose, unmount };
}

function apply(drawer: ReturnType<typeof within>, action: string, message?: string) {
  fireEvent.change(drawer.getByLabelText('Action'), { target: { value: action } });
  if (message !== undefined) {
    fireEvent.change(drawer.getByLabelText(/Message to user1/), { target: { value: message } });
  }
  fireEvent.click(drawer.getByRole('button', { name: 'Apply' }));
}

test('shows status, role, member since, email, comments (all / rejected, deleted ones marked) and history', async () => {
  serveUser();
  const { drawer } = await openDrawer();
  expect(drawer.getByText('active')).toBeTruthy();
  expect(drawer.getByText('commenter')).toBeTruthy();
  expect(drawer.getByText('Kind words')).toBeTruthy();
  // A comment its author deleted: when, and that its text is gone.
  const deleted = drawer.getByText(/its text was erased/);
  expect(deleted.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-04T10:00:00.000Z');
  fireEvent.click(drawer.getByRole('button', { name: 'Rejected' }));
  expect(drawer.getByText('Rude words')).toBeTruthy();
  expect(drawer.queryByText('Kind words')).toBeNull();
  expect(drawer.getByText(/Cool down\./)).toBeTruthy();
});

test('bans with the message', async () => {
  const sent = serveUser();
  const { drawer } = await openDrawer();
  apply(drawer, 'ban', ' Read the guidelines. ');
  await waitFor(() =>
    expect(sent).toEqual([
      { name: 'BanUser', variables: { input: { userId: 'u1', message: 'Read the guidelines.' } } },
    ]),
  );
  expect(await drawer.findByText('Done.')).toBeTruthy();
});

test('suspends for 7 days, or until a custom time', async () => {
  const sent = serveUser();
  const { drawer } = await openDrawer();
  fireEvent.change(drawer.getByLabelText('Action'), { target: { value: 'suspend' } });
  fireEvent.click(drawer.getByLabelText('7 days'));
  const before = Date.now();
  apply(drawer, 'suspend');
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({
    name: 'SuspendUser',
    variables: { input: { userId: 'u1', message: null } },
  });
  const until = Date.parse(String((sent[0]?.variables.input as { until: string }).until));
  expect(until - before).toBeGreaterThanOrEqual(7 * 24 * 3_600_000 - 1000);
  expect(until - before).toBeLessThan(7 * 24 * 3_600_000 + 5000);

  fireEvent.click(drawer.getByLabelText('Until…'));
  fireEvent.change(drawer.getByLabelText('Suspended until'), {
    target: { value: '2031-05-01T12:00' },
  });
  apply(drawer, 'suspend', 'See you in May.');
  await waitFor(() => expect(sent).toHaveLength(2));
  expect(sent[1]?.variables.input).toEqual({
    userId: 'u1',
    until: new Date('2031-05-01T12:00').toISOString(),
    message: 'See you in May.',
  });
});

test('premod sends setUserPremod; Escape closes', async () => {
  const sent = serveUser();
  const { drawer, onClose } = await openDrawer();
  apply(drawer, 'premod', 'Your comments will be checked.');
  await waitFor(() =>
    expect(sent).toEqual([
      {
        name: 'SetUserPremod',
        variables: {
          input: { userId: 'u1', premod: true, message: 'Your comments will be checked.' },
        },
      },
    ]),
  );
  fireEvent.keyDown(drawer.getByLabelText('Action'), { key: 'Escape' });
  expect(onClose).toHaveBeenCalled();
});

test('role changes are offered to admins only, and send setUserRole', async () => {
  const sent = serveUser();
  const asModerator = await openDrawer();
  expect(asModerator.drawer.queryByRole('option', { name: 'Change role' })).toBeNull();
  fireEvent.click(asModerator.drawer.getByRole('button', { name: 'Close' }));
  expect(asModerator.onClose).toHaveBeenCalled();
  asModerator.unmount();

  const { drawer } = await openDrawer({ ...TEST_MODERATOR, role: 'ADMIN' });
  fireEvent.change(drawer.getByLabelText('Action'), { target: { value: 'role' } });
  fireEvent.change(drawer.getByLabelText('New role'), { target: { value: 'STAFF' } });
  apply(drawer, 'role', 'Welcome to the team.');
  await waitFor(() =>
    expect(sent).toEqual([
      {
        name: 'SetUserRole',
        variables: { input: { userId: 'u1', role: 'STAFF', message: 'Welcome to the team.' } },
      },
    ]),
  );
});

test('from a card: the author button opens the drawer; `b` asks, then bans', async () => {
  const sent = serveUser();
  server.use(
    createFakeLive().handler,
    graphql.query('ModerateSetup', () =>
      HttpResponse.json({
        data: {
          settings: { premod: 'ALL', bannedWords: [], suspectWords: [] },
          sites: [],
          stories: { edges: [] },
        },
      }),
    ),
    graphql.query('ModerationCounts', () =>
      HttpResponse.json({
        data: {
          moderationCounts: { pending: 1, reported: 0, unmoderated: 0, approved: 0, rejected: 0 },
        },
      }),
    ),
    graphql.query('ModerationQueue', () =>
      HttpResponse.json({ data: queueConnection([makeQueueComment(1)]) }),
    ),
  );
  const env = await createTestConsoleEnv({ token: 'token' });
  renderInConsole(<ModeratePage />, env, { path: '/moderate/pending', viewer: TEST_MODERATOR });
  fireEvent.click(await screen.findByRole('button', { name: 'user1' }));
  const drawer = await screen.findByRole('dialog', { name: 'user1' });
  fireEvent.keyDown(drawer, { key: 'Escape' });
  expect(screen.queryByRole('dialog')).toBeNull();

  fireEvent.keyDown(window, { key: 'b' });
  const confirm = within(await screen.findByRole('dialog', { name: 'Ban user1?' }));
  fireEvent.change(confirm.getByLabelText(/Message to user1/), { target: { value: 'Bye.' } });
  fireEvent.click(confirm.getByRole('button', { name: 'Ban user1' }));
  await waitFor(() =>
    expect(sent).toEqual([
      { name: 'BanUser', variables: { input: { userId: 'u1', message: 'Bye.' } } },
    ]),
  );
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

  fireEvent.keyDown(window, { key: '?' });
  const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
  expect(within(help).getByText('Single comment view on or off')).toBeTruthy();
  fireEvent.keyDown(help, { key: 'Escape' });
  expect(screen.queryByRole('dialog')).toBeNull();
});
