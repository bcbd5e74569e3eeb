import { fireEvent, screen } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole } from '../../testing/renderConsole';
import { AccountPage } from './AccountPage';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

async function signIn() {
  const env = await createTestConsoleEnv();
  renderInConsole(<AccountPage />, env, { path: '/account' });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret pass' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  return env;
}

const signedIn = graphql.mutation('AccountSignIn', () =>
  HttpResponse.json({ data: { signIn: { token: 'commenter-token' } } }),
);

test('the deletion email’s page: sign in, see the date, cancel the deletion', async () => {
  const authorizations: (string | null)[] = [];
  server.use(
    signedIn,
    graphql.query('AccountDeletion', ({ request }) => {
      authorizations.push(request.headers.get('authorization'));
      return HttpResponse.json({
        data: {
          viewer: { id: 'u1', username: 'ada', deletionRequestedAt: '2026-11-20T10:00:00.000Z' },
        },
      });
    }),
    graphql.mutation('AccountCancelDeletion', ({ request }) => {
      authorizations.push(request.headers.get('authorization'));
      return HttpResponse.json({
        data: { cancelAccountDeletion: { user: { id: 'u1', deletionRequestedAt: null } } },
      });
    }),
  );
  const env = await signIn();
  const when = await screen.findByText((_, element) => element?.tagName === 'TIME');
  // Requested on the 20th, deleted seven days later.
  expect(when.getAttribute('datetime')).toBe('2026-11-27T10:00:00.000Z');
  fireEvent.click(screen.getByRole('button', { name: 'Cancel deletion' }));
  expect(await screen.findByText(/Deletion cancelled/)).toHaveProperty('role', 'status');
  expect(authorizations).toEqual(['Bearer commenter-token', 'Bearer commenter-token']);
  // A commenter's sign-in here is not the console's session.
  expect(env.session.getToken()).toBeNull();
});

test('an account with no deletion request says so', async () => {
  server.use(
    signedIn,
    graphql.query('AccountDeletion', () =>
      HttpResponse.json({
        data: { viewer: { id: 'u1', username: 'ada', deletionRequestedAt: null } },
      }),
    ),
  );
  await signIn();
  expect(await screen.findByText(/is not scheduled for deletion/)).toHaveProperty('role', 'status');
  expect(screen.queryByRole('button', { name: 'Cancel deletion' })).toBeNull();
});

test('wrong credentials show the coded message', async () => {
  server.use(
    graphql.mutation('AccountSignIn', () =>
      HttpResponse.json({
        data: null,
        errors: [{ message: 'x', extensions: { code: 'INVALID_CREDENTIALS' } }],
      }),
    ),
  );
  await signIn();
  expect((await screen.findByRole('alert')).textContent).toBe(
    'That email and password do not match.',
  );
});
