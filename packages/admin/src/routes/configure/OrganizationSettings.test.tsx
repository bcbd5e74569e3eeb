import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole, TEST_MODERATOR } from '../../testing/renderConsole';
import { ConfigurePage } from './ConfigurePage';
import type { AdminSite, ConsoleSettings, SsoKey } from './configureQueries';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  jest.restoreAllMocks();
});
afterAll(() => server.close());

const SETTINGS = {
  organization: {
    name: 'News',
    contactEmail: 'a@example.com',
    url: 'https://n.example/',
    locale: 'en',
  },
} as ConsoleSettings;

const KEY: SsoKey = {
  id: 'k1',
  secret: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  expiresAt: null,
  revoked: false,
};

function site(keys: SsoKey[]): AdminSite {
  return {
    id: 'site-1',
    name: 'Blog',
    url: 'https://blog.example/',
    allowedOrigins: ['https://blog.example'],
    embedSnippet: '<div id="parley-thread"></div>',
    recentSnippet: '<div class="parley-recent" data-site="s1"></div>',
    ssoKeys: keys,
    ssoTokenMaxLifetimeSeconds: null,
  };
}

async function renderSites(keys: SsoKey[], extra: Parameters<typeof server.use> = []) {
  server.use(
    graphql.query('ConsoleSettings', () => HttpResponse.json({ data: { settings: SETTINGS } })),
    graphql.query('ConsoleAdminSites', () => HttpResponse.json({ data: { sites: [site(keys)] } })),
    ...extra,
  );
  const env = await createTestConsoleEnv({ token: 't' });
  renderInConsole(<ConfigurePage />, env, {
    path: '/configure/organization',
    viewer: { ...TEST_MODERATOR, role: 'ADMIN' },
  });
  fireEvent.click(await screen.findByRole('button', { name: 'Edit Blog' }));
  return screen.getByRole('region', { name: 'Settings of Blog' });
}

test('generating a key shows its secret once, until dismissed', async () => {
  const inputs: unknown[] = [];
  const panel = await renderSites(
    [],
    [
      graphql.mutation('ConsoleRotateSsoKey', ({ variables }) => {
        inputs.push(variables.input);
        return HttpResponse.json({
          data: { rotateSsoKey: { site: site([{ ...KEY, id: 'k2', secret: 'sekret-2' }]) } },
        });
      }),
    ],
  );
  expect(within(panel).getByText(/No active key/)).toBeTruthy();
  fireEvent.click(within(panel).getByRole('button', { name: 'Generate key' }));
  const secret = await within(panel).findByRole('region', { name: 'New secret' });
  expect(within(secret).getByText('sekret-2')).toBeTruthy();
  expect(inputs).toEqual([{ siteId: 'site-1', revokeOld: false }]);

  fireEvent.click(within(secret).getByRole('button', { name: 'I have saved it' }));
  expect(screen.queryByText('sekret-2')).toBeNull();
  expect(screen.queryByRole('region', { name: 'New secret' })).toBeNull();
});

test('revoking a key names the key and the site', async () => {
  jest.spyOn(window, 'confirm').mockReturnValue(true);
  const inputs: unknown[] = [];
  const panel = await renderSites(
    [KEY],
    [
      graphql.mutation('ConsoleRevokeSsoKey', ({ variables }) => {
        inputs.push(variables.input);
        return HttpResponse.json({ data: { revokeSsoKey: { site: site([]) } } });
      }),
    ],
  );
  expect(within(panel).getByRole('button', { name: 'Rotate key' })).toBeTruthy();
  fireEvent.click(within(panel).getByRole('button', { name: /^Revoke key of/ }));
  await waitFor(() => expect(inputs).toEqual([{ siteId: 'site-1', keyId: 'k1' }]));
});

test('permitted origins are sent one per line, and a bad line is flagged on the field', async () => {
  const inputs: unknown[] = [];
  const panel = await renderSites(
    [KEY],
    [
      graphql.mutation('ConsoleUpdateSite', ({ variables }) => {
        inputs.push(variables.input);
        return HttpResponse.json({
          data: null,
          errors: [
            { message: 'bad', extensions: { code: 'INVALID_INPUT', field: 'allowedOrigins.1' } },
          ],
        });
      }),
    ],
  );
  expect(within(panel).getByText('<div id="parley-thread"></div>')).toBeTruthy();
  const origins = within(panel).getByLabelText('Permitted origins');
  fireEvent.change(origins, {
    target: { value: 'https://blog.example\n\n https://x.example/path ' },
  });
  fireEvent.click(within(panel).getByRole('button', { name: 'Save site' }));
  await waitFor(() => expect(origins.getAttribute('aria-invalid')).toBe('true'));
  expect(inputs).toEqual([
    {
      siteId: 'site-1',
      name: 'Blog',
      url: 'https://blog.example/',
      allowedOrigins: ['https://blog.example', 'https://x.example/path'],
      ssoTokenMaxLifetimeSeconds: null,
    },
  ]);
  expect(within(panel).getByLabelText('Site name').getAttribute('aria-invalid')).toBe('false');
});

test('the SSO token life is typed in hours and sent in seconds; empty sends the default back', async () => {
  const inputs: Record<string, unknown>[] = [];
  const panel = await renderSites(
    [KEY],
    [
      graphql.mutation('ConsoleUpdateSite', ({ variables }) => {
        const input = variables.input as Record<string, unknown>;
        inputs.push(input);
        return HttpResponse.json({
          data: {
            updateSite: {
              site: {
                ...site([KEY]),
                ssoTokenMaxLifetimeSeconds: input.ssoTokenMaxLifetimeSeconds,
              },
            },
          },
        });
      }),
    ],
  );
  const lifetime = within(panel).getByLabelText('Longest SSO token life (hours)');
  expect((lifetime as HTMLInputElement).value).toBe('');
  fireEvent.change(lifetime, { target: { value: '48' } });
  fireEvent.click(within(panel).getByRole('button', { name: 'Save site' }));
  await within(panel).findByText('Saved.');
  expect((lifetime as HTMLInputElement).value).toBe('48');
  fireEvent.change(lifetime, { target: { value: '' } });
  fireEvent.click(within(panel).getByRole('button', { name: 'Save site' }));
  await waitFor(() => expect(inputs).toHaveLength(2));
  expect(inputs.map((input) => input.ssoTokenMaxLifetimeSeconds)).toEqual([172_800, null]);
});

test('adding a site sends its origins and shows the first key’s secret once', async () => {
  const inputs: unknown[] = [];
  let sites: AdminSite[] = [site([KEY])];
  const created: AdminSite = {
    ...site([{ ...KEY, id: 'k9', secret: 'first-secret' }]),
    id: 'site-2',
    name: 'Shop',
  };
  server.use(
    graphql.query('ConsoleSettings', () => HttpResponse.json({ data: { settings: SETTINGS } })),
    // __typename lets the transport's cache see that createSite changed a Site and refetch.
    graphql.query('ConsoleAdminSites', () =>
      HttpResponse.json({ data: { sites: sites.map((s) => ({ ...s, __typename: 'Site' })) } }),
    ),
    graphql.mutation('ConsoleCreateSite', ({ variables }) => {
      inputs.push(variables.input);
      sites = [...sites, { ...created, ssoKeys: [{ ...KEY, id: 'k9' }] }];
      return HttpResponse.json({
        data: {
          createSite: { __typename: 'SitePayload', site: { ...created, __typename: 'Site' } },
        },
      });
    }),
  );
  const env = await createTestConsoleEnv({ token: 't' });
  renderInConsole(<ConfigurePage />, env, {
    path: '/configure/organization',
    viewer: { ...TEST_MODERATOR, role: 'ADMIN' },
  });
  fireEvent.click(await screen.findByRole('button', { name: 'Add a site' }));
  const form = screen.getByRole('form', { name: 'New site' });
  fireEvent.change(within(form).getByLabelText('Site name'), { target: { value: 'Shop' } });
  fireEvent.change(within(form).getByLabelText('Site URL'), {
    target: { value: 'https://shop.example' },
  });
  fireEvent.change(within(form).getByLabelText('Permitted origins'), {
    target: { value: 'https://www.shop.example\n' },
  });
  fireEvent.click(within(form).getByRole('button', { name: 'Add site' }));
  const panel = await screen.findByRole('region', { name: 'Settings of Shop' });
  expect(await within(panel).findByText('first-secret')).toBeTruthy();
  expect(inputs).toEqual([
    { name: 'Shop', url: 'https://shop.example', allowedOrigins: ['https://www.shop.example'] },
  ]);
  expect(screen.getByRole('rowheader', { name: 'Shop' })).toBeTruthy();
});

test('a site shows both snippets to copy: the thread and its latest comments', async () => {
  const writeText = jest.fn(() => Promise.resolve());
  Object.defineProperty(window.navigator, 'clipboard', {
    value: { writeText },
    configurable: true,
  });
  const region = within(await renderSites([KEY]));
  expect(region.getByText('<div class="parley-recent" data-site="s1"></div>')).toBeTruthy();
  fireEvent.click(region.getByRole('button', { name: 'Copy list snippet' }));
  await waitFor(() =>
    expect(writeText).toHaveBeenCalledWith('<div class="parley-recent" data-site="s1"></div>'),
  );
});
