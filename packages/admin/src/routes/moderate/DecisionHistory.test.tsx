import { screen, within } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole, TEST_MODERATOR } from '../../testing/renderConsole';
import { DecisionHistory } from './DecisionHistory';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

test('lists my latest decisions with links to their stories', async () => {
  let asked: unknown;
  server.use(
    graphql.query('MyDecisions', ({ variables }) => {
      asked = variables;
      return HttpResponse.json({
        data: {
          myDecisions: [
            {
              id: 'd1',
              status: 'REJECTED',
              reason: 'SPAM',
              createdAt: '2026-11-21T08:00:00.000Z',
              comment: {
                id: 'c1',
                bodySource: 'Buy pills now',
                story: { id: 's1', title: 'A story', url: 'https://site.example/a' },
                author: { username: 'spammer' },
              },
            },
            {
              id: 'd2',
              status: 'APPROVED',
              reason: null,
              createdAt: '2026-11-21T07:00:00.000Z',
              comment: null,
            },
          ],
        },
      });
    }),
  );
  const env = await createTestConsoleEnv({ token: 'token' });
  renderInConsole(<DecisionHistory />, env, { viewer: TEST_MODERATOR });
  const list = within(await screen.findByRole('list'));
  const items = list.getAllByRole('listitem');
  expect(items).toHaveLength(2);
  expect(items[0]?.querySelector('strong')?.textContent).toBe('Rejected as spam');
  expect(items[1]?.querySelector('strong')?.textContent).toBe('Approved');
  expect(items[0]?.textContent).toContain('spammer');
  expect(list.getByRole('link', { name: 'A story' }).getAttribute('href')).toBe(
    'https://site.example/a',
  );
  expect(items[1]?.textContent).toContain('the comment was deleted');
  expect(asked).toEqual({ first: 25 });
});
