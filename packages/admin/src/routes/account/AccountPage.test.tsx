import { fireEvent, screen } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole } from '../../testing/renderConsole';
import { AccountPage } from './AccountPage';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  window.history.replaceState(null, '', '/');
});
afterAll(() => server.close());

/** Opens `path` as the email's link would, with `#token=…` when `token` is given. */
async function openLink(path: string, token: string | null) {
  window.history.replaceState(null, '', token === null ? path : `${path}#token=${token}`);
  const env = await createTestConsoleEnv();
  return { env, ...renderInConsole(<AccountPage />, env, { path }) };
}

/** A resolver answering the coded error the server gives for a bad link. */
function tokenError(code: string): Parameters<typeof graphql.mutation>[1] {
  return () => HttpResponse.json({ data: null, errors: [{ message: code, extensions: { code } }] });
}

describe.each([
  {
    page: 'confirm email',
    path: '/account/confirm-email',
    operation: 'AccountConfirmEmail',
    button: 'Confirm my email address',
    answer: { confirmEmail: { user: { id: 'u1', email: 'ada@example.com', emailVerified: true } } },
    success: 'ada@example.com is confirmed',
  },
  {
    page: 'unsubscribe',
    path: '/account/unsubscribe',
    operation: 'AccountUnsubscribe',
    button: 'Unsubscribe',
    answer: {
      unsubscribe: {
        user: {
          id: 'u1',
          notificationSettings: { onReply: false, onFeatured: false, onModeration: false },
        },
      },
    },
    success: 'You are unsubscribed',
  },
])('$page', ({ path, operation, button, answer, success }) => {
  test('sends the link’s token and says it worked', async () => {
    const sent: unknown[] = [];
    server.use(
      graphql.mutation(operation, ({ variables }) => {
        sent.push(variables);
        return HttpResponse.json({ data: answer });
      }),
    );
    await openLink(path, 'tok_A-1');
    // The token leaves the address bar as soon as it is read.
    expect(window.location.hash).toBe('');
    fireEvent.click(screen.getByRole('button', { name: button }));
    expect((await screen.findByRole('status')).textContent).toContain(success);
    expect(sent).toEqual([{ input: { token: 'tok_A-1' } }]);
  });

  test('says when the link has expired', async () => {
    server.use(graphql.mutation(operation, tokenError('TOKEN_EXPIRED')));
    await openLink(path, 'old');
    fireEvent.click(screen.getByRole('button', { name: button }));
    expect((await screen.findByRole('alert')).textContent).toBe('This link has expired.');
    // A dead link offers nothing more to click, only the way to a new one.
    expect(screen.queryByRole('button', { name: button })).toBeNull();
  });

  test('a server failure (the token unused) can be tried again', async () => {
    server.use(graphql.mutation(operation, tokenError('INTERNAL')));
    await openLink(path, 'tok');
    fireEvent.click(screen.getByRole('button', { name: button }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Something went wrong on the server. Try again.',
    );
    expect(screen.getByRole('button', { name: button })).toHaveProperty('disabled', false);
  });

  test('says when the link is not valid', async () => {
    server.use(graphql.mutation(operation, tokenError('TOKEN_INVALID')));
    await openLink(path, 'used');
    fireEvent.click(screen.getByRole('button', { name: button }));
    expect((await screen.findByRole('alert')).textContent).toContain('This link is not valid');
  });

  test('a link without its token says so and offers nothing to click', async () => {
    await openLink(path, null);
    expect(screen.getByRole('alert').textContent).toContain('This link is incomplete');
    expect(screen.queryByRole('button', { name: button })).toBeNull();
  });
});

describe('reset password', () => {
  const PATH = '/account/reset-password';

  test('checks both fields, then sends the new password with the token', async () => {
    const sent: unknown[] = [];
    server.use(
      graphql.mutation('AccountResetPassword', ({ variables }) => {
        sent.push(variables);
        return HttpResponse.json({
          data: { resetPassword: { token: 'session', user: { id: 'u1', username: 'ada' } } },
        });
      }),
    );
    const { env } = await openLink(PATH, 'reset-1');
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The passwords do not match.')).toBeTruthy();
    expect(sent).toEqual([]);

    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a long one' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), {
      target: { value: 'a long one' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect((await screen.findByRole('status')).textContent).toContain('Your password is changed');
    expect(sent).toEqual([{ input: { token: 'reset-1', password: 'a long one' } }]);
    // The commenter's new session is not the console's.
    expect(env.session.getToken()).toBeNull();
  });

  test('says when the link has expired, and how to get a new one', async () => {
    server.use(graphql.mutation('AccountResetPassword', tokenError('TOKEN_EXPIRED')));
    await openLink(PATH, 'old');
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a long one' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), {
      target: { value: 'a long one' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This link has expired.');
    expect(screen.getByText(/Ask for a new link/)).toBeTruthy();
    expect(screen.queryByLabelText('New password')).toBeNull();
  });
});

describe('accept a moderator invitation', () => {
  test('sends the chosen password with the invitation’s token, and says the role is theirs', async () => {
    const sent: unknown[] = [];
    server.use(
      graphql.mutation('AccountAcceptInvite', ({ variables }) => {
        sent.push(variables);
        return HttpResponse.json({
          data: {
            acceptModeratorInvite: { token: 'session', user: { id: 'u1', username: 'ada' } },
          },
        });
      }),
    );
    await openLink('/account/accept-invite', 'invite-1');
    expect(screen.getByRole('heading', { name: 'Accept the invitation to moderate' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a long one' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), {
      target: { value: 'a long one' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Accept and save password' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      'You are a moderator now, ada.',
    );
    expect(sent).toEqual([{ input: { token: 'invite-1', password: 'a long one' } }]);
  });

  test('says a withdrawn invitation is not valid, and whom to ask', async () => {
    server.use(graphql.mutation('AccountAcceptInvite', tokenError('TOKEN_INVALID')));
    await openLink('/account/accept-invite', 'gone');
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a long one' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), {
      target: { value: 'a long one' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Accept and save password' }));
    expect(await screen.findByText(/Ask the admin who invited you/)).toBeTruthy();
  });
});

describe('download', () => {
  const PATH = '/account/download';
  const created: Blob[] = [];
  beforeEach(() => {
    created.length = 0;
    // jsdom has no object URLs; the page's file is checked through what it was made from.
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        created.push(blob);
        return 'blob:parley/1';
      },
      revokeObjectURL: () => undefined,
    });
  });

  test('fetches the comments once and offers them as a JSON file', async () => {
    const data = {
      username: 'ada',
      generatedAt: '2026-11-21T10:00:00.000Z',
      comments: [
        {
          id: 'c1',
          storyUrl: 'https://news.test/a',
          body: 'Hello',
          status: 'NONE',
          createdAt: '2026-11-20T10:00:00.000Z',
          editedAt: null,
        },
      ],
    };
    const sent: unknown[] = [];
    server.use(
      graphql.mutation('AccountDownloadComments', ({ variables }) => {
        sent.push(variables);
        return HttpResponse.json({ data: { downloadCommentsData: data } });
      }),
    );
    await openLink(PATH, 'dl-1');
    fireEvent.click(screen.getByRole('button', { name: 'Prepare my download' }));
    expect((await screen.findByRole('status')).textContent).toContain('1 comment');
    const link = screen.getByRole('link', { name: 'Save parley-comments-ada.json' });
    expect(link.getAttribute('href')).toBe('blob:parley/1');
    expect(link.getAttribute('download')).toBe('parley-comments-ada.json');
    expect(JSON.parse(await created[0]!.text())).toEqual(data);
    expect(sent).toEqual([{ input: { token: 'dl-1' } }]);
  });

  test('says when the link has expired', async () => {
    server.use(graphql.mutation('AccountDownloadComments', tokenError('TOKEN_EXPIRED')));
    await openLink(PATH, 'old');
    fireEvent.click(screen.getByRole('button', { name: 'Prepare my download' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This link has expired.');
    expect(screen.queryByRole('button', { name: 'Prepare my download' })).toBeNull();
  });
});
