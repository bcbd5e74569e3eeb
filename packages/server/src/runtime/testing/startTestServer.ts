import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import { WebSocket } from 'ws';
import { createPubSub } from '../../pubsub/createPubSub';
import type { CreatePubSubOptions, ParleyPubSub } from '../../pubsub/createPubSub';
import { createHttpServer } from '../createHttpServer';
import type { CreateHttpServerOptions, HttpServer } from '../createHttpServer';
import { createMetrics } from '../createMetrics';
import type { Metrics } from '../createMetrics';
import { createTestContext, createTestSchema } from './createTestSchema';
import { TEST_SITE_ORIGIN, createMemoryLogger } from './createTestYoga';

/** A test server on 127.0.0.1 and a random port. */
export interface TestServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** The server under test. */
  http: HttpServer;
  /** Its pub/sub. */
  pubsub: ParleyPubSub;
  /** Its metrics. */
  metrics: Metrics;
  /** Parsed log lines (warn and above). */
  logs: Array<Record<string, unknown>>;
  /** A graphql-ws client for this server; disposed by `close()`. */
  wsClient(connectionParams?: Record<string, unknown>): Client;
  /** Disposes the clients, closes the server, then the pub/sub. */
  close(): Promise<void>;
}

/** Starts the test schema in a real HTTP + WebSocket server. */
export async function startTestServer(
  options: Partial<CreateHttpServerOptions> & { pubsub?: CreatePubSubOptions } = {},
): Promise<TestServer> {
  const { logger, logs } = createMemoryLogger();
  const pubsub = createPubSub({ logger, ...options.pubsub });
  // Default metrics are skipped: their collectors are process-wide and add nothing here.
  const metrics = createMetrics({ defaultMetrics: false });
  const http = createHttpServer({
    schema: createTestSchema(),
    context: createTestContext(pubsub),
    getAllowedOrigins: async () => [TEST_SITE_ORIGIN],
    logger,
    metrics,
    ...options,
  });
  const port = await http.listen(0, '127.0.0.1');
  const origin = `http://127.0.0.1:${port}`;
  const clients: Client[] = [];
  return {
    origin,
    http,
    pubsub,
    metrics,
    logs,
    wsClient(connectionParams) {
      const client = createClient({
        url: `ws://127.0.0.1:${port}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams,
        retryAttempts: 0,
        lazy: true,
      });
      clients.push(client);
      return client;
    },
    async close() {
      // dispose(), not terminate(): terminate() on a socket still connecting crashes Node (ws).
      await Promise.all(clients.map((client) => client.dispose()));
      await http.close();
      await pubsub.close();
    },
  };
}

/** Runs a single-result operation over graphql-ws. */
export function wsQuery(client: Client, query: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let result: Record<string, unknown> = {};
    client.subscribe(
      { query },
      {
        next: (value) => {
          result = value as Record<string, unknown>;
        },
        error: reject,
        complete: () => resolve(result),
      },
    );
  });
}
