import { gql } from '@urql/core';
import { pipe, subscribe } from 'wonka';
import { WebSocket } from 'ws';
import { createTransport } from '../src/createTransport';
import type { SocketStatus, Transport } from '../src/types';
import { startDemoApi } from './demoServer';
import type { RunningDemo } from './demoServer';

// The transport against a real GraphQL server (graphql-yoga over HTTP, graphql-ws over
// WebSocket) on 127.0.0.1: no mocks between the two.

const Counter = gql`
  query Counter {
    counter {
      id
      value
    }
  }
`;
const Increment = gql`
  mutation Increment($by: Int) {
    increment(by: $by) {
      id
      value
    }
  }
`;
const CounterChanged = gql`
  subscription CounterChanged {
    counterChanged {
      id
      value
    }
  }
`;

let api: RunningDemo;
const transports: Transport[] = [];

function connect(): Transport {
  const transport = createTransport({
    url: `${api.origin}/graphql`,
    WebSocket,
    socket: { backoff: { minMs: 20, maxMs: 200 } },
  });
  transports.push(transport);
  return transport;
}

/** Resolves when `check` passes, polling every 10 ms for at most `ms` (under Jest's 5 s). */
async function eventually(check: () => void, ms = 3000): Promise<void> {
  const start = Date.now();
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() - start > ms) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

beforeEach(async () => {
  api = await startDemoApi();
});
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.dispose()));
  await api.close();
});

it('queries, mutates and refreshes the cached query the mutation touched', async () => {
  const t = connect();
  const values: number[] = [];
  const { unsubscribe } = pipe(
    t.client.query(Counter, {}),
    // Stale replays (urql re-emits the old result while refetching) are not new values.
    subscribe((r) => !r.stale && values.push(r.data.counter.value)),
  );
  await eventually(() => expect(values).toEqual([0]));
  const result = await t.client.mutation(Increment, { by: 2 }).toPromise();
  expect(result.data.increment.value).toBe(2);
  // The mutation returned a Counter, so the active Counter query is fetched again.
  await eventually(() => expect(values).toEqual([0, 2]));
  unsubscribe();
});

it('lets the server deduplicate a mutation sent twice with one client mutation id', async () => {
  const t = connect();
  const context = { clientMutationId: 'same-key' };
  const first = await t.client.mutation(Increment, { by: 1 }, context).toPromise();
  const second = await t.client.mutation(Increment, { by: 1 }, context).toPromise();
  expect(first.data.increment.value).toBe(1);
  expect(second.data.increment.value).toBe(1);
  const fresh = await t.client.query(Counter, {}, { requestPolicy: 'network-only' }).toPromise();
  expect(fresh.data.counter.value).toBe(1);
});

it('delivers live updates over one socket, and resumes them after the server restarts', async () => {
  const reader = connect();
  const writer = connect();
  const statuses: SocketStatus[] = [];
  // Registered before the socket code has even loaded: it arrives with the first subscription.
  reader.onStatusChange((s) => statuses.push(s));
  expect(reader.status).toBe('idle');
  const live: number[] = [];
  const { unsubscribe } = pipe(
    reader.client.subscription(CounterChanged, {}),
    subscribe((r) => live.push(r.data.counterChanged.value)),
  );
  await eventually(() => expect(reader.status).toBe('connected'));
  await writer.client.mutation(Increment, { by: 5 }).toPromise();
  await eventually(() => expect(live).toEqual([5]));

  await api.restart(); // a new process: the counter starts from 0 again
  await eventually(() => expect(statuses).toContain('reconnecting'));
  await eventually(() => expect(reader.status).toBe('connected'));
  await writer.client.mutation(Increment, { by: 1 }).toPromise();
  await eventually(() => expect(live).toEqual([5, 1]));
  unsubscribe();
});

it('reports a refused connection as NETWORK_ERROR after its retries', async () => {
  const t = createTransport({
    url: `${api.origin}/graphql`,
    WebSocket,
    retryDelaysMs: [10, 10],
  });
  transports.push(t);
  await api.close();
  const result = await t.client.query(Counter, {}).toPromise();
  expect(result.error).toMatchObject({ code: 'NETWORK_ERROR' });
  api = await startDemoApi(); // afterEach closes it
});
