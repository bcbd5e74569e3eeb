import { fireEvent, screen, waitFor } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole, TEST_MODERATOR } from '../../testing/renderConsole';
import { StoriesPage } from './StoriesPage';
import type { StoryRowData } from './StoryRow';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const STORY: StoryRowData = {
  id: 's1',
  title: 'Budget vote',
  url: 'https://site.example/budget',
  status: 'OPEN',
  commentCount: 12,
  site: { id: 'site-1', name: 'News' },
  settings: { premod: null, liveUpdates: true, effectivePremod: 'LINKS' },
  moderationCounts: { pending: 3, reported: 4 },
};

function handlers(sent: Record<string, unknown>[], inputs: unknown[]) {
  return [
    graphql.query('ConsoleSiteOptions', () =>
      HttpResponse.json({
        data: {
          sites: [
            { id: 'site-1', name: 'News' },
            { id: 'site-2', name: 'Blog' },
          ],
        },
      }),
    ),
    graphql.query('ConsoleStories', ({ variables }) => {
      sent.push(variables);
      return HttpResponse.json({
        data: {
          stories: {
            edges: [{ cursor: 'c1', node: STORY }],
            pageInfo: { hasNextPage: false, endCursor: 'c1' },
          },
        },
      });
    }),
    graphql.mutation('ConsoleUpdateStory', ({ variables }) => {
      inputs.push(variables.input);
      return HttpResponse.json({ data: { updateStory: { story: STORY } } });
    }),
  ];
}

async function renderPage(sent: Record<string, unknown>[] = [], inputs: unknown[] = []) {
  server.use(...handlers(sent, inputs));
  const env = await createTestConsoleEnv({ token: 't' });
  renderInConsole(<StoriesPage />, env, { path: '/stories', viewer: TEST_MODERATOR });
  await screen.findByRole('rowheader', { name: /Budget vote/ });
}

test('shows counts and a link to moderate the story', async () => {
  await renderPage();
  const row = screen.getByRole('rowheader', { name: /Budget vote/ }).closest('tr')!;
  expect(row.textContent).toContain('12 / 3 / 4');
  expect(row.textContent).toContain('News');
  expect(screen.getByRole('link', { name: 'Moderate Budget vote' }).getAttribute('href')).toBe(
    '/admin/moderate?story=s1',
  );
});

test('search, status and site filters go into the query variables', async () => {
  const sent: Record<string, unknown>[] = [];
  await renderPage(sent);
  expect(sent[0]).toMatchObject({ query: null, status: null, siteId: null, after: null });
  fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'CLOSED' } });
  await screen.findByRole('option', { name: 'Blog' });
  fireEvent.change(screen.getByLabelText('Site'), { target: { value: 'site-2' } });
  fireEvent.change(screen.getByLabelText('Search'), { target: { value: ' budget ' } });
  await waitFor(() =>
    expect(sent.at(-1)).toMatchObject({ query: 'budget', status: 'CLOSED', siteId: 'site-2' }),
  );
});

test('close, pre-moderation and live updates send the story update', async () => {
  const inputs: unknown[] = [];
  await renderPage([], inputs);
  fireEvent.click(screen.getByRole('button', { name: 'Close Budget vote' }));
  await waitFor(() => expect(inputs).toEqual([{ storyId: 's1', status: 'CLOSED' }]));

  const premod = screen.getByLabelText('Pre-moderation of Budget vote') as HTMLSelectElement;
  expect(premod.value).toBe('INHERIT');
  expect(premod.selectedOptions[0]?.textContent).toBe('As the organization (Comments with links)');
  fireEvent.change(premod, { target: { value: 'ALL' } });
  await waitFor(() => expect(inputs.at(-1)).toEqual({ storyId: 's1', premod: 'ALL' }));
  fireEvent.change(premod, { target: { value: 'INHERIT' } });
  await waitFor(() => expect(inputs.at(-1)).toEqual({ storyId: 's1', premod: null }));

  fireEvent.click(screen.getByLabelText('Live updates on Budget vote'));
  await waitFor(() => expect(inputs.at(-1)).toEqual({ storyId: 's1', liveUpdates: false }));
});
