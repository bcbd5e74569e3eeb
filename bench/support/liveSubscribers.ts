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
import {
  SOCKET_BACKOFF_FACTOR,
  SOCKET_BACKOFF_MAX_MS,
  SOCKET_BACKOFF_MIN_MS,
  SOCKET_TIMEOUT_MS,
} from '@parley/transport';
import { createSocket } from '../../packages/transport/src/createSocket';
import {
  CATCH_UP_DELAY_MS,
  CATCH_UP_MARGIN_MS,
} from '../../packages/stream/src/followLiveComments';

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
      /**
       * `transport`: each reader is the widget's socket (the transport's createSocket: its
       * backoff with jitter, its keep-alive) and, back from a drop, asks for what it missed as
       * the stream does (`commentsSince` from the server's time last heard). @default plain
       * graphql-ws clients that do not reconnect
       */
      mode?: 'plain' | 'transport';
    }
  | { type: 'collect' }
  | { type: 'close' };

/** What this process answers. */
export type SubscribersReport =
  | { type: 'opened'; ms: number; errors: string[] }
  | {
      type: 'arrivals';
      /** When (as `arrivals`) each reader was connected again after its last drop. */
      reconnectedAt: number[];
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
const disposers: (() => Promise<void>)[] = [];
let arrivals: Record<string, number[]> = {};
let errors: string[] = [];
let following = 0;
let reconnectedAt: number[] = [];

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

/** Reader `i` follows `commentCreated` of `storyId` on `client`; returns how to stop. */
function follow(client: Client, i: number, storyId: string, documentId: string): () => void {
  following++;
  return client.subscribe(
    {
      query: '',
      variables: { storyId },
      extensions: { persistedQuery: { version: 1, documentId } },
    },
    {
      next: (result) =>
        arrived(
          i,
          (result.data as { commentCreated?: { id: string } })?.commentCreated?.id,
          result,
        ),
      error: (error) => {
        following--;
        errors.push(error instanceof Error ? error.message : JSON.stringify(error));
      },
      complete: () => undefined,
    },
  );
}

/** The comments each reader has had: one caught up and delivered live too counts once. */
const had = new Map<number, Set<string>>();

/** Reader `i` is handed comment `id` (live or caught up). */
function arrived(i: number, id: string | undefined, result: unknown) {
  const at = now();
  if (id === undefined) {
    errors.push(JSON.stringify(result));
    return;
  }
  const mine = had.get(i) ?? new Set<string>();
  had.set(i, mine);
  if (mine.has(id)) return;
  mine.add(id);
  (arrivals[id] ??= []).push(at);
}

const CATCH_UP = `query ($storyId: ID!, $since: DateTime!) { commentsSince(storyId: $storyId, since: $since) { id } }`;

/**
 * Reader `i` as the widget is: the transport's socket, and the stream's catch-up after a drop
 * (followLiveComments.ts), with its margin and delay. Resolves once first connected.
 */
function openTransportReader(command: Extract<SubscribersCommand, { type: 'open' }>, i: number) {
  return new Promise<void>((resolve) => {
    const url = command.urls[i % command.urls.length]!;
    const storyId = command.storyIds[i % command.storyIds.length]!;
    const controller = createSocket({
      url,
      getToken: () => null,
      timeoutMs: SOCKET_TIMEOUT_MS,
      backoff: {
        minMs: SOCKET_BACKOFF_MIN_MS,
        maxMs: SOCKET_BACKOFF_MAX_MS,
        factor: SOCKET_BACKOFF_FACTOR,
      },
      WebSocket: socketFrom(
        address(command.addressGroup, Math.floor(i / command.perAddress)),
      ) as unknown as typeof globalThis.WebSocket,
    });
    let downSince: number | undefined;
    controller.onStatusChange((status) => {
      if (status !== 'connected') {
        downSince ??= controller.lastHeard();
        return;
      }
      resolve();
      if (downSince === undefined) return;
      reconnectedAt.push(now());
      const since = new Date(downSince - CATCH_UP_MARGIN_MS).toISOString();
      downSince = undefined;
      setTimeout(() => {
        void fetch(url.replace(/^ws/, 'http'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: CATCH_UP, variables: { storyId, since } }),
        })
          .then((response) => response.json())
          .then((body: { data?: { commentsSince: { id: string }[] }; errors?: unknown }) => {
            if (!body.data) errors.push(JSON.stringify(body.errors));
            for (const { id } of body.data?.commentsSince ?? []) arrived(i, id, body);
          })
          .catch((error: Error) => errors.push(`catch-up: ${error.message}`));
      }, CATCH_UP_DELAY_MS);
    });
    stops.push(follow(controller.client, i, storyId, command.documentId));
    disposers.push(() => controller.dispose());
  });
}

/** Opens reader `i` and resolves once its subscription is acknowledged by a first `connected`. */
function openReader(command: Extract<SubscribersCommand, { type: 'open' }>, i: number) {
  if (command.mode === 'transport') return openTransportReader(command, i);
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
    const storyId = command.storyIds[i % command.storyIds.length]!;
    stops.push(follow(client, i, storyId, command.documentId));
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
    send({ type: 'arrivals', arrivals, errors: errors.slice(0, 5), following, reconnectedAt });
    arrivals = {};
    errors = [];
    reconnectedAt = [];
  } else {
    for (const stop of stops) stop();
    await Promise.all([
      ...clients.map((client) => client.dispose()),
      ...disposers.map((dispose) => dispose()),
    ]);
    process.exit(0);
  }
});
