import { fireEvent, screen, waitFor } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole } from '../../testing/renderConsole';
import { LoginPage } from './LoginPage';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  // The session keeps its token in the page's storage; each test starts signed out.
  window.localStorage.clear();
});
afterAll(() => server.close());

async function renderLogin() {
  const env = await createTestConsoleEnv();
  return { env, ...renderInConsole(<LoginPage />, env, { path: '/admin/login' }) };
}

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

test('signs in with the typed email and password, keeps the token and goes to the console', async () => {
  const sent: unknown[] = [];
  server.use(
    graphql.mutation('ConsoleSignIn', ({ variables }) => {
      sent.push(variables);
      return HttpResponse.json({
        data: { signIn: { token: 'tok-1', user: { id: 'u1', role: 'ADMIN' } } },
      });
    }),
  );
  const { env, location } = await renderLogin();
  fill('Email', ' ada@example.com ');
  fill('Password', 'secret pass');
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  await waitFor(() => expect(location.history.at(-1)).toBe('/admin'));
  expect(sent).toEqual([{ input: { email: 'ada@example.com', password: 'secret pass' } }]);
  expect(env.session.getToken()).toBe('tok-1');
});

test('shows the text of INVALID_CREDENTIALS and stays signed out', async () => {
  server.use(
    graphql.mutation('ConsoleSignIn', () =>
      HttpResponse.json({
        data: null,
        errors: [{ message: 'nope', extensions: { code: 'INVALID_CREDENTIALS' } }],
      }),
    ),
  );
  const { env, location } = await renderLogin();
  fill('Email', 'ada@example.com');
  fill('Password', 'wrong one');
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  expect((await screen.findByRole('alert')).textContent).toBe(
    'That email and password do not match.',
  );
  expect(env.session.getToken()).toBeNull();
  expect(location.history).toEqual(['/admin/login']);
});

test('empty fields are marked and nothing is sent', async () => {
  // No handler: a request would fail the test (onUnhandledRequest: 'error').
  await renderLogin();
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  const email = screen.getByLabelText('Email');
  expect(email.getAttribute('aria-invalid')).toBe('true');
  const describedBy = email.getAttribute('aria-describedby') ?? '';
  expect(document.getElementById(describedBy)?.textContent).toBe('Enter your email address.');
});

test('forgot password sends the address and answers the same for every address', async () => {
  const sent: unknown[] = [];
  server.use(
    graphql.mutation('ConsoleRequestPasswordReset', ({ variables }) => {
      sent.push(variables);
      return HttpResponse.json({ data: { requestPasswordReset: { ok: true } } });
    }),
  );
  await renderLogin();
  fill('Email', 'ada@example.com');
  fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }));
  expect(screen.getByRole('heading', { name: 'Reset your password' })).toBe(document.activeElement);
  expect(screen.getByLabelText<HTMLInputElement>('Email address').value).toBe('ada@example.com');
  fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
  expect((await screen.findByRole('status')).textContent).toContain(
    'If that address has an account, we sent a link',
  );
  expect(sent).toEqual([{ input: { email: 'ada@example.com' } }]);
  fireEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));
  expect(screen.getByRole('button', { name: 'Forgot password?' })).toBe(document.activeElement);
});
