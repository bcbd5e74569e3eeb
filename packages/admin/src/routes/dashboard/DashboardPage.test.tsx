import { screen, within } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { TEST_MODERATOR, createTestConsoleEnv, renderInConsole } from '../../testing/renderConsole';
import { DashboardPage } from './DashboardPage';
import { chartSummary } from './HourlyChart';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const START = Date.parse('2026-11-19T10:00:00.000Z');
// 48 hours, oldest first: 0 comments except 5 in hour 10 and 2 in hour 47.
const HOURS = Array.from({ length: 48 }, (_, i) => ({
  hour: new Date(START + i * 3_600_000).toISOString(),
  count: i === 10 ? 5 : i === 47 ? 2 : 0,
}));

const DASHBOARD = {
  today: { newComments: 12, rejectedComments: 3, rejectionRate: 0.25, newUsers: 4, bans: 1 },
  allTime: {
    newComments: 12345,
    rejectedComments: 987,
    rejectionRate: 0.0812,
    newUsers: 321,
    bans: 7,
  },
  commentsPerHour: HOURS,
  topStoriesToday: [
    { story: { id: 's1', title: 'Budget vote', url: 'https://news.test/budget' }, count: 9 },
    { story: { id: 's 2', title: null, url: 'https://news.test/untitled' }, count: 1 },
  ],
};

async function renderDashboard(dashboard: unknown = DASHBOARD) {
  server.use(graphql.query('ConsoleDashboard', () => HttpResponse.json({ data: { dashboard } })));
  const env = await createTestConsoleEnv({ token: 'token' });
  return renderInConsole(<DashboardPage />, env, {
    path: '/admin/dashboard',
    viewer: TEST_MODERATOR,
  });
}

function valueOf(card: HTMLElement, term: string): string {
  const dt = within(card).getByText(term, { selector: 'dt' });
  return dt.nextElementSibling?.textContent ?? '';
}

test('today and all time: new comments, rejection rate in percent, new users, bans', async () => {
  await renderDashboard();
  const today = (await screen.findByRole('heading', { name: 'Today' })).parentElement!;
  expect(valueOf(today, 'New comments')).toBe('12');
  expect(valueOf(today, 'Rejection rate')).toBe('25% (3 rejected)');
  expect(valueOf(today, 'New users')).toBe('4');
  expect(valueOf(today, 'Bans')).toBe('1');
  const allTime = screen.getByRole('heading', { name: 'All time' }).parentElement!;
  expect(valueOf(allTime, 'New comments')).toBe('12,345');
  expect(valueOf(allTime, 'Rejection rate')).toContain('8.1%');
});

test('the chart is one image with a summary, and its numbers are in a table', async () => {
  await renderDashboard();
  const chart = await screen.findByRole('img', { name: /^Comments per hour: / });
  expect(chart.getAttribute('aria-label')).toContain('7 comments in the last 48 hours');
  expect(chart.getAttribute('aria-label')).toContain('with 5.');
  expect(chart.querySelectorAll('rect.bar')).toHaveLength(48);
  // The busiest hour's bar is the tallest one.
  const heights = [...chart.querySelectorAll('rect.bar')].map((bar) =>
    Number(bar.getAttribute('height')),
  );
  expect(heights.indexOf(Math.max(...heights))).toBe(10);
  const table = screen.getByRole('table', { name: 'Comments per hour, oldest first' });
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows).toHaveLength(48);
  expect(within(rows[10]!).getByRole('cell').textContent).toBe('5');
  expect(rows[10]!.querySelector('time')?.getAttribute('dateTime')).toBe(HOURS[10]!.hour);
});

test('most commented stories today link to the moderation queue of each story', async () => {
  await renderDashboard();
  const list = (await screen.findByRole('heading', { name: 'Most commented stories today' }))
    .nextElementSibling as HTMLElement;
  const items = within(list).getAllByRole('listitem');
  expect(items.map((item) => item.textContent)).toEqual([
    expect.stringContaining('Budget vote9 comments'),
    expect.stringContaining('https://news.test/untitled1 comment'),
  ]);
  expect(screen.getByRole('link', { name: 'Budget vote' }).getAttribute('href')).toBe(
    '/admin/moderate?story=s1',
  );
  expect(
    screen.getByRole('link', { name: 'https://news.test/untitled' }).getAttribute('href'),
  ).toBe('/admin/moderate?story=s%202');
});

test('an empty day says so, and the chart says there were no comments', async () => {
  const quiet = HOURS.map(({ hour }) => ({ hour, count: 0 }));
  await renderDashboard({ ...DASHBOARD, commentsPerHour: quiet, topStoriesToday: [] });
  expect(await screen.findByText('No comments yet today.')).toBeTruthy();
  expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
    'Comments per hour: No comments in the last 48 hours.',
  );
  expect(chartSummary(quiet)).toBe('No comments in the last 48 hours.');
});

test('a failed load shows the coded error', async () => {
  server.use(
    graphql.query('ConsoleDashboard', () =>
      HttpResponse.json({
        data: null,
        errors: [{ message: 'x', extensions: { code: 'FORBIDDEN' } }],
      }),
    ),
  );
  const env = await createTestConsoleEnv({ token: 'token' });
  renderInConsole(<DashboardPage />, env, { viewer: TEST_MODERATOR });
  expect((await screen.findByRole('alert')).textContent).toBe('Your role does not allow this.');
});
