import { fireEvent, screen, waitFor } from '@testing-library/react';
import { delay, graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole } from '../../testing/renderConsole';
import { InstallWizard } from './InstallWizard';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  window.localStorage.clear();
  Reflect.deleteProperty(window.navigator, 'clipboard');
});
afterAll(() => server.close());

const SNIPPET = '<div id="parley"></div>\n<script src="http://parley.test/embed.js"></script>';

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function next() {
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
}

async function renderWizard() {
  const env = await createTestConsoleEnv();
  return { env, ...renderInConsole(<InstallWizard />, env, { path: '/install' }) };
}

function fillAdminAndOrganization() {
  fill('Email', 'ada@example.com');
  fill('Username', 'ada');
  fill('Password', 'long enough');
  fill('Confirm password', 'long enough');
  next();
  fill('Organization name', 'Daily Planet');
  fill('Contact email', 'team@planet.test');
  fill('Organization URL', 'https://planet.test');
  next();
}

test('Next is blocked with a message on each invalid field, tied to the field', async () => {
  await renderWizard();
  fill('Email', 'not-an-address');
  fill('Password', 'long enough');
  fill('Confirm password', 'different!');
  next();
  expect(screen.getByRole('heading', { level: 2 }).textContent).toContain('Step 1 of 3');
  const email = screen.getByLabelText('Email');
  expect(email.getAttribute('aria-invalid')).toBe('true');
  expect(email).toBe(document.activeElement);
  expect(screen.getByLabelText('Email')).toHaveProperty(
    'attributes.aria-describedby.value',
    expect.stringContaining('install-email-error'),
  );
  expect(document.getElementById('install-email-error')?.textContent).toContain(
    'Enter an email address',
  );
  expect(document.getElementById('install-confirm-error')?.textContent).toBe(
    'The passwords do not match.',
  );
  expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBeNull();
});

test('sends install once with the typed input, signs in and shows the snippet to copy', async () => {
  const sent: unknown[] = [];
  server.use(
    graphql.mutation('ConsoleInstall', async ({ variables }) => {
      sent.push(variables);
      await delay(30);
      return HttpResponse.json({
        data: { install: { token: 'admin-token', user: { id: 'u1', username: 'ada' } } },
      });
    }),
    graphql.query('ConsoleInstallSnippet', () =>
      HttpResponse.json({ data: { sites: [{ id: 's1', embedSnippet: SNIPPET }] } }),
    ),
  );
  const writeText = jest.fn(() => Promise.resolve());
  Object.defineProperty(window.navigator, 'clipboard', {
    value: { writeText },
    configurable: true,
  });
  const { env } = await renderWizard();
  fillAdminAndOrganization();
  expect(screen.getByRole('heading', { level: 2 }).textContent).toContain('Your first site');
  // jsdom runs on http://localhost: the example page's origin is filled in.
  expect(screen.getByLabelText<HTMLTextAreaElement>('Permitted origins').value).toBe(
    'http://localhost:8080',
  );
  fill('Site name', 'Planet news');
  fill('Site URL', 'https://news.planet.test');
  fill('Permitted origins', 'http://localhost:8080\n\n https://planet.test ');
  const install = screen.getByRole('button', { name: 'Install' });
  fireEvent.click(install);
  // Enter in a field submits the form even while the button is disabled.
  fireEvent.submit(install.closest('form') as HTMLFormElement);
  expect(await screen.findByRole('heading', { name: 'Parley is installed' })).toBeTruthy();
  expect(sent).toEqual([
    {
      input: {
        admin: { email: 'ada@example.com', username: 'ada', password: 'long enough' },
        organization: {
          name: 'Daily Planet',
          contactEmail: 'team@planet.test',
          url: 'https://planet.test',
        },
        site: {
          name: 'Planet news',
          url: 'https://news.planet.test',
          allowedOrigins: ['http://localhost:8080', 'https://planet.test'],
        },
      },
    },
  ]);
  expect(env.session.getToken()).toBe('admin-token');
  const snippet = await screen.findByLabelText<HTMLTextAreaElement>('Embed snippet');
  expect(snippet.value).toBe(SNIPPET);
  fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
  await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Copied'));
  expect(writeText).toHaveBeenCalledWith(SNIPPET);
  expect(screen.getByRole('link', { name: 'Open the console' }).getAttribute('href')).toBe(
    '/admin',
  );
  expect(screen.getByRole('link', { name: 'Open the example page' }).getAttribute('href')).toBe(
    'http://localhost:8080/',
  );
});

test('without a clipboard, Copy selects the snippet and says how to copy it', async () => {
  server.use(
    graphql.mutation('ConsoleInstall', () =>
      HttpResponse.json({ data: { install: { token: 't', user: { id: 'u1', username: 'a' } } } }),
    ),
    graphql.query('ConsoleInstallSnippet', () =>
      HttpResponse.json({ data: { sites: [{ id: 's1', embedSnippet: SNIPPET }] } }),
    ),
  );
  await renderWizard();
  fillAdminAndOrganization();
  fill('Site name', 'Planet news');
  fill('Site URL', 'https://news.planet.test');
  fireEvent.click(screen.getByRole('button', { name: 'Install' }));
  const snippet = await screen.findByLabelText<HTMLTextAreaElement>('Embed snippet');
  fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
  await waitFor(() => expect(screen.getByRole('status').textContent).toContain('press Ctrl+C'));
  expect(document.activeElement).toBe(snippet);
  expect([snippet.selectionStart, snippet.selectionEnd]).toEqual([0, SNIPPET.length]);
});

test('ALREADY_INSTALLED explains and links to the login page', async () => {
  server.use(
    graphql.mutation('ConsoleInstall', () =>
      HttpResponse.json({
        data: null,
        errors: [
          { message: 'Parley is already installed.', extensions: { code: 'ALREADY_INSTALLED' } },
        ],
      }),
    ),
  );
  const { env } = await renderWizard();
  fillAdminAndOrganization();
  fill('Site name', 'Planet news');
  fill('Site URL', 'https://news.planet.test');
  fireEvent.click(screen.getByRole('button', { name: 'Install' }));
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('already installed');
  expect(screen.getByRole('link', { name: 'Sign in to the console' }).getAttribute('href')).toBe(
    '/admin/login',
  );
  expect(screen.getByRole('button', { name: 'Install' })).toHaveProperty('disabled', true);
  expect(env.session.getToken()).toBeNull();
});

test('a field the server rejects takes the wizard back to that field’s step', async () => {
  server.use(
    graphql.mutation('ConsoleInstall', () =>
      HttpResponse.json({
        data: null,
        errors: [
          {
            message: 'Username must be 3 to 30 characters long.',
            extensions: { code: 'INVALID_INPUT', field: 'admin.username' },
          },
        ],
      }),
    ),
  );
  await renderWizard();
  fillAdminAndOrganization();
  fill('Site name', 'Planet news');
  fill('Site URL', 'https://news.planet.test');
  fireEvent.click(screen.getByRole('button', { name: 'Install' }));
  expect(await screen.findByRole('alert')).toHaveProperty(
    'textContent',
    'Please check the highlighted fields.',
  );
  expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
  expect(document.getElementById('install-username-error')?.textContent).toContain('3 to 30');
});
