import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole, TEST_MODERATOR } from '../../testing/renderConsole';
import { WebhookSettings } from './WebhookSettings';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  jest.restoreAllMocks();
});
afterAll(() => server.close());

const SECRET = 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=';

function deliveryOf(fields: Record<string, unknown>) {
  return {
    __typename: 'WebhookDelivery',
    id: 'd-1',
    event: 'comment.created',
    eventId: 'evt_1',
    payload: '{"id":"evt_1","type":"comment.created"}',
    state: 'PENDING',
    attempts: 1,
    nextAttemptAt: '2026-11-27T12:00:30.000Z',
    responseStatus: 500,
    durationMs: 41,
    responseExcerpt: 'down for maintenance',
    error: 'The endpoint answered 500.',
    createdAt: '2026-11-27T12:00:00.000Z',
    finishedAt: null,
    ...fields,
  };
}

/** A server of endpoints in memory, recording each mutation's input. */
function webhookHandlers(inputs: [string, unknown][], refuse?: Record<string, unknown>) {
  type Hook = Record<string, unknown> & { id: string; deliveries: { edges: { node: unknown }[] } };
  const hooks: Hook[] = [];
  const view = (hook: Hook, secret: string | null = null) => ({ ...hook, secret });
  return [
    graphql.query('ConsoleWebhooks', () =>
      HttpResponse.json({
        data: {
          webhooks: hooks.map((h) => view(h)),
          sites: [
            { __typename: 'Site', id: 'site-1', name: 'Daily News' },
            { __typename: 'Site', id: 'site-2', name: 'Sports' },
          ],
        },
      }),
    ),
    graphql.mutation('ConsoleCreateWebhook', ({ variables }) => {
      inputs.push(['create', variables.input]);
      if (refuse) return HttpResponse.json({ data: null, errors: [refuse] });
      const input = variables.input as Record<string, unknown>;
      const hook: Hook = {
        __typename: 'Webhook',
        id: `wh-${hooks.length + 1}`,
        enabled: true,
        createdAt: '2026-11-27T12:00:00.000Z',
        ...input,
        site: input['siteId'] ? { __typename: 'Site', id: input['siteId'], name: 'Sports' } : null,
        deliveries: {
          __typename: 'WebhookDeliveryConnection',
          edges: [{ __typename: 'WebhookDeliveryEdge', node: deliveryOf({}) }],
        } as never,
      };
      hooks.push(hook);
      return HttpResponse.json({ data: { createWebhook: { webhook: view(hook, SECRET) } } });
    }),
    graphql.mutation('ConsoleSendTestWebhook', ({ variables }) => {
      inputs.push(['test', variables.input]);
      return HttpResponse.json({
        data: {
          sendTestWebhook: {
            delivery: deliveryOf({
              id: 'd-2',
              event: 'webhook.test',
              state: 'DELIVERED',
              responseStatus: 204,
              durationMs: 12,
              error: null,
            }),
          },
        },
      });
    }),
    graphql.mutation('ConsoleRedeliverWebhook', ({ variables }) => {
      inputs.push(['redeliver', variables.input]);
      return HttpResponse.json({
        data: {
          redeliverWebhook: {
            delivery: deliveryOf({ id: 'd-3', state: 'PENDING', error: 'No answer within 10 s' }),
          },
        },
      });
    }),
  ];
}

async function renderSection() {
  const env = await createTestConsoleEnv({ token: 't' });
  return renderInConsole(<WebhookSettings />, env, {
    viewer: { ...TEST_MODERATOR, role: 'ADMIN' },
  });
}

test('adds an endpoint with its events, shows its secret once, and lists its deliveries', async () => {
  const inputs: [string, unknown][] = [];
  server.use(...webhookHandlers(inputs));
  await renderSection();
  expect(await screen.findByText('No webhooks yet.')).toBeTruthy();

  // Neither URL nor events: said beside the fields, nothing sent.
  fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
  const url = screen.getByLabelText('Endpoint URL');
  expect(url.getAttribute('aria-invalid')).toBe('true');
  expect(document.activeElement).toBe(url);
  expect(screen.getByText('Choose at least one event.')).toBeTruthy();
  expect(inputs).toEqual([]);

  fireEvent.change(url, { target: { value: ' https://hooks.example.com/in ' } });
  fireEvent.change(screen.getByLabelText(/^Description/), { target: { value: 'Newsroom bot' } });
  fireEvent.click(screen.getByLabelText(/^comment\.created/));
  fireEvent.click(screen.getByLabelText(/^user\.banned/));
  fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'SLACK' } });
  fireEvent.change(screen.getByLabelText('Site'), { target: { value: 'site-2' } });
  fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
  expect((await screen.findByTestId('webhook-secret')).textContent).toBe(SECRET);
  expect(inputs).toEqual([
    [
      'create',
      {
        url: 'https://hooks.example.com/in',
        description: 'Newsroom bot',
        events: ['COMMENT_CREATED', 'USER_BANNED'],
        format: 'SLACK',
        siteId: 'site-2',
      },
    ],
  ]);
  const endpoint = await screen.findByRole('region', { name: 'https://hooks.example.com/in' });
  expect(
    within(endpoint).getByText(/^Slack message, Sports\. Events: comment\.created, user\.banned$/),
  ).toBeTruthy();
  const row = within(endpoint).getByRole('rowheader', { name: 'comment.created' }).closest('tr')!;
  expect(within(row).getByText(/^Retrying, next/)).toBeTruthy();
  expect(within(row).getByText('500 in 41 ms')).toBeTruthy();
  expect(within(row).getByText('down for maintenance')).toBeTruthy();

  // A test event says what the endpoint answered.
  fireEvent.click(within(endpoint).getByRole('button', { name: 'Send test event' }));
  expect(await screen.findByText('Delivered: the endpoint answered 204 in 12 ms.')).toBeTruthy();
  // Send again: what came of it.
  fireEvent.click(within(row).getByRole('button', { name: 'Send again comment.created' }));
  expect(
    await screen.findByText('Not delivered: No answer within 10 s. It is tried again.'),
  ).toBeTruthy();
  expect(inputs.slice(1)).toEqual([
    ['test', { webhookId: 'wh-1' }],
    ['redeliver', { deliveryId: 'd-1' }],
  ]);
});

test('a URL the server refuses is said beside the field, in the console’s words, which gets the focus', async () => {
  const inputs: [string, unknown][] = [];
  server.use(
    ...webhookHandlers(inputs, {
      message: 'The server’s own words, which the console does not show.',
      extensions: {
        code: 'INVALID_INPUT',
        field: 'url',
        problem: 'ADDRESS_PRIVATE',
        host: '10.0.0.5',
        address: '10.0.0.5',
      },
    }),
  );
  await renderSection();
  const url = await screen.findByLabelText('Endpoint URL');
  fireEvent.change(url, { target: { value: 'http://10.0.0.5/hook' } });
  fireEvent.click(screen.getByLabelText(/^story\.created/));
  fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
  await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
  // In the console's words (its language), with the server's figures.
  expect(
    screen.getByText(
      '10.0.0.5 is at 10.0.0.5, a loopback, private or reserved address: webhooks go to public addresses unless Configure › Advanced allows private ones.',
    ),
  ).toBeTruthy();
  expect(document.activeElement).toBe(url);
  expect(screen.queryByTestId('webhook-secret')).toBeNull();
});
