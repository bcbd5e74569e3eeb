import { fireEvent, screen, waitFor } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole, TEST_MODERATOR } from '../../testing/renderConsole';
import { ConfigurePage } from './ConfigurePage';
import type { ConsoleSettings } from './configureQueries';
import { LEAVE_UNSAVED_TEXT } from './useUnsavedChangesGuard';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  jest.restoreAllMocks();
});
afterAll(() => server.close());

const SETTINGS: ConsoleSettings = {
  guidelines: 'Be kind.',
  guidelinesHtml: '<p>Be kind.</p>',
  maxCommentLength: 5000,
  editWindowSeconds: 30,
  closeAfterDays: 0,
  reactionLabel: 'Respect',
  featuredTab: true,
  voting: 'LIKE',
  commentImages: false,
  guestComments: false,
  guestPremod: true,
  spamFilter: true,
  spamThreshold: 90,
  locale: 'en',
  premod: 'OFF',
  newCommenterApprovals: 3,
  reportThreshold: 3,
  bannedWords: ['spam'],
  suspectWords: [],
  liveUpdates: true,
  signUpOpen: true,
  sessionSeconds: 2_592_000,
  customCssUrl: '',
  smtpHost: '',
  smtpPort: 587,
  smtpSecure: false,
  smtpUser: '',
  smtpPasswordSet: false,
  smtpFrom: '',
  smtpFromEnvironment: false,
  requireStaffTwoFactor: false,
  auditRetentionDays: 365,
  ipRetentionDays: 30,
  webhooksAllowPrivateAddresses: false,
  organization: {
    name: 'News',
    contactEmail: 'a@example.com',
    url: 'https://n.example/',
    locale: 'en',
  },
};

/** Answers the settings and records every updateSettings input; `answer` may fail it. */
function settingsHandlers(inputs: Record<string, unknown>[], answer?: () => unknown) {
  return [
    graphql.query('ConsoleSettings', () => HttpResponse.json({ data: { settings: SETTINGS } })),
    // The Authentication section's providers (SignInProviderSettings.test.tsx tests them).
    graphql.query('ConsoleSignInProviders', () =>
      HttpResponse.json({ data: { configuredSignInProviders: [], sites: [] } }),
    ),
    graphql.mutation('ConsoleUpdateSettings', ({ variables }) => {
      inputs.push(variables.input);
      const body = answer?.() ?? {
        data: { updateSettings: { settings: { ...SETTINGS, ...variables.input } } },
      };
      return HttpResponse.json(body as Record<string, unknown>);
    }),
  ];
}

async function renderAt(path: string) {
  const env = await createTestConsoleEnv({ token: 't' });
  return renderInConsole(<ConfigurePage />, env, {
    path,
    viewer: { ...TEST_MODERATOR, role: 'ADMIN' },
  });
}

test('General sends its fields, numbers as numbers, and shows success', async () => {
  const inputs: Record<string, unknown>[] = [];
  server.use(...settingsHandlers(inputs));
  await renderAt('/configure/general');
  fireEvent.change(await screen.findByLabelText('Maximum comment length'), {
    target: { value: '800' },
  });
  fireEvent.change(screen.getByLabelText('Reaction label'), { target: { value: 'Like' } });
  fireEvent.click(screen.getByLabelText('Show the Featured tab'));
  fireEvent.click(screen.getByLabelText('Up and down votes'));
  fireEvent.click(screen.getByLabelText('Images in comments'));
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Saved.')).toBeTruthy();
  expect(inputs).toEqual([
    {
      guidelines: 'Be kind.',
      maxCommentLength: 800,
      editWindowSeconds: 30,
      closeAfterDays: 0,
      reactionLabel: 'Like',
      featuredTab: false,
      voting: 'UP_DOWN',
      commentImages: true,
      locale: 'en',
    },
  ]);
});

test('a coded error on a field shows next to that field, which gets the focus', async () => {
  server.use(
    ...settingsHandlers([], () => ({
      data: null,
      errors: [
        {
          message: 'Expected a whole number from 1 to 20000.',
          extensions: { code: 'INVALID_INPUT', field: 'maxCommentLength' },
        },
      ],
    })),
  );
  await renderAt('/configure/general');
  const field = await screen.findByLabelText('Maximum comment length');
  fireEvent.change(field, { target: { value: '999999' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
  const errorId = field
    .getAttribute('aria-describedby')!
    .split(' ')
    .find((id) => id.endsWith('-error'));
  expect(document.getElementById(errorId!)?.textContent).toBe(
    'Please check the highlighted fields.',
  );
  expect(document.activeElement).toBe(field);
  expect(screen.getByLabelText('Reaction label').getAttribute('aria-invalid')).toBe('false');
  expect(screen.queryByText('Saved.')).toBeNull();
});

test('banned and suspect words are sent one per line, blanks dropped', async () => {
  const inputs: Record<string, unknown>[] = [];
  server.use(...settingsHandlers(inputs));
  await renderAt('/configure/moderation');
  fireEvent.change(await screen.findByLabelText('Banned words'), {
    target: { value: 'spam\n  Eggs  \r\n\nham\n' },
  });
  fireEvent.change(screen.getByLabelText('Suspect words'), { target: { value: 'maybe' } });
  fireEvent.click(screen.getByLabelText('New commenters wait for approval'));
  fireEvent.change(screen.getByLabelText('Approved comments before a commenter is trusted'), {
    target: { value: '5' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(inputs).toHaveLength(1));
  expect(inputs[0]).toMatchObject({
    premod: 'NEW_COMMENTERS',
    newCommenterApprovals: 5,
    bannedWords: ['spam', 'Eggs', 'ham'],
    suspectWords: ['maybe'],
  });
});

test('the spam filter: its threshold is sent as a whole percent, and hidden while the filter is off', async () => {
  const inputs: Record<string, unknown>[] = [];
  server.use(...settingsHandlers(inputs));
  await renderAt('/configure/moderation');
  const threshold = await screen.findByLabelText('Spam threshold (percent)');
  expect((threshold as HTMLInputElement).value).toBe('90');
  fireEvent.change(threshold, { target: { value: '80' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(inputs).toHaveLength(1));
  expect(inputs[0]).toMatchObject({ spamFilter: true, spamThreshold: 80 });
  fireEvent.click(screen.getByLabelText('Spam filter'));
  expect(screen.queryByLabelText('Spam threshold (percent)')).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(inputs).toHaveLength(2));
  expect(inputs[1]).toMatchObject({ spamFilter: false, spamThreshold: 80 });
});

test('Advanced sends the audit log’s and the guests’ addresses’ retention, in days', async () => {
  const inputs: Record<string, unknown>[] = [];
  server.use(...settingsHandlers(inputs));
  await renderAt('/configure/advanced');
  const days = await screen.findByLabelText('Keep guests’ IP addresses for');
  expect((days as HTMLInputElement).value).toBe('30');
  fireEvent.change(days, { target: { value: '7' } });
  fireEvent.click(screen.getByLabelText('Allow webhooks to private addresses'));
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(inputs).toHaveLength(1));
  expect(inputs[0]).toMatchObject({
    auditRetentionDays: 365,
    ipRetentionDays: 7,
    webhooksAllowPrivateAddresses: true,
  });
});

test('unsaved changes: beforeunload is held and an in-app link asks first', async () => {
  server.use(...settingsHandlers([]));
  const { location } = await renderAt('/configure/general');
  const field = await screen.findByLabelText('Language of the comments');
  const unload = () => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  };
  expect(unload()).toBe(false);

  fireEvent.change(field, { target: { value: 'es' } });
  expect(unload()).toBe(true);
  const confirm = jest.spyOn(window, 'confirm').mockReturnValue(false);
  fireEvent.click(screen.getByRole('link', { name: 'Moderation' }));
  expect(confirm).toHaveBeenCalledWith(LEAVE_UNSAVED_TEXT);
  expect(location.history.at(-1)).toBe('/configure/general');
  expect((screen.getByLabelText('Language of the comments') as HTMLSelectElement).value).toBe('es');

  confirm.mockReturnValue(true);
  fireEvent.click(screen.getByRole('link', { name: 'Moderation' }));
  await waitFor(() => expect(location.history.at(-1)).toBe('/configure/moderation'));
  expect(unload()).toBe(false);
});

test('after a save nothing is guarded', async () => {
  server.use(...settingsHandlers([]));
  const confirm = jest.spyOn(window, 'confirm');
  const { location } = await renderAt('/configure/advanced');
  fireEvent.change(await screen.findByLabelText('Custom CSS URL'), {
    target: { value: 'https://cdn.example/p.css' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Saved.')).toBeTruthy();
  fireEvent.click(screen.getByRole('link', { name: 'General' }));
  await waitFor(() => expect(location.history.at(-1)).toBe('/configure/general'));
  expect(confirm).not.toHaveBeenCalled();
});

test('the guidelines preview is the server’s rendering of the draft', async () => {
  const bodies: unknown[] = [];
  server.use(
    ...settingsHandlers([]),
    graphql.query('ConsoleRenderMarkdown', ({ variables }) => {
      bodies.push(variables.body);
      return HttpResponse.json({ data: { renderMarkdown: '<p><strong>Be</strong> nice</p>' } });
    }),
  );
  await renderAt('/configure/general');
  fireEvent.change(await screen.findByLabelText('Community guidelines'), {
    target: { value: '**Be** nice' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Preview guidelines' }));
  const preview = await screen.findByRole('region', { name: 'Guidelines preview' });
  await waitFor(() => expect(preview.querySelector('strong')?.textContent).toBe('Be'));
  expect(bodies).toEqual(['**Be** nice']);
  // The draft survives the round trip to the preview and back.
  fireEvent.click(screen.getByRole('button', { name: 'Edit guidelines' }));
  expect((screen.getByLabelText('Community guidelines') as HTMLTextAreaElement).value).toBe(
    '**Be** nice',
  );
});

test('Authentication requires two-factor sign-in of staff, and says why when refused', async () => {
  const inputs: Record<string, unknown>[] = [];
  let refuse = true;
  server.use(
    ...settingsHandlers(inputs, () =>
      refuse
        ? {
            data: null,
            errors: [
              {
                message: 'Set it up first.',
                extensions: {
                  code: 'TWO_FACTOR_ENROLMENT_REQUIRED',
                  field: 'requireStaffTwoFactor',
                },
              },
            ],
          }
        : undefined,
    ),
  );
  await renderAt('/configure/authentication');
  const box = await screen.findByLabelText('Require two-factor sign-in for staff');
  fireEvent.click(box);
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect((await screen.findByRole('alert')).textContent).toBe(
    'Not saved: Set up two-factor sign-in for your account first, under Security.',
  );
  refuse = false;
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Saved.')).toBeTruthy();
  expect(inputs.map((input) => input['requireStaffTwoFactor'])).toEqual([true, true]);
});

test('Authentication switches guest comments on (off by default) and their pre-moderation off', async () => {
  const inputs: Record<string, unknown>[] = [];
  server.use(...settingsHandlers(inputs));
  await renderAt('/configure/authentication');
  const guests = await screen.findByLabelText<HTMLInputElement>('Guest comments');
  const premod = screen.getByLabelText<HTMLInputElement>('Pre-moderate guests');
  expect([guests.checked, premod.checked]).toEqual([false, true]);
  fireEvent.click(guests);
  fireEvent.click(premod);
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Saved.')).toBeTruthy();
  expect(inputs).toEqual([
    expect.objectContaining({ signUpOpen: true, guestComments: true, guestPremod: false }),
  ]);
});
