// Transport throughput and latency against the demo GraphQL server on 127.0.0.1 (real HTTP and
// WebSocket, this process as the client). Bounded: a fixed number of operations per case.
// Run: npm run bench
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gql } from '@urql/core';
import { pipe, subscribe } from 'wonka';
import { WebSocket } from 'ws';
import { createTransport } from '@parley/transport';
import { createDemoServer } from '../examples/transport-demo/server';

const Counter = gql`
  query Counter {
    counter {
      id
      value
    }
  }
`;
const Increment = gql`
  mutation Increment {
    increment {
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

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(
  name: string,
  count: number,
  concurrency: number,
  run: (worker: number) => Promise<unknown>,
) {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next++ < count) {
        const t0 = performance.now();
        await run(worker);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(44)} ${String(count).padStart(6)} ops  ${(count / seconds).toFixed(0).padStart(7)} ops/s` +
      `  p50 ${percentile(latencies, 50).toFixed(2)} ms  p99 ${percentile(latencies, 99).toFixed(2)} ms`,
  );
}

// Node's fetch sends no Origin header: no origin needs allowing.
const server = createDemoServer({
  distDir: fileURLToPath(new URL('../examples/transport-demo/dist/', import.meta.url)),
  allowedOrigins: () => [],
});
const url = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}/graphql`;
const transport = createTransport({ url, WebSocket });
const { client } = transport;

console.log(
  `node ${process.version}; demo schema on the Parley server runtime (yoga + graphql-ws, armor, masking, metrics) at ${url}\n`,
);
await client.query(Counter, {}).toPromise();
await measure('query, cache hit (cache-first)', 20_000, 1, () =>
  client.query(Counter, {}).toPromise(),
);
await measure('query over HTTP (network-only), 1 at a time', 2_000, 1, () =>
  client.query(Counter, {}, { requestPolicy: 'network-only' }).toPromise(),
);
// urql shares one request between identical operations in flight, so concurrent readers are
// ten transports (as ten browsers would be), each sending its own requests.
const readers = Array.from({ length: 10 }, () => createTransport({ url, WebSocket }));
await measure('query over HTTP (network-only), 10 clients', 2_000, 10, (worker) =>
  readers[worker]!.client.query(Counter, {}, { requestPolicy: 'network-only' }).toPromise(),
);
await Promise.all(readers.map((reader) => reader.dispose()));
await measure('mutation with Idempotency-Key, 1 at a time', 1_000, 1, () =>
  client.mutation(Increment, {}).toPromise(),
);

// Live: time from a mutation's response to the subscriber seeing the event.
let resolveEvent: (() => void) | undefined;
const { unsubscribe } = pipe(
  client.subscription(CounterChanged, {}),
  subscribe(() => resolveEvent?.()),
);
await new Promise<void>((resolve) => {
  const stop = transport.onStatusChange((status) => status === 'connected' && (stop(), resolve()));
});
await measure('mutation → subscription event (same process)', 1_000, 1, async () => {
  const event = new Promise<void>((resolve) => (resolveEvent = resolve));
  await client.mutation(Increment, {}).toPromise();
  await event;
});
unsubscribe();
await transport.dispose();
await server.close();
