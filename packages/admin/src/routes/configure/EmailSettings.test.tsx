import { fireEvent, screen, waitFor } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole, TEST_MODERATOR } from '../../testing/renderConsole';
import { ConfigurePage } from './ConfigurePage';
import type { ConsoleSettings } from './configureQueries';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  jest.restoreAllMocks();
});
afterAll(() => server.close());

const SMTP = {
  smtpHost: 'smtp.example.com',
  smtpPort: 465,
  smtpSecure: true,
  smtpUser: 'parley',
  smtpPasswordSet: true,
  smtpFrom: 'news@example.com',
  smtpFromEnvironment: false,
};
const SETTINGS = { ...SMTP, organization: null } as ConsoleSettings;

/** Answers `settings` and records every updateSettings input; `answer` may replace the reply. */
function renderEmail(
  settings: ConsoleSettings,
  inputs: Record<string, unknown>[] = [],
  answer?: () => unknown,
) {
  server.use(
    graphql.query('ConsoleSettings', () => HttpResponse.json({ data: { settings } })),
    graphql.mutation('ConsoleUpdateSettings', ({ variables }) => {
      const { smtpPassword, ...rest } = variables.input as Record<string, unknown>;
      inputs.push(variables.input);
      // As the server does: the password is never answered, only whether one is stored.
      const stored = { ...settings, ...rest, smtpPasswordSet: smtpPassword !== undefined };
      return HttpResponse.json(
        (answer?.() ?? { data: { updateSettings: { settings: stored } } }) as Record<
          string,
          unknown
        >,
      );
    }),
  );
  return createTestConsoleEnv({ token: 't' }).then((env) =>
    renderInConsole(<ConfigurePage />, env, {
      path: '/configure/email',
      viewer: { ...TEST_MODERATOR, role: 'ADMIN' },
    }),
  );
}

const valueOf = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;

test('shows the stored SMTP settings, never a password, with a hint that one is set', async () => {
  await renderEmail(SETTINGS);
  expect(((await screen.findByLabelText('Host')) as HTMLInputElement).value).toBe(
    'smtp.example.com',
  );
  expect(valueOf('Port')).toBe('465');
  expect((screen.getByLabelText('Use TLS') as HTMLInputElement).checked).toBe(true);
  expect(valueOf('Username')).toBe('parley');
  expect(valueOf('Password')).toBe('');
  expect(screen.getByText('A password is set. Leave empty to keep it.')).toBeTruthy();
  expect(valueOf('From address')).toBe('news@example.com');
  expect(screen.getByRole('button', { name: 'Send test email' })).toBeTruthy();
});

test('saves the fields; an empty password is not sent, so the stored one is kept', async () => {
  const inputs: Record<string, unknown>[] = [];
  await renderEmail(SETTINGS, inputs);
  fireEvent.change(await screen.findByLabelText('Host'), { target: { value: ' mail.example ' } });
  fireEvent.change(screen.getByLabelText('Port'), { target: { value: '587' } });
  fireEvent.click(screen.getByLabelText('Use TLS'));
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Saved.')).toBeTruthy();
  expect(inputs).toEqual([
    {
      smtpHost: 'mail.example',
      smtpPort: 587,
      smtpSecure: false,
      smtpUser: 'parley',
      smtpFrom: 'news@example.com',
    },
  ]);
});

test('a typed password is sent once and the field is emptied after the save', async () => {
  const inputs: Record<string, unknown>[] = [];
  await renderEmail({ ...SETTINGS, smtpPasswordSet: false }, inputs);
  expect(await screen.findByText('No password is set.')).toBeTruthy();
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'hunter2 ' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Saved.')).toBeTruthy();
  expect(inputs[0]).toMatchObject({ smtpPassword: 'hunter2 ' });
  expect(valueOf('Password')).toBe('');
  expect(screen.getByText('A password is set. Leave empty to keep it.')).toBeTruthy();
});

test('a coded error on the port shows next to it, which gets the focus', async () => {
  await renderEmail(SETTINGS, [], () => ({
    data: null,
    errors: [
      {
        message: 'Expected a whole number from 1 to 65535.',
        extensions: { code: 'INVALID_INPUT', field: 'smtpPort' },
      },
    ],
  }));
  const port = await screen.findByLabelText('Port');
  fireEvent.change(port, { target: { value: '70000' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(port.getAttribute('aria-invalid')).toBe('true'));
  expect(document.activeElement).toBe(port);
  expect(screen.getByLabelText('Host').getAttribute('aria-invalid')).toBe('false');
  expect(screen.queryByText('Saved.')).toBeNull();
});

test('unsaved changes are guarded when leaving for another section', async () => {
  const { location } = await renderEmail(SETTINGS);
  fireEvent.change(await screen.findByLabelText('Username'), { target: { value: 'other' } });
  const confirm = jest.spyOn(window, 'confirm').mockReturnValue(false);
  fireEvent.click(screen.getByRole('link', { name: 'General' }));
  expect(confirm).toHaveBeenCalled();
  expect(location.history.at(-1)).toBe('/configure/email');
});

test('when SMTP_URL is set, says it overrides the settings and disables them', async () => {
  await renderEmail({ ...SETTINGS, smtpFromEnvironment: true });
  expect((await screen.findByRole('note')).textContent).toContain('SMTP_URL');
  for (const label of ['Host', 'Port', 'Use TLS', 'Username', 'Password', 'From address']) {
    expect(screen.getByLabelText(label).matches(':disabled')).toBe(true);
  }
  expect(screen.getByRole('button', { name: 'Save' }).matches(':disabled')).toBe(true);
  expect(screen.getByRole('button', { name: 'Send test email' }).matches(':disabled')).toBe(false);
});

test('send test email reports success', async () => {
  server.use(
    graphql.mutation('ConsoleSendTestEmail', () =>
      HttpResponse.json({ data: { sendTestEmail: { ok: true } } }),
    ),
  );
  await renderEmail(SETTINGS);
  fireEvent.click(await screen.findByRole('button', { name: 'Send test email' }));
  expect(await screen.findByText(/Sent to moderator@example.com/)).toBeTruthy();
});
