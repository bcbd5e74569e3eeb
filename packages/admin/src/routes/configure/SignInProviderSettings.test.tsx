import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole, TEST_MODERATOR } from '../../testing/renderConsole';
import { SignInProviderSettings } from './SignInProviderSettings';
import type { ConsoleSignInProvider } from './SignInProviderSettings';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  jest.restoreAllMocks();
});
afterAll(() => server.close());

const SITES = [
  { id: 's-news', name: 'News' },
  { id: 's-blog', name: 'Blog' },
];

/** Providers in memory: listed, made, changed and removed; every input recorded. */
function providerHandlers(inputs: { op: string; input: unknown }[], refuseDelete = false) {
  const providers: (ConsoleSignInProvider & { __typename: 'SignInProvider' })[] = [];
  return [
    graphql.query('ConsoleSignInProviders', () =>
      HttpResponse.json({ data: { configuredSignInProviders: providers, sites: SITES } }),
    ),
    graphql.mutation('ConsoleCreateSignInProvider', ({ variables }) => {
      inputs.push({ op: 'create', input: variables.input });
      const input = variables.input as Record<string, unknown>;
      const id = `p-${providers.length + 1}`;
      const made = {
        __typename: 'SignInProvider' as const,
        id,
        kind: input['kind'] as ConsoleSignInProvider['kind'],
        name: input['name'] as string,
        issuerUrl: (input['issuerUrl'] as string | undefined) ?? '',
        clientId: input['clientId'] as string,
        clientSecretSet: true,
        siteIds: input['siteIds'] as string[],
        callbackUrl: `https://comments.example/auth/providers/${id}/callback`,
      };
      providers.push(made);
      return HttpResponse.json({ data: { createSignInProvider: { signInProvider: made } } });
    }),
    graphql.mutation('ConsoleUpdateSignInProvider', ({ variables }) => {
      inputs.push({ op: 'update', input: variables.input });
      const input = variables.input as { id: string; name: string; siteIds: string[] };
      const at = providers.findIndex((p) => p.id === input.id);
      providers[at] = { ...providers[at]!, name: input.name, siteIds: input.siteIds };
      return HttpResponse.json({
        data: { updateSignInProvider: { signInProvider: providers[at] } },
      });
    }),
    graphql.mutation('ConsoleDeleteSignInProvider', ({ variables }) => {
      inputs.push({ op: 'delete', input: variables.input });
      if (refuseDelete) {
        return HttpResponse.json({
          data: null,
          errors: [{ message: 'only way', extensions: { code: 'FORBIDDEN', field: 'id' } }],
        });
      }
      providers.splice(0, 1);
      return HttpResponse.json({ data: { deleteSignInProvider: { ok: true } } });
    }),
  ];
}

async function renderSection() {
  const env = await createTestConsoleEnv({ token: 't' });
  return renderInConsole(<SignInProviderSettings />, env, {
    viewer: { ...TEST_MODERATOR, role: 'ADMIN' },
  });
}

test('adds an OpenID Connect provider, checks its fields first, and shows its callback URL', async () => {
  const inputs: { op: string; input: unknown }[] = [];
  server.use(...providerHandlers(inputs));
  await renderSection();
  expect(await screen.findByText('No sign-in providers yet.')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Add a sign-in provider' }));
  fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'OIDC' } });
  // Nothing typed: each field says what it needs; nothing is sent.
  fireEvent.click(screen.getByRole('button', { name: 'Add provider' }));
  expect(document.activeElement).toBe(screen.getByLabelText('Name'));
  expect(screen.getByLabelText('Issuer URL').getAttribute('aria-invalid')).toBe('true');
  expect(screen.getByLabelText('Client secret').getAttribute('aria-invalid')).toBe('true');
  expect(inputs).toEqual([]);

  fireEvent.change(screen.getByLabelText('Name'), { target: { value: ' Company SSO ' } });
  fireEvent.change(screen.getByLabelText('Issuer URL'), {
    target: { value: 'https://id.example.com/realms/main' },
  });
  fireEvent.change(screen.getByLabelText('Client ID'), { target: { value: 'parley' } });
  fireEvent.change(screen.getByLabelText('Client secret'), { target: { value: 's3cret' } });
  // Every site is ticked at first; this provider is for the news site only.
  fireEvent.click(screen.getByRole('checkbox', { name: 'Blog' }));
  fireEvent.click(screen.getByRole('button', { name: 'Add provider' }));
  const row = await screen.findByRole('row', { name: /Continue with Company SSO/ });
  expect(
    within(row).getByText('https://comments.example/auth/providers/p-1/callback'),
  ).toBeTruthy();
  expect(within(row).getByText('News')).toBeTruthy();
  expect(inputs).toEqual([
    {
      op: 'create',
      input: {
        kind: 'OIDC',
        name: 'Company SSO',
        issuerUrl: 'https://id.example.com/realms/main',
        clientId: 'parley',
        clientSecret: 's3cret',
        siteIds: ['s-news'],
      },
    },
  ]);
});

test('edits a provider keeping its secret unless a new one is typed, and says why it cannot go', async () => {
  const inputs: { op: string; input: unknown }[] = [];
  server.use(...providerHandlers(inputs, true));
  await renderSection();
  fireEvent.click(await screen.findByRole('button', { name: 'Add a sign-in provider' }));
  fireEvent.change(screen.getByLabelText('Client ID'), { target: { value: 'gh-client' } });
  fireEvent.change(screen.getByLabelText('Client secret'), { target: { value: 'gh-secret' } });
  fireEvent.click(screen.getByRole('button', { name: 'Add provider' }));
  fireEvent.click(await screen.findByRole('button', { name: 'Edit GitHub' }));
  // The secret is write-only: the field starts empty.
  expect((screen.getByLabelText('Client secret') as HTMLInputElement).value).toBe('');
  fireEvent.click(screen.getByRole('checkbox', { name: 'News' }));
  fireEvent.click(screen.getByRole('button', { name: 'Save provider' }));
  await waitFor(() => expect(inputs).toHaveLength(2));
  expect(inputs[1]).toEqual({
    op: 'update',
    input: { id: 'p-1', name: 'GitHub', clientId: 'gh-client', siteIds: ['s-blog'] },
  });

  jest.spyOn(window, 'confirm').mockReturnValue(true);
  fireEvent.click(await screen.findByRole('button', { name: 'Remove GitHub' }));
  expect((await screen.findByRole('alert')).textContent).toBe(
    'Some accounts sign in only with GitHub: switch it off for every site instead, or ask them to set a password first.',
  );
});
