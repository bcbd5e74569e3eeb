import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { ERROR_TEXT } from '../../errorText';
import { createTestConsoleEnv, renderInConsole, TEST_MODERATOR } from '../../testing/renderConsole';
import { AlertsPage } from './AlertsPage';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

type Frequency = 'OFF' | 'EACH' | 'HOURLY' | 'DAILY';

const SITES = [
  { __typename: 'Site', id: 'site1', name: 'Daily News', url: 'https://news.example' },
  { __typename: 'Site', id: 'site2', name: 'Sports', url: 'https://sports.example' },
];

/**
 * A server keeping the viewer's alerts in memory: answers the page's query, saves each input
 * (recorded in `inputs`) or refuses it with `refuse`.
 */
function alertHandlers(inputs: unknown[], options: { refuse?: Record<string, unknown> } = {}) {
  const frequencies: Record<string, Frequency> = { site1: 'DAILY', site2: 'OFF' };
  const alertOf = (site: (typeof SITES)[number]) => ({
    __typename: 'ModerationAlert',
    frequency: frequencies[site.id],
    site,
  });
  return [
    graphql.query('ConsoleModerationAlerts', () =>
      HttpResponse.json({
        data: {
          viewer: {
            __typename: 'User',
            id: 'u-mod',
            moderationAlerts: SITES.map(alertOf),
          },
        },
      }),
    ),
    graphql.mutation('ConsoleSetModerationAlert', ({ variables }) => {
      inputs.push(variables.input);
      if (options.refuse) return HttpResponse.json({ data: null, errors: [options.refuse] });
      const { siteId, frequency } = variables.input as { siteId: string; frequency: Frequency };
      frequencies[siteId] = frequency;
      const site = SITES.find((s) => s.id === siteId)!;
      return HttpResponse.json({
        data: {
          setModerationAlert: { __typename: 'ModerationAlertPayload', alert: alertOf(site) },
        },
      });
    }),
  ];
}

async function renderPage() {
  const env = await createTestConsoleEnv({ token: 't' });
  return renderInConsole(<AlertsPage />, env, { path: '/alerts', viewer: TEST_MODERATOR });
}

const select = (site: string) =>
  screen.getByLabelText(`Email alerts for ${site}`) as HTMLSelectElement;
const rowOf = (site: string) => screen.getByRole('rowheader', { name: site }).closest('tr')!;

test('lists each site with its frequency, and explains the emails', async () => {
  server.use(...alertHandlers([]));
  await renderPage();
  expect(await screen.findByRole('rowheader', { name: 'Daily News' })).toBeTruthy();
  expect(screen.getByRole('heading', { name: 'My alerts' })).toBeTruthy();
  expect(select('Daily News').value).toBe('DAILY');
  expect(select('Sports').value).toBe('OFF');
  expect([...select('Sports').options].map((o) => o.textContent)).toEqual([
    'Off',
    'Each comment as it comes',
    'Hourly digest',
    'Daily digest',
  ]);
  expect(screen.getByText(/enters a site’s Pending or Reported queue/)).toBeTruthy();
  expect(screen.getByText(/one-time Approve and Reject links/)).toBeTruthy();
});

test('a change is saved at once, the select disabled meanwhile, then says Saved', async () => {
  const inputs: unknown[] = [];
  server.use(...alertHandlers(inputs));
  await renderPage();
  await screen.findByRole('rowheader', { name: 'Sports' });

  fireEvent.change(select('Sports'), { target: { value: 'EACH' } });
  expect(select('Sports').disabled).toBe(true);
  expect(select('Sports').value).toBe('EACH');
  await waitFor(() =>
    expect(within(rowOf('Sports')).getByRole('status').textContent).toBe('Saved.'),
  );
  expect(inputs).toEqual([{ siteId: 'site2', frequency: 'EACH' }]);
  expect(select('Sports').disabled).toBe(false);
  expect(select('Sports').value).toBe('EACH');
  // The other site is untouched and says nothing.
  expect(select('Daily News').value).toBe('DAILY');
  expect(within(rowOf('Daily News')).getByRole('status').textContent).toBe('');
});

test('a refused change shows the coded error and the saved frequency again', async () => {
  const inputs: unknown[] = [];
  server.use(
    ...alertHandlers(inputs, {
      refuse: { message: 'No such site.', extensions: { code: 'NOT_FOUND', field: 'siteId' } },
    }),
  );
  await renderPage();
  await screen.findByRole('rowheader', { name: 'Daily News' });
  fireEvent.change(select('Daily News'), { target: { value: 'HOURLY' } });
  expect((await within(rowOf('Daily News')).findByRole('alert')).textContent).toBe(
    ERROR_TEXT.NOT_FOUND,
  );
  expect(inputs).toEqual([{ siteId: 'site1', frequency: 'HOURLY' }]);
  expect(select('Daily News').value).toBe('DAILY');
  expect(select('Daily News').disabled).toBe(false);
  expect(within(rowOf('Daily News')).getByRole('status').textContent).toBe('');
});
