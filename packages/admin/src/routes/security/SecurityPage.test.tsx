import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { TEST_MODERATOR, createTestConsoleEnv, renderInConsole } from '../../testing/renderConsole';
import { SecurityPage } from './SecurityPage';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const SESSIONS = [
  {
    id: 's-here',
    device: 'Firefox on Linux',
    createdAt: '2026-11-01T10:00:00.000Z',
    lastUsedAt: '2026-11-26T09:00:00.000Z',
    current: true,
    secondFactor: false,
  },
  {
    id: 's-old',
    device: '',
    createdAt: '2026-10-01T10:00:00.000Z',
    lastUsedAt: '2026-10-02T10:00:00.000Z',
    current: false,
    secondFactor: false,
  },
];

/** Answers the page's query with two-factor sign-in `on` or off, and these sessions. */
function security(on: boolean, sessions = SESSIONS) {
  return graphql.query('ConsoleSecurity', () =>
    HttpResponse.json({
      data: {
        viewer: {
          id: 'u-mod',
          twoFactorEnabled: on,
          recoveryCodesLeft: on ? 7 : 0,
          staffAccess: 'GRANTED',
          sessions,
        },
      },
    }),
  );
}

async function renderSecurity() {
  const env = await createTestConsoleEnv({ token: 'old-token' });
  const rendered = renderInConsole(<SecurityPage />, env, {
    path: '/admin/security',
    viewer: TEST_MODERATOR,
  });
  return { env, ...rendered };
}

test('sets up two-factor sign-in: QR code, first code, recovery codes once, then the new session', async () => {
  const codes = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`);
  const confirmed: unknown[] = [];
  const started: unknown[] = [];
  server.use(
    security(false),
    graphql.mutation('ConsoleStartTwoFactor', ({ variables }) => {
      started.push(variables);
      if (variables.input.password !== 'my password') {
        return HttpResponse.json({
          data: null,
          errors: [{ message: 'no', extensions: { code: 'INVALID_CREDENTIALS' } }],
        });
      }
      return HttpResponse.json({
        data: {
          startTwoFactorEnrolment: {
            secret: 'JBSWY3DPEHPK3PXP',
            uri: 'otpauth://totp/x',
            qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
          },
        },
      });
    }),
    graphql.mutation('ConsoleConfirmTwoFactor', ({ variables }) => {
      confirmed.push(variables);
      return variables.input.code === '111111'
        ? HttpResponse.json({
            data: null,
            errors: [{ message: 'no', extensions: { code: 'TWO_FACTOR_CODE_INVALID' } }],
          })
        : HttpResponse.json({
            data: { confirmTwoFactorEnrolment: { recoveryCodes: codes, token: 'strong-token' } },
          });
    }),
  );
  const { env } = await renderSecurity();
  expect(await screen.findByText(/^Off\./)).toBeTruthy();
  // The password first: a session alone does not set up a second factor.
  fireEvent.change(screen.getByLabelText('Your password'), { target: { value: 'wrong' } });
  fireEvent.click(screen.getByRole('button', { name: 'Set up two-factor sign-in' }));
  expect(await screen.findByText('That is not your password.')).toBeTruthy();
  fireEvent.change(screen.getByLabelText('Your password'), { target: { value: 'my password' } });
  fireEvent.click(screen.getByRole('button', { name: 'Set up two-factor sign-in' }));
  const qr = await screen.findByRole('img', { name: 'QR code for the authenticator app' });
  expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
  expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
  fireEvent.change(screen.getByLabelText('Code from the app'), { target: { value: '111111' } });
  fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
  expect(await screen.findByText(/That code is not right or was used already/)).toBeTruthy();
  fireEvent.change(screen.getByLabelText('Code from the app'), { target: { value: '222222' } });
  fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
  const list = await screen.findByRole('list', { name: 'Recovery codes' });
  expect(
    within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual(codes);
  // Every other session ended, the console's too: it takes the enrolment's session at once, and
  // the codes stay on screen (across the remount a new session causes) until they are saved.
  await waitFor(() => expect(env.session.getToken()).toBe('strong-token'));
  cleanup();
  await renderSecurity();
  expect(await screen.findByRole('list', { name: 'Recovery codes' })).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
  expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
  expect(started).toEqual([
    { input: { password: 'wrong' } },
    { input: { password: 'my password' } },
  ]);
  expect(confirmed).toEqual([{ input: { code: '111111' } }, { input: { code: '222222' } }]);
});

test('with two-factor sign-in on: says how many recovery codes are left, and turns it off with a code', async () => {
  const sent: unknown[] = [];
  server.use(
    security(true),
    graphql.mutation('ConsoleDisableTwoFactor', ({ variables }) => {
      sent.push(variables);
      server.use(security(false));
      return HttpResponse.json({
        data: { disableTwoFactor: { user: { id: 'u-mod', twoFactorEnabled: false } } },
      });
    }),
  );
  await renderSecurity();
  expect(await screen.findByText('On. 7 of 10 recovery codes left.')).toBeTruthy();
  fireEvent.click(screen.getByText('Turn off'));
  const field = screen.getByLabelText('Code from the app, or a recovery code');
  fireEvent.click(screen.getByRole('button', { name: 'Turn off two-factor sign-in' }));
  expect(field.getAttribute('aria-invalid')).toBe('true');
  fireEvent.change(field, { target: { value: 'abcde-fghjk' } });
  fireEvent.click(screen.getByRole('button', { name: 'Turn off two-factor sign-in' }));
  expect(await screen.findByText(/^Off\./)).toBeTruthy();
  expect(sent).toEqual([{ input: { code: 'abcde-fghjk' } }]);
});

test('lists the signed-in devices and signs out another one; this one has no button', async () => {
  const ended: unknown[] = [];
  server.use(
    security(false),
    graphql.mutation('ConsoleEndSession', ({ variables }) => {
      ended.push(variables);
      server.use(security(false, SESSIONS.slice(0, 1)));
      return HttpResponse.json({ data: { endSession: { ok: true } } });
    }),
  );
  await renderSecurity();
  const table = await screen.findByRole('table');
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
    'Firefox on Linux (this device)',
    'Unknown device',
  ]);
  expect(within(rows[0]!).queryByRole('button')).toBeNull();
  fireEvent.click(within(rows[1]!).getByRole('button', { name: /^Sign out Unknown device/ }));
  await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
  expect(ended).toEqual([{ input: { id: 's-old' } }]);
});
