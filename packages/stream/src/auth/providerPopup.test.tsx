import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTransport, TransportError } from '@parley/transport';
import { PARLEY_NAMESPACE } from '@parley/contract';
import { createTranslator } from '../i18n/createTranslator';
import { TEST_GRAPHQL_URL } from '../testing/createTestEnv';
import { AuthApp } from './AuthApp';
import { loadPopupCatalog } from './popupCatalog';
import type { PopupEnv } from './PopupEnv';

// The popup's side of signing in with a provider: its buttons, and what it does when the
// server's callback sends it back with a code to redeem or an error.

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const POPUP_ORIGIN = 'http://parley.test';
const STORY = 'https://news.example/2026/an-article';

async function renderPopup(
  props: {
    providerCode?: string;
    providerError?: TransportError;
    connectCode?: string;
    withOrigin?: boolean;
    opener?: boolean;
  } = {},
) {
  const opener = { postMessage: jest.fn(), closed: false };
  const win = {
    opener: props.opener === false ? null : opener,
    close: jest.fn(),
    location: { origin: POPUP_ORIGIN, assign: jest.fn() },
    document,
  };
  const transport = createTransport({ url: TEST_GRAPHQL_URL, retryDelaysMs: [] });
  const env: PopupEnv = {
    t: createTranslator('en', await loadPopupCatalog('en')),
    locale: 'en',
    client: transport.client,
    window: win as unknown as Window,
    ...(props.withOrigin === false
      ? {}
      : { origin: { story: STORY, locale: 'en', theme: 'dark' } }),
  };
  render(
    <AuthApp
      env={env}
      mode="signin"
      providerCode={props.providerCode}
      providerError={props.providerError}
      connectCode={props.connectCode}
    />,
  );
  return { win, opener };
}

/** The server refusing the popup's code with these extensions (a code and what goes with it). */
const redeemRefused = (extensions: Record<string, unknown>) =>
  graphql.mutation('RedeemProviderSignIn', () =>
    HttpResponse.json({ data: null, errors: [{ message: 'refused', extensions }] }),
  );

const handedOver = (opener: { postMessage: jest.Mock }, token: string) =>
  expect(opener.postMessage).toHaveBeenCalledWith(
    { ns: PARLEY_NAMESPACE, type: 'token', payload: { token } },
    POPUP_ORIGIN,
  );

test("offers the story's site's providers, and a click takes the popup to the provider", async () => {
  let asked: Record<string, unknown> = {};
  server.use(
    graphql.query('SignInProviders', ({ variables }) => {
      asked = variables;
      return HttpResponse.json({
        data: {
          signInProviders: [
            { id: 'p-gh', kind: 'GITHUB', name: 'GitHub' },
            { id: 'p/co', kind: 'OIDC', name: 'Company SSO' },
          ],
        },
      });
    }),
  );
  const { win } = await renderPopup();
  const company = await screen.findByRole('button', { name: 'Continue with Company SSO' });
  expect(screen.getByRole('button', { name: 'Continue with GitHub' })).toBeTruthy();
  expect(asked).toEqual({ storyURL: STORY });
  // The email form stays, below.
  expect(screen.getByLabelText('Email')).toBeTruthy();
  fireEvent.click(company);
  expect(win.location.assign).toHaveBeenCalledWith(
    `${POPUP_ORIGIN}/auth/providers/p%2Fco/start?${new URLSearchParams({ story: STORY, locale: 'en', theme: 'dark' })}`,
  );
});

test('shows no provider buttons when the site has none, or the popup was not opened by a frame', async () => {
  server.use(
    graphql.query('SignInProviders', () => HttpResponse.json({ data: { signInProviders: [] } })),
  );
  await renderPopup();
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(screen.queryByText(/Continue with/)).toBeNull();
  expect(screen.getByLabelText('Email')).toBeTruthy();
});

test('redeems the code the provider came back with and hands the token to the frame', async () => {
  let code: unknown;
  server.use(
    graphql.mutation('RedeemProviderSignIn', ({ variables }) => {
      code = (variables['input'] as { code: string }).code;
      return HttpResponse.json({
        data: { redeemProviderSignIn: { token: 'parley-token', connectedProvider: null } },
      });
    }),
  );
  const { win, opener } = await renderPopup({ providerCode: 'one-time-code' });
  expect(screen.getByRole('status').textContent).toBe('Signing you in…');
  await waitFor(() => expect(win.close).toHaveBeenCalled());
  expect(code).toBe('one-time-code');
  handedOver(opener, 'parley-token');
});

test('proves an existing account with its password before connecting the provider', async () => {
  let sent: Record<string, unknown> = {};
  server.use(
    redeemRefused({
      code: 'SIGN_IN_LINK_REQUIRED',
      email: 'ann@example.com',
      provider: 'GitHub',
    }),
    graphql.mutation('ConnectProviderWithPassword', ({ variables }) => {
      sent = variables;
      return HttpResponse.json({ data: { connectProviderWithPassword: { token: 'joined' } } });
    }),
  );
  const { win, opener } = await renderPopup({ providerCode: 'c1' });
  await waitFor(() =>
    expect(screen.getByRole('status').textContent).toBe(
      'An account here already uses ann@example.com. Prove it is yours to connect GitHub to it.',
    ),
  );
  fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'my pass phrase' } });
  fireEvent.click(screen.getByRole('button', { name: 'Connect and sign in' }));
  await waitFor(() => expect(win.close).toHaveBeenCalled());
  expect(sent).toEqual({ input: { code: 'c1', password: 'my pass phrase' } });
  handedOver(opener, 'joined');
});

test('or has a link emailed to the account instead', async () => {
  server.use(
    redeemRefused({
      code: 'SIGN_IN_LINK_REQUIRED',
      email: 'ann@example.com',
      provider: 'GitHub',
    }),
    graphql.mutation('EmailProviderLink', () =>
      HttpResponse.json({ data: { emailProviderLink: { email: 'ann@example.com' } } }),
    ),
  );
  await renderPopup({ providerCode: 'c2' });
  fireEvent.click(await screen.findByRole('button', { name: 'Email me a link instead' }));
  await waitFor(() =>
    expect(screen.getByRole('status').textContent).toBe(
      'We sent a link to ann@example.com. Open it to connect GitHub, then sign in with GitHub again.',
    ),
  );
});

test('asks a two-factor account for its code: a provider never skips it', async () => {
  let second: Record<string, unknown> = {};
  server.use(
    redeemRefused({ code: 'TWO_FACTOR_CODE_REQUIRED', ticket: 'tk' }),
    graphql.mutation('SignInSecondFactor', ({ variables }) => {
      second = variables;
      return HttpResponse.json({
        data: { signInSecondFactor: { token: 'staff-token', deviceToken: null } },
      });
    }),
  );
  const { win, opener } = await renderPopup({ providerCode: 'c3' });
  fireEvent.input(await screen.findByLabelText('Code'), { target: { value: '123456' } });
  fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
  await waitFor(() => expect(win.close).toHaveBeenCalled());
  expect(second).toEqual({ input: { ticket: 'tk', code: '123456', locale: 'en' } });
  handedOver(opener, 'staff-token');
});

test('says a failed redemption by its code, over the forms', async () => {
  server.use(redeemRefused({ code: 'SIGN_IN_EXPIRED' }));
  await renderPopup({ providerCode: 'used', withOrigin: false });
  expect((await screen.findAllByRole('alert'))[0]?.textContent).toBe(
    'This sign-in expired or was started in another window. Please start again.',
  );
  expect(screen.getByLabelText('Email')).toBeTruthy();
});

test("says the provider's coded error the callback came back with", async () => {
  await renderPopup({
    providerError: new TransportError('SIGN_IN_DENIED', 'denied'),
    withOrigin: false,
  });
  expect(screen.getAllByRole('alert')[0]?.textContent).toBe(
    'You did not allow the sign-in, so nothing was shared. Try again when you are ready.',
  );
});

test('says a connection made from the profile, handing over no token', async () => {
  server.use(
    graphql.mutation('RedeemProviderSignIn', () =>
      HttpResponse.json({
        data: { redeemProviderSignIn: { token: null, connectedProvider: 'GitHub' } },
      }),
    ),
  );
  const { opener } = await renderPopup({ providerCode: 'c4', withOrigin: false });
  await waitFor(() =>
    expect(screen.getByRole('status').textContent).toBe(
      'GitHub is now connected to your account: you can sign in with it. You can close this window.',
    ),
  );
  expect(opener.postMessage).not.toHaveBeenCalled();
});

test('hands a connection code to the frame that asked, redeeming nothing itself', async () => {
  const { win, opener } = await renderPopup({ connectCode: 'conn-1', withOrigin: false });
  expect(opener.postMessage).toHaveBeenCalledWith(
    { ns: PARLEY_NAMESPACE, type: 'providerConnect', payload: { code: 'conn-1' } },
    POPUP_ORIGIN,
  );
  expect(win.close).toHaveBeenCalled();
});

test('says nothing was connected when the frame that asked is gone', async () => {
  await renderPopup({ connectCode: 'conn-2', withOrigin: false, opener: false });
  expect(screen.getByRole('status').textContent).toMatch(/^Nothing was connected/);
});

test('offers only the emailed link to an account without a password', async () => {
  server.use(
    redeemRefused({
      code: 'SIGN_IN_LINK_REQUIRED',
      email: 'ann@example.com',
      provider: 'GitHub',
      hasPassword: false,
    }),
  );
  await renderPopup({ providerCode: 'c5' });
  await screen.findByRole('button', { name: 'Email me a link instead' });
  expect(screen.queryByLabelText('Password')).toBeNull();
});

test('asks a two-factor account for its code with the password before connecting', async () => {
  const sent: Record<string, unknown>[] = [];
  server.use(
    redeemRefused({
      code: 'SIGN_IN_LINK_REQUIRED',
      email: 'a@example.com',
      provider: 'GitHub',
    }),
    graphql.mutation('ConnectProviderWithPassword', ({ variables }) => {
      sent.push(variables);
      const input = variables['input'] as { secondFactorCode?: string };
      return input.secondFactorCode
        ? HttpResponse.json({ data: { connectProviderWithPassword: { token: 'staff' } } })
        : HttpResponse.json({
            data: null,
            errors: [{ message: 'code', extensions: { code: 'TWO_FACTOR_CODE_REQUIRED' } }],
          });
    }),
  );
  const { win, opener } = await renderPopup({ providerCode: 'c6' });
  fireEvent.input(await screen.findByLabelText('Password'), { target: { value: 'pass phrase' } });
  fireEvent.click(screen.getByRole('button', { name: 'Connect and sign in' }));
  const code = await screen.findByLabelText('Code');
  fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'pass phrase' } });
  fireEvent.input(code, { target: { value: '123456' } });
  fireEvent.click(screen.getByRole('button', { name: 'Connect and sign in' }));
  await waitFor(() => expect(win.close).toHaveBeenCalled());
  expect(sent).toEqual([
    { input: { code: 'c6', password: 'pass phrase' } },
    { input: { code: 'c6', password: 'pass phrase', secondFactorCode: '123456' } },
  ]);
  handedOver(opener, 'staff');
});
