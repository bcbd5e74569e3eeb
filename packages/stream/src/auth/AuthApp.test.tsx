import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTransport } from '@parley/transport';
import { PARLEY_NAMESPACE } from '@parley/contract';
import { createTranslator } from '../i18n/createTranslator';
import { TEST_GRAPHQL_URL } from '../testing/createTestEnv';
import { AuthApp } from './AuthApp';
import type { AuthMode } from './openAuthPopup';
import { loadPopupCatalog } from './popupCatalog';
import type { PopupEnv } from './PopupEnv';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const POPUP_ORIGIN = 'http://parley.test';

/** A popup window whose opener, postMessage and close are recorded. */
function fakePopupWindow(opener: { postMessage: jest.Mock; closed: boolean } | null) {
  return {
    opener,
    close: jest.fn(),
    location: { origin: POPUP_ORIGIN },
    document,
  };
}

async function renderPopup(
  mode: AuthMode,
  options: {
    opener?: { postMessage: jest.Mock; closed: boolean } | null;
    locale?: 'en' | 'es';
  } = {},
) {
  const opener =
    options.opener === undefined ? { postMessage: jest.fn(), closed: false } : options.opener;
  const win = fakePopupWindow(opener);
  const locale = options.locale ?? 'en';
  const transport = createTransport({ url: TEST_GRAPHQL_URL, retryDelaysMs: [] });
  const env: PopupEnv = {
    t: createTranslator(locale, await loadPopupCatalog(locale)),
    locale,
    client: transport.client,
    window: win as unknown as Window,
  };
  render(<AuthApp env={env} mode={mode} />);
  return { win, opener };
}

const type = (label: string, value: string) =>
  fireEvent.input(screen.getByLabelText(label), { target: { value } });

/** The inline message of a field, through its aria-describedby. */
const problemOf = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id === null ? null : document.getElementById(id)?.textContent;
};

test('each mode has its labelled fields and button, and the modes switch', async () => {
  await renderPopup('signin');
  expect(screen.getByLabelText('Email')).toBeTruthy();
  expect(screen.getByLabelText('Password')).toBeTruthy();
  expect(screen.queryByLabelText('Username')).toBeNull();
  expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  expect(document.activeElement).toBe(screen.getByLabelText('Email'));

  fireEvent.click(screen.getByRole('button', { name: 'Create an account' }));
  expect(screen.getByRole('heading').textContent).toBe('Create an account');
  for (const label of ['Email', 'Username', 'Password'])
    expect(screen.getByLabelText(label)).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Sign up' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();

  fireEvent.click(screen.getByRole('button', { name: 'I already have an account' }));
  fireEvent.click(screen.getByRole('button', { name: 'Forgot your password?' }));
  expect(screen.getByLabelText('Email')).toBeTruthy();
  expect(screen.queryByLabelText('Password')).toBeNull();
  expect(screen.getByRole('button', { name: 'Send reset link' })).toBeTruthy();
});

test('says what is wrong with each field as the reader types, not before', async () => {
  await renderPopup('signup');
  expect(problemOf('Email')).toBeNull();
  expect(problemOf('Username')).toBeNull();
  expect(problemOf('Password')).toBeNull();

  type('Email', 'ann@example');
  expect(problemOf('Email')).toBe('Enter an email address like name@example.com.');
  expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
  type('Email', 'ann@example.com');
  expect(problemOf('Email')).toBeNull();

  type('Username', 'an');
  expect(problemOf('Username')).toBe('A username has 3 to 30 characters.');
  type('Username', 'ann!');
  expect(problemOf('Username')).toBe('A username may contain only letters, digits, “_” and “.”.');
  type('Username', 'Ånn_1.x');
  expect(problemOf('Username')).toBeNull();

  type('Password', 'short');
  expect(problemOf('Password')).toBe('Use at least 8 characters.');
  type('Password', 'long enough');
  expect(problemOf('Password')).toBeNull();
});

test('does not send a form with a wrong field; shows every message and focuses the first', async () => {
  let sent = false;
  server.use(
    graphql.mutation('SignUp', () => {
      sent = true;
      return HttpResponse.json({ data: { signUp: { email: 'ann@example.com' } } });
    }),
  );
  await renderPopup('signup');
  type('Email', 'ann@example.com');
  fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
  expect(problemOf('Username')).toBe('A username has 3 to 30 characters.');
  expect(problemOf('Password')).toBe('Use at least 8 characters.');
  expect(document.activeElement).toBe(screen.getByLabelText('Username'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(sent).toBe(false);
});

test('signs up with the emailed code, hands the token to the opener at our exact origin, and closes', async () => {
  let variables: Record<string, unknown> = {};
  let confirmed: Record<string, unknown> = {};
  server.use(
    graphql.mutation('SignUp', ({ variables: v }) => {
      variables = v;
      return HttpResponse.json({ data: { signUp: { email: 'ann@example.com' } } });
    }),
    graphql.mutation('ConfirmSignUp', ({ variables: v }) => {
      confirmed = v;
      return HttpResponse.json({
        data: { confirmSignUp: { token: 'parley-token', deviceToken: null } },
      });
    }),
  );
  const { win, opener } = await renderPopup('signup');
  type('Email', '  ann@example.com ');
  type('Username', 'ann');
  type('Password', ' my pass phrase ');
  fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
  // The same words whether or not the address has an account: its owner learns which by email.
  expect((await screen.findByRole('status')).textContent).toBe(
    'We sent an email to ann@example.com. Enter the code it holds to finish creating your account (it works for 30 minutes).',
  );
  expect(variables).toEqual({
    // The honeypot goes empty, as people leave it.
    // The popup's language: the code's email and the account's later ones are written in it.
    input: {
      email: 'ann@example.com',
      username: 'ann',
      password: ' my pass phrase ',
      locale: 'en',
      website: '',
    },
  });
  expect(win.close).not.toHaveBeenCalled();
  type('Code', '12345');
  expect(problemOf('Code')).toBe('Enter the 6 digits from the email.');
  type('Code', ' 123456 ');
  expect(problemOf('Code')).toBeNull();
  // The username again, as typed: the email says if it is taken, and it can be changed here.
  expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('ann');
  fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
  await waitFor(() => expect(win.close).toHaveBeenCalled());
  expect(confirmed).toEqual({
    input: { email: 'ann@example.com', code: '123456', username: 'ann' },
  });
  expect(opener!.postMessage).toHaveBeenCalledTimes(1);
  expect(opener!.postMessage).toHaveBeenCalledWith(
    { ns: PARLEY_NAMESPACE, type: 'token', payload: { token: 'parley-token' } },
    POPUP_ORIGIN,
  );
  // The token travels only by postMessage: nothing a partitioned frame could not read anyway.
  expect(document.cookie).toBe('');
  expect(localStorage.length).toBe(0);
  expect(sessionStorage.length).toBe(0);
});

test('says a wrong code by its code, and can start again from the first step', async () => {
  server.use(
    graphql.mutation('SignUp', () =>
      HttpResponse.json({ data: { signUp: { email: 'ann@example.com' } } }),
    ),
    graphql.mutation('ConfirmSignUp', () =>
      HttpResponse.json({
        errors: [{ message: 'never shown', extensions: { code: 'CODE_INVALID', field: 'code' } }],
        data: null,
      }),
    ),
  );
  const { win } = await renderPopup('signup');
  type('Email', 'ann@example.com');
  type('Username', 'ann');
  type('Password', 'long enough');
  fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
  await screen.findByLabelText('Code');
  type('Code', '000000');
  fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
  await waitFor(() =>
    expect(screen.getByRole('alert').textContent).toBe(
      'That code is not right, or it has expired. Check the latest email, or start again for a new code.',
    ),
  );
  expect(win.close).not.toHaveBeenCalled();
  fireEvent.click(screen.getByRole('button', { name: 'Start again' }));
  expect(screen.getByLabelText('Email')).toBeTruthy();
  expect(screen.queryByLabelText('Code')).toBeNull();
});

test('signs in and hands the token over', async () => {
  let variables: Record<string, unknown> = {};
  server.use(
    graphql.mutation('SignIn', ({ variables: v }) => {
      variables = v;
      return HttpResponse.json({ data: { signIn: { token: 'parley-token' } } });
    }),
  );
  const { win, opener } = await renderPopup('signin');
  type('Email', 'ann@example.com');
  type('Password', 'x');
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  await waitFor(() => expect(win.close).toHaveBeenCalled());
  expect(variables).toEqual({ input: { email: 'ann@example.com', password: 'x', locale: 'en' } });
  expect(opener!.postMessage.mock.calls[0]).toEqual([
    { ns: PARLEY_NAMESPACE, type: 'token', payload: { token: 'parley-token' } },
    POPUP_ORIGIN,
  ]);
});

test('asks a staff account with two-factor sign-in for its code, then hands the token over', async () => {
  const second: Record<string, unknown>[] = [];
  server.use(
    graphql.mutation('SignIn', () =>
      HttpResponse.json({
        data: null,
        errors: [
          { message: 'code', extensions: { code: 'TWO_FACTOR_CODE_REQUIRED', ticket: 'tkt' } },
        ],
      }),
    ),
    graphql.mutation('SignInSecondFactor', ({ variables }) => {
      second.push(variables);
      return variables.input.code === '111111'
        ? HttpResponse.json({
            data: null,
            errors: [{ message: 'no', extensions: { code: 'TWO_FACTOR_CODE_INVALID' } }],
          })
        : HttpResponse.json({
            data: { signInSecondFactor: { token: 'strong-token', deviceToken: null } },
          });
    }),
  );
  const { win, opener } = await renderPopup('signin');
  type('Email', 'mod@example.com');
  type('Password', 'x');
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  expect((await screen.findByRole('status')).textContent).toBe(
    'Enter the code from your authenticator app.',
  );
  type('Code', '111111');
  fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
  expect(await screen.findByText(/not right or was used already/)).toBeTruthy();
  expect(win.close).not.toHaveBeenCalled();
  type('Code', '222222');
  fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
  await waitFor(() => expect(win.close).toHaveBeenCalled());
  expect(second).toEqual([
    { input: { ticket: 'tkt', code: '111111', locale: 'en' } },
    { input: { ticket: 'tkt', code: '222222', locale: 'en' } },
  ]);
  expect(opener!.postMessage.mock.calls[0]?.[0]).toMatchObject({
    payload: { token: 'strong-token' },
  });
});

test('the code step can go back to the password (its ticket lasts five minutes)', async () => {
  server.use(
    graphql.mutation('SignIn', () =>
      HttpResponse.json({
        data: null,
        errors: [
          { message: 'code', extensions: { code: 'TWO_FACTOR_CODE_REQUIRED', ticket: 'tkt' } },
        ],
      }),
    ),
  );
  await renderPopup('signin');
  type('Email', 'mod@example.com');
  type('Password', 'x');
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  await screen.findByLabelText('Code');
  fireEvent.click(screen.getByRole('button', { name: 'Start again' }));
  expect(await screen.findByLabelText('Password')).toBeTruthy();
});

test.each([
  ['signin', 'INVALID_CREDENTIALS', {}, 'That email and password do not match.'],
  ['signup', 'USERNAME_TAKEN', { field: 'username' }, 'That username is taken.'],
  [
    'signin',
    'RATE_LIMITED',
    { retryAfterSeconds: 30 },
    'You are going a little fast. Try again in 30 seconds.',
  ],
  ['signup', 'INTERNAL', {}, 'Something went wrong on our side. Please try again.'],
] as const)('shows %s %s by its code next to the form', async (mode, code, extensions, text) => {
  const operation = mode === 'signin' ? 'SignIn' : 'SignUp';
  server.use(
    graphql.mutation(operation, () =>
      HttpResponse.json({
        errors: [
          { message: 'server text that is never shown', extensions: { code, ...extensions } },
        ],
        data: null,
      }),
    ),
  );
  const { win, opener } = await renderPopup(mode);
  type('Email', 'ann@example.com');
  if (mode === 'signup') type('Username', 'ann');
  type('Password', 'long enough');
  fireEvent.click(screen.getByRole('button', { name: mode === 'signin' ? 'Sign in' : 'Sign up' }));
  await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(text));
  expect(opener!.postMessage).not.toHaveBeenCalled();
  expect(win.close).not.toHaveBeenCalled();
  // What was typed stays, so the reader can correct it.
  expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ann@example.com');
});

test('opened directly (no opener), it says the reader is signed in and stays open', async () => {
  server.use(
    graphql.mutation('SignIn', () =>
      HttpResponse.json({ data: { signIn: { token: 'parley-token' } } }),
    ),
  );
  const { win } = await renderPopup('signin', { opener: null });
  type('Email', 'ann@example.com');
  type('Password', 'x');
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  expect(await screen.findByText('You are signed in; you can close this window.')).toBeTruthy();
  expect(win.close).not.toHaveBeenCalled();
});

test('asks for a reset link and says it is on its way', async () => {
  let variables: Record<string, unknown> = {};
  server.use(
    graphql.mutation('RequestPasswordReset', ({ variables: v }) => {
      variables = v;
      return HttpResponse.json({ data: { requestPasswordReset: { ok: true } } });
    }),
  );
  await renderPopup('forgot');
  type('Email', 'ann@example.com ');
  fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
  expect(
    await screen.findByText(
      'If an account uses ann@example.com, a link to reset its password is on its way. Check your inbox.',
    ),
  ).toBeTruthy();
  expect(variables).toEqual({ input: { email: 'ann@example.com' } });
});

test('speaks Spanish with ?locale=es, and asks for the emails in Spanish', async () => {
  let variables: Record<string, unknown> = {};
  server.use(
    graphql.mutation('SignUp', ({ variables: v }) => {
      variables = v;
      return HttpResponse.json({ data: { signUp: { email: 'ana@example.com' } } });
    }),
  );
  await renderPopup('signup', { locale: 'es' });
  expect(screen.getByLabelText('Correo electrónico')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Registrarse' })).toBeTruthy();
  type('Contraseña', 'corta');
  expect(problemOf('Contraseña')).toBe('Usa al menos 8 caracteres.');
  type('Correo electrónico', 'ana@example.com');
  type('Nombre de usuario', 'ana');
  type('Contraseña', 'una frase larga');
  fireEvent.click(screen.getByRole('button', { name: 'Registrarse' }));
  await screen.findByRole('status');
  expect(variables).toMatchObject({ input: { email: 'ana@example.com', locale: 'es' } });
});
