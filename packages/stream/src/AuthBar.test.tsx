import { act, fireEvent, screen, waitFor } from '@testing-library/preact';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { AuthBar } from './AuthBar';
import { setAuthNotice } from './auth/authNotice';
import type { StreamData } from './StreamContext';
import { createTestEnv, renderInStream } from './testing/createTestEnv';
import type { StreamSettings, Viewer } from './StreamContext';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  jest.restoreAllMocks();
});
afterAll(() => server.close());

const settings: StreamSettings = {
  editWindowSeconds: 30,
  maxCommentLength: 2000,
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

const ann: Viewer = {
  id: 'u1',
  username: 'ann',
  avatarUrl: null,
  badges: [],
  isGuest: false,
  email: 'ann@example.com',
  role: 'COMMENTER',
  status: 'ACTIVE',
  suspendedUntil: null,
};

const data = (viewer: Viewer | null, overrides: Partial<StreamSettings> = {}): StreamData => ({
  viewer,
  settings: { ...settings, ...overrides },
  story: {} as StreamData['story'],
  refetch: () => undefined,
});

function renderBar(viewer: Viewer | null, overrides: Partial<StreamSettings> = {}) {
  const env = createTestEnv();
  const view = renderInStream(<AuthBar />, env, data(viewer, overrides));
  return { env, ...view };
}

test('signed out: Sign in and Sign up open the popup on their form', () => {
  const open = jest.spyOn(window, 'open').mockReturnValue(null);
  renderBar(null);
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  expect(open.mock.calls[0]![0]).toContain('/embed/auth?mode=signin&locale=en');
  fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
  expect(open.mock.calls[1]![0]).toContain('/embed/auth?mode=signup&locale=en');
  expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
});

test('offers no Sign up when sign-up is closed', () => {
  renderBar(null, { signUpOpen: false });
  expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Sign up' })).toBeNull();
});

test('a blocked popup is explained in the bar', () => {
  jest.spyOn(window, 'open').mockReturnValue(null);
  renderBar(null);
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  expect(screen.getByRole('alert').textContent).toBe(
    'Your browser blocked the sign-in window. Allow pop-ups for this site, then try again.',
  );
});

test('signed in: the name and Sign out, which ends the session and tells the host', async () => {
  let signOutCalls = 0;
  server.use(
    graphql.mutation('SignOut', () => {
      signOutCalls += 1;
      return HttpResponse.json({ data: { signOut: { ok: true } } });
    }),
  );
  const { env } = renderBar(ann);
  await env.session.signIn('parley-token');
  expect(screen.getByText('Signed in as ann')).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
  await waitFor(() => expect(env.session.getToken()).toBeNull());
  expect(signOutCalls).toBe(1);
  expect(env.bridge.sent).toContainEqual({ type: 'event', payload: { name: 'signedOut' } });
});

test('signs out on this device even when the server cannot be reached', async () => {
  server.use(graphql.mutation('SignOut', () => HttpResponse.error()));
  const { env } = renderBar(ann);
  await env.session.signIn('parley-token');
  fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
  await waitFor(() => expect(env.session.getToken()).toBeNull());
});

test('tells a banned or suspended reader where they stand', () => {
  const { unmount } = renderBar({ ...ann, status: 'BANNED' });
  expect(screen.getByText('Your account is banned from commenting.')).toBeTruthy();
  unmount();
  renderBar({ ...ann, status: 'SUSPENDED', suspendedUntil: '2031-03-04T10:00:00Z' });
  expect(screen.getByText(/^Your account is suspended until March 4, 2031/)).toBeTruthy();
});

test('shows a notice raised while it was not mounted (the stream remounts on sign-out)', () => {
  const env = createTestEnv();
  setAuthNotice(env.session, { key: 'error.TOKEN_EXPIRED' });
  renderInStream(<AuthBar />, env, data(null));
  expect(screen.getByRole('alert').textContent).toBe(
    'Your session has ended. Please sign in again.',
  );
});

describe('host SSO', () => {
  test('login from the host exchanges its token and keeps the Parley token', async () => {
    let variables: Record<string, unknown> = {};
    server.use(
      graphql.mutation('SignInWithSso', ({ variables: v }) => {
        variables = v;
        return HttpResponse.json({ data: { signInWithSso: { token: 'parley-token' } } });
      }),
    );
    const { env } = renderBar(null);
    act(() => env.bridge.emit('login', { token: 'host-token' }));
    await waitFor(() => expect(env.session.getToken()).toBe('parley-token'));
    // The frame's language: the reader's emails follow it.
    expect(variables).toEqual({ input: { token: 'host-token', locale: 'en' } });
  });

  test('an expired host token asks the host for a new one and says so', async () => {
    server.use(
      graphql.mutation('SignInWithSso', () =>
        HttpResponse.json({
          errors: [{ message: 'expired', extensions: { code: 'TOKEN_EXPIRED' } }],
          data: null,
        }),
      ),
    );
    const { env } = renderBar(null);
    act(() => env.bridge.emit('login', { token: 'old-host-token' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'Your site’s sign-in has expired. Reload the page or sign in to the site again to comment.',
    );
    expect(env.bridge.sent).toContainEqual({ type: 'tokenExpired', payload: {} });
    expect(env.session.getToken()).toBeNull();
  });

  test('logout from the host signs out', async () => {
    const { env } = renderBar(ann);
    await env.session.signIn('parley-token');
    act(() => env.bridge.emit('logout', {}));
    expect(env.session.getToken()).toBeNull();
  });

  test('stops listening when unmounted', async () => {
    let calls = 0;
    server.use(
      graphql.mutation('SignInWithSso', () => {
        calls += 1;
        return HttpResponse.json({ data: { signInWithSso: { token: 'parley-token' } } });
      }),
    );
    const { env, unmount } = renderBar(null);
    act(() => {
      unmount();
    });
    env.bridge.emit('login', { token: 'host-token' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(0);
    expect(env.session.getToken()).toBeNull();
  });
});
