import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole, TEST_MODERATOR } from '../../testing/renderConsole';
import { ApiTokenSettings } from './ApiTokenSettings';
import type { ConsoleApiToken } from './ApiTokenSettings';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  jest.restoreAllMocks();
});
afterAll(() => server.close());

const SECRET = 'parley_pat_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';

function tokenOf(fields: Partial<ConsoleApiToken>): ConsoleApiToken & { __typename: 'ApiToken' } {
  return {
    __typename: 'ApiToken',
    id: 'tok-1',
    name: 'Backups',
    scope: 'READ',
    secret: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    lastUsedAt: null,
    revokedAt: null,
    createdBy: { id: 'u-admin', username: 'admin' },
    ...fields,
  } as ConsoleApiToken & { __typename: 'ApiToken' };
}

/** A server of tokens in memory: lists them, makes and revokes them, records each input. */
function tokenHandlers(inputs: unknown[], refuseCreate?: Record<string, unknown>) {
  const tokens: ReturnType<typeof tokenOf>[] = [];
  return [
    graphql.query('ConsoleApiTokens', () =>
      HttpResponse.json({ data: { apiTokens: tokens.map((t) => ({ ...t, secret: null })) } }),
    ),
    graphql.mutation('ConsoleCreateApiToken', ({ variables }) => {
      inputs.push(variables.input);
      if (refuseCreate) return HttpResponse.json({ data: null, errors: [refuseCreate] });
      const input = variables.input as { name: string; scope: ConsoleApiToken['scope'] };
      const made = tokenOf({ id: `tok-${tokens.length + 1}`, ...input });
      tokens.unshift(made);
      return HttpResponse.json({
        data: { createApiToken: { apiToken: { ...made, secret: SECRET } } },
      });
    }),
    graphql.mutation('ConsoleRevokeApiToken', ({ variables }) => {
      inputs.push(variables.input);
      const { tokenId } = variables.input as { tokenId: string };
      const index = tokens.findIndex((t) => t.id === tokenId);
      tokens[index] = { ...tokens[index]!, revokedAt: '2026-11-26T12:00:00.000Z' };
      return HttpResponse.json({ data: { revokeApiToken: { apiToken: tokens[index] } } });
    }),
  ];
}

async function renderSection() {
  const env = await createTestConsoleEnv({ token: 't' });
  return renderInConsole(<ApiTokenSettings />, env, {
    viewer: { ...TEST_MODERATOR, role: 'ADMIN' },
  });
}

test('makes a token, shows its secret once, lists it, and revokes it after asking', async () => {
  const inputs: unknown[] = [];
  server.use(...tokenHandlers(inputs));
  await renderSection();
  expect(await screen.findByText('No API tokens yet.')).toBeTruthy();

  // No name: said beside the field, nothing sent.
  fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
  const name = screen.getByLabelText('Name');
  expect(name.getAttribute('aria-invalid')).toBe('true');
  expect(document.activeElement).toBe(name);
  expect(inputs).toEqual([]);

  fireEvent.change(name, { target: { value: '  Slack bot ' } });
  fireEvent.change(screen.getByLabelText('Scope'), { target: { value: 'MODERATE' } });
  fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
  const secret = await screen.findByTestId('api-token-secret');
  expect(secret.textContent).toBe(SECRET);
  await waitFor(() =>
    expect(document.activeElement).toBe(
      screen.getByRole('region', { name: 'New API token secret' }),
    ),
  );
  expect(inputs).toEqual([{ name: 'Slack bot', scope: 'MODERATE' }]);
  const row = (await screen.findByRole('rowheader', { name: 'Slack bot' })).closest('tr')!;
  expect(within(row).getByText('Moderate')).toBeTruthy();
  expect(within(row).getByText('Never')).toBeTruthy();
  expect((name as HTMLInputElement).value).toBe('');

  fireEvent.click(screen.getByRole('button', { name: 'I have saved it' }));
  expect(screen.queryByTestId('api-token-secret')).toBeNull();

  // Revoking asks first; "Cancel" sends nothing.
  const confirm = jest
    .spyOn(window, 'confirm')
    .mockReturnValueOnce(false)
    .mockReturnValueOnce(true);
  fireEvent.click(within(row).getByRole('button', { name: 'Revoke Slack bot' }));
  expect(inputs).toHaveLength(1);
  fireEvent.click(within(row).getByRole('button', { name: 'Revoke Slack bot' }));
  await waitFor(() =>
    expect(inputs).toEqual([{ name: 'Slack bot', scope: 'MODERATE' }, { tokenId: 'tok-1' }]),
  );
  expect(confirm).toHaveBeenCalledTimes(2);
  await waitFor(() =>
    expect(
      within(screen.getByRole('rowheader', { name: 'Slack bot' }).closest('tr')!).getByText(
        /^Revoked /,
      ),
    ).toBeTruthy(),
  );
});

test('a name the server refuses is said beside the field, which gets the focus', async () => {
  const inputs: unknown[] = [];
  server.use(
    ...tokenHandlers(inputs, {
      message: 'A token that works already has this name.',
      extensions: { code: 'INVALID_INPUT', field: 'name' },
    }),
  );
  await renderSection();
  const name = await screen.findByLabelText('Name');
  fireEvent.change(name, { target: { value: 'Backups' } });
  fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
  await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
  expect(screen.getByText(/already has this name/)).toBeTruthy();
  expect(document.activeElement).toBe(name);
  expect(screen.queryByTestId('api-token-secret')).toBeNull();
  expect(inputs).toEqual([{ name: 'Backups', scope: 'READ' }]);
});
