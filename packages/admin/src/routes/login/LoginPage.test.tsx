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
  // The console's language goes with it: the account's emails follow it.
  expect(sent).toEqual([
    { input: { email: 'ada@example.com', password: 'secret pass', locale: 'en' } },
  ]);
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

test('asks for the authenticator code after a right password, and signs in with the ticket', async () => {
  const second: unknown[] = [];
  server.use(
    graphql.mutation('ConsoleSignIn', () =>
      HttpResponse.json({
        data: null,
        errors: [
          { message: 'code', extensions: { code: 'TWO_FACTOR_CODE_REQUIRED', ticket: 'tkt-1' } },
        ],
      }),
    ),
    graphql.mutation('ConsoleSignInSecondFactor', ({ variables }) => {
      second.push(variables);
      if (variables.input.code === '000000') {
        return HttpResponse.json({
          data: null,
          errors: [{ message: 'no', extensions: { code: 'TWO_FACTOR_CODE_INVALID' } }],
        });
      }
      return HttpResponse.json({
        data: {
          signInSecondFactor: {
            token: 'tok-2fa',
            deviceToken: 'dev-1',
            user: { id: 'u1', role: 'ADMIN' },
          },
        },
      });
    }),
  );
  const { env, location } = await renderLogin();
  fill('Email', 'ada@example.com');
  fill('Password', 'secret pass');
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  const code = await screen.findByLabelText('Authentication code');
  expect(env.session.getToken()).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  expect(code.getAttribute('aria-invalid')).toBe('true');
  expect(second).toEqual([]);
  fill('Authentication code', '000000');
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  await waitFor(() =>
    expect(screen.getByText(/That code is not right or was used already/)).toBeTruthy(),
  );
  fill('Authentication code', '123456');
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  await waitFor(() => expect(location.history.at(-1)).toBe('/admin'));
  expect(second).toEqual([
    { input: { ticket: 'tkt-1', code: '000000', locale: 'en' } },
    { input: { ticket: 'tkt-1', code: '123456', locale: 'en' } },
  ]);
  expect(env.session.getToken()).toBe('tok-2fa');
  // This browser is remembered for the account, as after a sign-in without a code.
  expect(window.localStorage.getItem('parley.devices')).toContain('dev-1');
});
