import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { App } from './App';
import { createTestConsoleEnv } from './testing/renderConsole';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function installed(value: boolean) {
  return graphql.query('ConsoleInstalled', () =>
    HttpResponse.json({ data: { settings: { installed: value } } }),
  );
}

async function renderAt(path: string, token: string | null = null) {
  const env = await createTestConsoleEnv({ token });
  const location = memoryLocation({ path, record: true });
  render(
    <Router hook={location.hook}>
      <App env={env} />
    </Router>,
  );
  return { env, location };
}

/** A moderator whose session may (or may not yet) act as staff. */
function moderatorWith(staffAccess: string) {
  return graphql.query('ConsoleViewer', () =>
    HttpResponse.json({
      data: { viewer: { id: 'u1', username: 'mo', email: null, role: 'MODERATOR', staffAccess } },
    }),
  );
}

test('before install, /admin leads to the install wizard', async () => {
  server.use(installed(false));
  const { location } = await renderAt('/admin/moderate');
  await waitFor(() => expect(location.history.at(-1)).toBe('/install'));
});

test('after install, /install leads to the console, and without a session to the login page', async () => {
  server.use(installed(true));
  const { location } = await renderAt('/install');
  await waitFor(() => expect(location.history.at(-1)).toBe('/admin/login'));
});

test('a commenter who signs in is told why the console is closed to them', async () => {
  server.use(
    installed(true),
    graphql.query('ConsoleViewer', () =>
      HttpResponse.json({
        data: { viewer: { id: 'u1', username: 'ada', email: 'a@x.test', role: 'COMMENTER' } },
      }),
    ),
  );
  await renderAt('/admin/moderate', 'token');
  expect(await screen.findByRole('alert')).toHaveProperty(
    'textContent',
    expect.stringContaining('Only moderators and admins can use the console'),
  );
});

test('a moderator gets the navigation, with Alerts, without Configure (admins only)', async () => {
  server.use(installed(true), moderatorWith('GRANTED'));
  await renderAt('/admin/dashboard', 'token');
  expect(await screen.findByRole('link', { name: 'Moderate' })).toBeTruthy();
  expect(screen.queryByRole('link', { name: 'Configure' })).toBeNull();
  expect(screen.getByRole('link', { name: 'Alerts' }).getAttribute('href')).toBe('/admin/alerts');
});

test('a moderator who must set up two-factor sign-in is taken to Security, and nowhere else', async () => {
  server.use(
    installed(true),
    moderatorWith('ENROLMENT_NEEDED'),
    graphql.query('ConsoleSecurity', () =>
      HttpResponse.json({
        data: {
          viewer: {
            id: 'u1',
            twoFactorEnabled: false,
            recoveryCodesLeft: 0,
            staffAccess: 'ENROLMENT_NEEDED',
            sessions: [],
          },
        },
      }),
    ),
  );
  const { location } = await renderAt('/admin/moderate', 'token');
  expect(await screen.findByRole('heading', { name: 'Security' })).toBeTruthy();
  expect(location.history.at(-1)).toBe('/admin/security');
  expect(screen.queryByRole('link', { name: 'Moderate' })).toBeNull();
  expect(await screen.findByText(/requires two-factor sign-in for staff/)).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Set up two-factor sign-in' })).toBeTruthy();
});

test('a session that skipped the second factor is asked to sign in again', async () => {
  server.use(installed(true), moderatorWith('SECOND_FACTOR_NEEDED'));
  await renderAt('/admin/moderate', 'token');
  expect((await screen.findByRole('alert')).textContent).toMatch(/without your authenticator app/);
  expect(screen.queryByRole('link', { name: 'Moderate' })).toBeNull();
  expect(screen.getByRole('button', { name: 'Sign in again' })).toBeTruthy();
});

test('Sign out ends the session on the server with its token, then forgets it', async () => {
  const sent: (string | null)[] = [];
  server.use(
    installed(true),
    moderatorWith('GRANTED'),
    graphql.mutation('ConsoleSignOut', ({ request }) => {
      sent.push(request.headers.get('authorization'));
      return HttpResponse.json({ data: { signOut: { ok: true } } });
    }),
  );
  const { location, env } = await renderAt('/admin/dashboard', 'token');
  (await screen.findByRole('button', { name: 'Sign out' })).click();
  await waitFor(() => expect(location.history.at(-1)).toBe('/admin/login'));
  expect(sent).toEqual(['Bearer token']);
  expect(env.session.getToken()).toBeNull();
});

test('an expired session goes back to the login page', async () => {
  server.use(
    installed(true),
    graphql.query('ConsoleViewer', () =>
      HttpResponse.json({
        errors: [{ message: 'expired', extensions: { code: 'TOKEN_EXPIRED' } }],
        data: null,
      }),
    ),
  );
  const { location, env } = await renderAt('/admin/moderate', 'token');
  await waitFor(() => expect(location.history.at(-1)).toBe('/admin/login'));
  expect(env.session.getToken()).toBeNull();
});

test('the bare /account link (from the deletion email) opens the account pages, not the console', async () => {
  server.use(installed(true));
  const { location } = await renderAt('/account');
  expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
  expect(location.history.at(-1)).toBe('/account');
});

test('the language switch keeps the choice for the staff member’s emails too, and says when that fails', async () => {
  const sent: unknown[] = [];
  let refuse = false;
  server.use(
    installed(true),
    moderatorWith('GRANTED'),
    graphql.mutation('ConsoleUpdateLocale', ({ variables }) => {
      sent.push(variables.input);
      return refuse
        ? HttpResponse.json({
            errors: [{ message: 'Slow down.', extensions: { code: 'RATE_LIMITED' } }],
          })
        : HttpResponse.json({ data: { updateLocale: { user: { id: 'u1' } } } });
    }),
  );
  try {
    await renderAt('/admin/dashboard', 'token');
    fireEvent.change(await screen.findByRole('combobox', { name: 'Language' }), {
      target: { value: 'es' },
    });
    await waitFor(() => expect(sent).toEqual([{ locale: 'es' }]));
    expect(screen.queryByText(/Your emails/)).toBeNull();
    refuse = true;
    // (Rendered without the console's language provider: the texts stay English here.)
    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), {
      target: { value: 'fr' },
    });
    expect(
      await screen.findByText(
        'Your emails were left in their language: Too many attempts. Wait a moment and try again.',
        { exact: false },
      ),
    ).toBeTruthy();
    expect(sent).toEqual([{ locale: 'es' }, { locale: 'fr' }]);
  } finally {
    localStorage.removeItem('console.locale');
  }
});
