import { BroadcastChannel as NodeChannel } from 'node:worker_threads';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTransport } from '@parley/transport';
import { createTranslator } from '../i18n/createTranslator';
import { TEST_GRAPHQL_URL } from '../testing/createTestEnv';
import { AuthApp } from './AuthApp';
import { loadPopupCatalog } from './popupCatalog';
import type { PopupEnv } from './PopupEnv';
import { signUpLinkOf, SIGN_UP_HANDOVER_WAIT_MS } from './signUpLink';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/**
 * A page of Parley's origin: the sign-up window (opened by a frame: `opener`) or the email link's
 * tab (no opener). Both get Node's BroadcastChannel, which joins channels of one name across the
 * process as a browser joins a browser's same-origin pages.
 */
function page(opener: { postMessage: jest.Mock; closed: boolean } | null) {
  return {
    opener,
    close: jest.fn(),
    location: { origin: 'http://parley.test' },
    document,
    setTimeout: window.setTimeout.bind(window),
    clearTimeout: window.clearTimeout.bind(window),
    BroadcastChannel: NodeChannel,
  };
}

async function envOf(win: ReturnType<typeof page>): Promise<PopupEnv> {
  return {
    t: createTranslator('en', await loadPopupCatalog('en')),
    locale: 'en',
    client: createTransport({ url: TEST_GRAPHQL_URL, retryDelaysMs: [] }).client,
    window: win as unknown as Window,
  };
}

function answers(confirm: () => Response) {
  const confirmed: unknown[] = [];
  server.use(
    graphql.mutation('SignUp', ({ variables }) =>
      HttpResponse.json({
        data: { signUp: { email: (variables.input as { email: string }).email } },
      }),
    ),
    graphql.mutation('ConfirmSignUp', ({ variables }) => {
      confirmed.push(variables.input);
      return confirm();
    }),
  );
  return confirmed;
}
const SESSION = () =>
  HttpResponse.json({ data: { confirmSignUp: { token: 'new-token', deviceToken: null } } });

const type = (label: string, value: string) =>
  fireEvent.input(screen.getByLabelText(label), { target: { value } });

test('reads the address and the code from the fragment the email links', () => {
  expect(signUpLinkOf('#sign-up=ann%40example.com&code=123456')).toEqual({
    email: 'ann@example.com',
    code: '123456',
  });
  expect(signUpLinkOf('#code=123456')).toBeNull();
  expect(signUpLinkOf('')).toBeNull();
});

test("the email's link finishes the sign-up, and the waiting window hands the session to the frame", async () => {
  const confirmed = answers(SESSION);
  const frame = { postMessage: jest.fn(), closed: false };
  const popup = page(frame);
  render(<AuthApp env={await envOf(popup)} mode="signup" />);
  type('Email', 'ann@example.com');
  type('Username', 'ann');
  type('Password', 'correct horse battery');
  fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
  await screen.findByLabelText('Code');

  // The link, opened in another tab of the same browser.
  const tab = page(null);
  render(
    <AuthApp
      env={await envOf(tab)}
      mode="signin"
      signUpLink={{ email: 'ann@example.com', code: '654321' }}
    />,
  );
  expect(
    await screen.findByText(
      'Your account is ready and you are signed in where you started. You can close this tab.',
    ),
  ).toBeTruthy();
  expect(confirmed).toEqual([{ email: 'ann@example.com', code: '654321' }]);
  // The waiting window gave the token to its frame and closed.
  await waitFor(() => expect(popup.close).toHaveBeenCalled());
  expect(frame.postMessage).toHaveBeenCalledWith(
    expect.objectContaining({ type: 'token', payload: { token: 'new-token' } }),
    'http://parley.test',
  );
});

test('without a waiting window the link says the account is ready to sign in to; a bad code, why', async () => {
  answers(SESSION);
  render(
    <AuthApp
      env={await envOf(page(null))}
      mode="signin"
      signUpLink={{ email: 'bo@example.com', code: '111111' }}
    />,
  );
  expect(
    await screen.findByText(
      'Your account is ready. Go back to the page you came from and sign in with your email and password.',
      {},
      { timeout: SIGN_UP_HANDOVER_WAIT_MS + 1000 },
    ),
  ).toBeTruthy();
});

test('a code that is wrong or used is said, coded', async () => {
  answers(() =>
    HttpResponse.json({
      data: null,
      errors: [{ message: 'no', extensions: { code: 'CODE_INVALID', field: 'code' } }],
    }),
  );
  render(
    <AuthApp
      env={await envOf(page(null))}
      mode="signin"
      signUpLink={{ email: 'cy@example.com', code: '000000' }}
    />,
  );
  expect((await screen.findByRole('alert')).textContent).toMatch(/code/i);
});
