// A process of live readers for `bench:scale` (forked, driven over IPC): it opens graphql-ws
// clients, as the widget's transport does, each on a socket of its own from a loopback address
// of its own group (127.x.y.z: the server bounds sockets per address, as it would real readers),
// subscribes each to `commentCreated` of a story by the stream's trusted document, and records
// when each comment reached each reader. Its own process: the server's event loop must not share
// its time with the readers'.
import { performance } from 'node:perf_hooks';
import { createClient } from 'graphql-ws/client';
import type { Client } from 'graphql-ws/client';
import WebSocket from 'ws';

/** What the bench asks of this process. */
export type SubscribersCommand =
  | {
      type: 'open';
      /** The server's `ws://…/graphql` for each reader, in turn. */
      urls: string[];
      /** The story of reader `i` is `storyIds[i % length]`. */
      storyIds: string[];
      count: number;
      /** The stream's `commentCreated` document. */
      documentId: string;
      /** Readers per loopback address (under the server's bound). */
      perAddress: number;
      /** First loopback address group used (a second process takes another). */
      addressGroup: number;
    }
  | { type: 'collect' }
  | { type: 'close' };

/** What this process answers. */
export type SubscribersReport =
  | { type: 'opened'; ms: number; errors: string[] }
  | {
      type: 'arrivals';
      /** Comment id → when each reader received it (ms, `performance.timeOrigin` based). */
      arrivals: Record<string, number[]>;
      /** Readers whose socket closed or whose subscription failed since the last report. */
      errors: string[];
      /** Readers whose subscription is running (reconnects included). */
      following: number;
    };

const now = () => performance.timeOrigin + performance.now();
const clients: Client[] = [];
const stops: (() => void)[] = [];
let arrivals: Record<string, number[]> = {};
let errors: string[] = [];
let following = 0;

/** A `WebSocket` leaving from `localAddress` (graphql-ws takes the class, not an instance). */
function socketFrom(localAddress: string) {
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { localAddress });
    }
  };
}

function address(group: number, index: number): string {
  return `127.${group}.${Math.floor(index / 250)}.${(index % 250) + 1}`;
}

/** Opens reader `i` and resolves once its subscription is acknowledged by a first `connected`. */
function openReader(command: Extract<SubscribersCommand, { type: 'open' }>, i: number) {
  return new Promise<void>((resolve, reject) => {
    const client = createClient({
      url: command.urls[i % command.urls.length]!,
      webSocketImpl: socketFrom(address(command.addressGroup, Math.floor(i / command.perAddress))),
      lazy: false,
      retryAttempts: 0,
      // A closed socket is counted (`closed` and the sink's `error`), not printed.
      onNonLazyError: () => undefined,
      on: {
        connected: () => resolve(),
        closed: (event) => {
          reject(new Error(`closed: ${(event as { code?: number }).code}`));
        },
      },
    });
    clients.push(client);
    following++;
    const stop = client.subscribe(
      {
        query: '',
        variables: { storyId: command.storyIds[i % command.storyIds.length] },
        extensions: { persistedQuery: { version: 1, documentId: command.documentId } },
      },
      {
        next: (result) => {
          const at = now();
          const id = (result.data as { commentCreated?: { id: string } } | undefined)
            ?.commentCreated?.id;
          if (id === undefined) {
            errors.push(JSON.stringify(result.errors ?? result));
            return;
          }
          (arrivals[id] ??= []).push(at);
        },
        error: (error) => {
          following--;
          errors.push(error instanceof Error ? error.message : JSON.stringify(error));
        },
        complete: () => undefined,
      },
    );
    stops.push(stop);
  });
}

process.on('message', async (command: SubscribersCommand) => {
  const send = (report: SubscribersReport) => process.send!(report);
  if (command.type === 'open') {
    const start = now();
    const failures: string[] = [];
    // A few hundred handshakes at a time: a burst of 10,000 would only measure the backlog.
    for (let first = 0; first < command.count; first += 250) {
      const batch = [];
      for (let i = first; i < Math.min(command.count, first + 250); i++) {
        batch.push(openReader(command, i).catch((error: Error) => failures.push(error.message)));
      }
      await Promise.all(batch);
    }
    send({ type: 'opened', ms: now() - start, errors: failures.slice(0, 5) });
  } else if (command.type === 'collect') {
    send({ type: 'arrivals', arrivals, errors: errors.slice(0, 5), following });
    arrivals = {};
    errors = [];
  } else {
    for (const stop of stops) stop();
    await Promise.all(clients.map((client) => client.dispose()));
    process.exit(0);
  }
});
