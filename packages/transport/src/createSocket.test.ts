import { EventEmitter, on, once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { GraphQLBoolean, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocket, WebSocketServer } from 'ws';
import {
  NORMAL_CLOSURE_CLOSE_CODE,
  PONG_TIMEOUT_CLOSE_CODE,
  TOKEN_CHANGED_CLOSE_CODE,
  TOKEN_UNAVAILABLE_CLOSE_CODE,
  backoffDelayMs,
  createSocket,
} from './createSocket';
import type { SocketController, SocketControllerOptions } from './createSocket';
import type { SocketStatus } from './types';

// Every test talks to a real in-process server on 127.0.0.1 (a graphql-ws one, or a raw `ws` one
// that misbehaves on purpose) with short time-outs and real timers.

const HOST = '127.0.0.1';
const GREETINGS = { query: 'subscription { greetings }' };

/** What a test server saw of one client connection. */
interface Connection {
  socket: WebSocket;
  openedAt: number;
  initialised: boolean;
  params: unknown;
  pingsAt: number[];
  closeCode: number | undefined;
  closedAt: number | undefined;
  /** Server-side `greetings` subscriptions of this connection listen here. */
  events: EventEmitter;
}

interface TestServer {
  url: string;
  port: number;
  connections: Connection[];
  close(): Promise<void>;
}

const connectionBySocket = new WeakMap<WebSocket, Connection>();
const servers = new Set<TestServer>();
const controllers: SocketController[] = [];
const restores: (() => void)[] = [];

afterEach(async () => {
  await Promise.all(controllers.splice(0).map((controller) => controller.dispose()));
  await Promise.all([...servers].map((server) => server.close()));
  for (const restore of restores.splice(0).reverse()) restore();
  jest.restoreAllMocks();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean, what: string, timeoutMs = 3_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs)
      throw new Error(`Still waiting for ${what} after ${timeoutMs} ms`);
    await sleep(5);
  }
}

/** A raw `ws` server that records what each client sends; `onConnection` adds behaviour. */
async function listen(
  port = 0,
  onConnection?: (connection: Connection, server: TestServer) => void,
): Promise<TestServer & { wss: WebSocketServer }> {
  const wss = new WebSocketServer({ host: HOST, port });
  await once(wss, 'listening');
  const actualPort = (wss.address() as AddressInfo).port;
  const server = {
    wss,
    port: actualPort,
    url: `ws://${HOST}:${actualPort}`,
    connections: [] as Connection[],
    async close() {
      if (!servers.delete(server)) return;
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
  servers.add(server);
  wss.on('connection', (socket) => {
    const connection: Connection = {
      socket,
      openedAt: Date.now(),
      initialised: false,
      params: undefined,
      pingsAt: [],
      closeCode: undefined,
      closedAt: undefined,
      events: new EventEmitter(),
    };
    connectionBySocket.set(socket, connection);
    server.connections.push(connection);
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; payload?: unknown };
      if (message.type === 'connection_init') {
        connection.initialised = true;
        connection.params = message.payload;
      }
      if (message.type === 'ping') connection.pingsAt.push(Date.now());
    });
    socket.on('close', (code) => {
      connection.closeCode = code;
      connection.closedAt = Date.now();
    });
    onConnection?.(connection, server);
  });
  return server;
}

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: { ok: { type: GraphQLBoolean, resolve: () => true } },
  }),
  subscription: new GraphQLObjectType({
    name: 'Subscription',
    fields: {
      greetings: {
        type: GraphQLString,
        // events.on's iterator drops its listener the moment graphql-ws returns it, so a
        // connection's listener count is exactly its live subscriptions.
        subscribe: (_root, _args, context: { extra: { socket: WebSocket } }) =>
          on(
            connectionBySocket.get(context.extra.socket)?.events ?? new EventEmitter(),
            'greeting',
          ),
        resolve: ([text]: [string]) => text,
      },
    },
  }),
});

/** A real graphql-ws server (graphql-ws/use/ws) with a `greetings` subscription. */
async function startGraphQLServer(port = 0) {
  const server = await listen(port);
  useServer({ schema, context: (ctx) => ctx }, server.wss);
  return {
    ...server,
    /** Subscriptions live on the newest connection. */
    subscriptions: () => server.connections.at(-1)?.events.listenerCount('greeting') ?? 0,
    publish: (text: string) => {
      for (const connection of server.connections) connection.events.emit('greeting', text);
    },
  };
}

/** A server that completes the WebSocket handshake and then ignores every message. */
const startSilentServer = () => listen();

/** A server that acknowledges the connection but never answers a ping. */
const startPonglessServer = () =>
  listen(0, ({ socket }) => {
    socket.on('message', (data) => {
      if ((JSON.parse(String(data)) as { type: string }).type === 'connection_init') {
        socket.send(JSON.stringify({ type: 'connection_ack' }));
      }
    });
  });

/** A port nothing listens on (briefly bound, then released). */
async function freePort(): Promise<number> {
  const wss = new WebSocketServer({ host: HOST, port: 0 });
  await once(wss, 'listening');
  const { port } = wss.address() as AddressInfo;
  await new Promise((resolve) => wss.close(resolve));
  return port;
}

function make(url: string, options: Partial<SocketControllerOptions> = {}): SocketController {
  const controller = createSocket({
    url,
    getToken: () => null,
    timeoutMs: 1_000,
    backoff: { minMs: 10, maxMs: 100, factor: 2 },
    WebSocket,
    ...options,
  });
  controllers.push(controller);
  return controller;
}

function subscribeGreetings(controller: SocketController) {
  const sub = {
    received: [] as unknown[],
    errors: [] as unknown[],
    completed: false,
    stop: () => {},
  };
  sub.stop = controller.client.subscribe<{ greetings: string }>(GREETINGS, {
    next: (result) => sub.received.push(result.data?.greetings),
    error: (error) => sub.errors.push(error),
    complete: () => {
      sub.completed = true;
    },
  });
  return sub;
}

function recordStatuses(controller: SocketController): SocketStatus[] {
  const statuses: SocketStatus[] = [];
  controller.onStatusChange((status) => statuses.push(status));
  return statuses;
}

/** Installs a browser-like `window` (an EventTarget) and `navigator.onLine` for one test. */
function fakeBrowser(onLine: boolean) {
  const target = new EventTarget();
  const added = jest.spyOn(target, 'addEventListener');
  const removed = jest.spyOn(target, 'removeEventListener');
  for (const [name, value] of [
    ['window', target],
    ['navigator', { onLine }],
  ] as const) {
    const previous = Object.getOwnPropertyDescriptor(globalThis, name);
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
    restores.push(() => {
      if (previous) Object.defineProperty(globalThis, name, previous);
      else Reflect.deleteProperty(globalThis, name);
    });
  }
  return {
    dispatch: (type: 'online' | 'offline') => target.dispatchEvent(new Event(type)),
    listenersLeft: () => added.mock.calls.length - removed.mock.calls.length,
  };
}

describe('backoffDelayMs', () => {
  const backoff = { minMs: 100, maxMs: 10_000, factor: 2 };

  it('grows from minMs by factor per attempt and stops at maxMs (random 0.5 = no jitter)', () => {
    const waits = Array.from({ length: 10 }, (_, attempt) =>
      backoffDelayMs(attempt, backoff, () => 0.5),
    );
    expect(waits).toEqual([100, 200, 400, 800, 1_600, 3_200, 6_400, 10_000, 10_000, 10_000]);
  });

  it('multiplies by a jitter factor in [0.5, 1.5], then caps the result at maxMs', () => {
    expect(backoffDelayMs(0, backoff, () => 0)).toBe(50);
    expect(backoffDelayMs(0, backoff, () => 0.999_999)).toBeCloseTo(150, 3);
    expect(backoffDelayMs(6, backoff, () => 0.75)).toBe(8_000);
    expect(backoffDelayMs(7, backoff, () => 0)).toBe(5_000);
    expect(backoffDelayMs(7, backoff, () => 0.999)).toBe(10_000);
    expect(backoffDelayMs(5_000, backoff, () => 0)).toBe(5_000);
  });
});

describe('createSocket', () => {
  it('opens no socket before the first subscription, then one shared by every subscription', async () => {
    const server = await startGraphQLServer();
    const controller = make(server.url);
    await sleep(50);
    expect(server.connections).toHaveLength(0);
    expect(controller.status).toBe('idle');

    const first = subscribeGreetings(controller);
    const second = subscribeGreetings(controller);
    await waitFor(() => server.subscriptions() === 2, 'both subscriptions');
    server.publish('hello');
    await waitFor(() => first.received.length + second.received.length === 2, 'both events');

    expect(server.connections).toHaveLength(1);
    expect([first.received, second.received]).toEqual([['hello'], ['hello']]);
  });

  it('sends the token as connectionParams.authorization, read afresh per connection, and no payload without one', async () => {
    const server = await startGraphQLServer();
    let token: string | null = null;
    const controller = make(server.url, { getToken: () => token });
    const connectOnce = async (expected: number) => {
      const sub = subscribeGreetings(controller);
      await waitFor(() => controller.status === 'connected', 'connected');
      sub.stop();
      await waitFor(() => controller.status === 'idle', 'idle');
      expect(server.connections).toHaveLength(expected);
    };

    await connectOnce(1);
    token = '';
    await connectOnce(2);
    token = 'abc';
    await connectOnce(3);

    expect(server.connections.map((c) => [c.initialised, c.params])).toEqual([
      [true, undefined],
      [true, undefined],
      [true, { authorization: 'Bearer abc' }],
    ]);
  });

  it('drops a connection the server does not acknowledge within timeoutMs, and reconnects', async () => {
    const server = await startSilentServer();
    const controller = make(server.url, { timeoutMs: 200 });
    subscribeGreetings(controller);

    await waitFor(() => server.connections.length >= 2, 'a second connection');
    const [first] = server.connections;
    expect(first?.initialised).toBe(true);
    expect(first?.closeCode).toBe(CloseCode.ConnectionAcknowledgementTimeout);
    expect((first?.closedAt ?? 0) - (first?.openedAt ?? 0)).toBeGreaterThanOrEqual(195);
  });

  it('pings every timeoutMs / 2 and keeps a connection whose pongs arrive', async () => {
    const server = await startGraphQLServer();
    const controller = make(server.url, { timeoutMs: 200 });
    subscribeGreetings(controller);
    await waitFor(() => controller.status === 'connected', 'connected');

    await sleep(650);

    const pings = server.connections[0]?.pingsAt ?? [];
    // Ideally 6 (one per ~100 ms); ≥ 4 shows the interval is well under timeoutMs even on a busy CI.
    expect(pings.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < pings.length; i++) {
      expect((pings[i] ?? 0) - (pings[i - 1] ?? 0)).toBeGreaterThanOrEqual(95);
    }
    expect(server.connections).toHaveLength(1);
    expect(controller.status).toBe('connected');
  });

  it('closes with PONG_TIMEOUT_CLOSE_CODE when a ping gets no pong within timeoutMs, and reconnects', async () => {
    const server = await startPonglessServer();
    const controller = make(server.url, { timeoutMs: 200 });
    subscribeGreetings(controller);

    await waitFor(() => server.connections.length >= 2, 'a second connection');
    const [first] = server.connections;
    await waitFor(() => first?.closeCode !== undefined, 'the close frame');
    expect(first?.closeCode).toBe(PONG_TIMEOUT_CLOSE_CODE);
    expect((first?.closedAt ?? 0) - (first?.pingsAt[0] ?? Infinity)).toBeGreaterThanOrEqual(195);
    await waitFor(() => controller.status === 'connected', 'connected again');
  });

  it('reconnects from a peer that stopped reading without waiting for the close handshake', async () => {
    // The first connection is acknowledged and then frozen (its TCP socket is no longer read), so
    // it never answers our close frame; `ws` alone would sit in CLOSING for 30 s.
    const server = await listen(0, ({ socket }, { connections }) => {
      const frozen = connections.length === 1;
      socket.on('message', (data) => {
        if ((JSON.parse(String(data)) as { type: string }).type !== 'connection_init') return;
        socket.send(JSON.stringify({ type: 'connection_ack' }));
        if (frozen) (socket as unknown as { _socket: Socket })._socket.pause();
      });
    });
    const controller = make(server.url, { timeoutMs: 200 });
    subscribeGreetings(controller);

    await waitFor(() => server.connections.length >= 2, 'a second connection', 1_500);
    await waitFor(() => controller.status === 'connected', 'connected again');
    expect(server.connections[0]?.closeCode).toBeUndefined();
  });

  it('waits min(maxMs, minMs × factor^attempt) × jitter between attempts, and starts over after a connection', async () => {
    const port = await freePort();
    // random() runs right before the wait's setTimeout, so its calls mark which timers are waits.
    const timeouts = jest.spyOn(globalThis, 'setTimeout');
    const marks: number[] = [];
    const random = jest.fn(() => {
      marks.push(timeouts.mock.calls.length);
      return 0.75; // jitter × 1.25
    });
    const waits = () => marks.map((index) => timeouts.mock.calls[index]?.[1]);
    const controller = make(`ws://${HOST}:${port}`, {
      backoff: { minMs: 20, maxMs: 80, factor: 2 },
      random,
    });
    subscribeGreetings(controller);

    // graphql-ws gives up after 5 by default (retryAttempts), and at once on the `ws` error
    // event of a refused connection (shouldRetry): 7 shows we never give up.
    await waitFor(() => marks.length >= 7, 'seven failed attempts');
    const server = await startGraphQLServer(port);
    await waitFor(() => controller.status === 'connected', 'connected');
    const beforeDrop = waits();
    // 20 × 1.25, 40 × 1.25, then 80 × 1.25 = 100 capped at 80 for every later attempt.
    expect(beforeDrop.slice(0, 3)).toEqual([25, 50, 80]);
    expect(beforeDrop.slice(3).every((wait) => wait === 80)).toBe(true);

    server.connections[0]?.socket.terminate();
    await waitFor(
      () => server.connections.length === 2 && controller.status === 'connected',
      'reconnected',
    );
    expect(waits().slice(beforeDrop.length)).toEqual([25]);
  });

  it('resumes every active subscription after a full server restart on the same port', async () => {
    const first = await startGraphQLServer();
    const controller = make(first.url);
    const a = subscribeGreetings(controller);
    const b = subscribeGreetings(controller);
    await waitFor(() => first.subscriptions() === 2, 'two subscriptions');
    first.publish('before');
    await waitFor(() => a.received.length === 1 && b.received.length === 1, 'the first event');

    await first.close();
    await waitFor(() => controller.status === 'reconnecting', 'reconnecting');
    await sleep(50); // a few refused attempts while the server is down
    const second = await startGraphQLServer(first.port);
    await waitFor(() => second.subscriptions() === 2, 'both subscriptions on the new server');
    second.publish('after');
    await waitFor(() => a.received.length === 2 && b.received.length === 2, 'the second event');

    expect(a).toMatchObject({ received: ['before', 'after'], errors: [], completed: false });
    expect(b).toMatchObject({ received: ['before', 'after'], errors: [], completed: false });
    expect(second.connections).toHaveLength(1);
  });

  it('tokenChanged() reconnects with the new token and the subscription carries on', async () => {
    const server = await startGraphQLServer();
    let token = 'first';
    const controller = make(server.url, { getToken: () => token });
    const sub = subscribeGreetings(controller);
    await waitFor(() => server.subscriptions() === 1, 'subscribed');

    token = 'second';
    controller.tokenChanged();
    await waitFor(
      () => server.connections.length === 2 && server.subscriptions() === 1,
      'subscribed on a second connection',
    );
    server.publish('hello');
    await waitFor(() => sub.received.length === 1, 'the event');

    expect(server.connections.map((c) => c.params)).toEqual([
      { authorization: 'Bearer first' },
      { authorization: 'Bearer second' },
    ]);
    expect(server.connections[0]?.closeCode).toBe(TOKEN_CHANGED_CLOSE_CODE);
    expect(sub).toMatchObject({ received: ['hello'], errors: [], completed: false });
  });

  it('tokenChanged() while still connecting needs no restart: the connection sends the new token', async () => {
    const server = await startGraphQLServer();
    let token = 'old';
    const controller = make(server.url, { getToken: () => token });
    const statuses = recordStatuses(controller);
    subscribeGreetings(controller); // the socket is CONNECTING now
    token = 'new';
    controller.tokenChanged();

    await waitFor(() => server.subscriptions() === 1, 'subscribed');
    expect(server.connections.map((c) => c.params)).toEqual([{ authorization: 'Bearer new' }]);
    expect(statuses).toEqual(['connecting', 'connected']);
  });

  it('tokenChanged() during a slow token read reads it again instead of sending the stale one', async () => {
    const server = await startGraphQLServer();
    let token = 'old';
    let finishSlowRead = () => {};
    const getToken = jest.fn((): string | Promise<string> =>
      getToken.mock.calls.length === 1
        ? new Promise<string>((resolve) => (finishSlowRead = () => resolve('old')))
        : token,
    );
    const controller = make(server.url, { getToken });
    const statuses = recordStatuses(controller);
    subscribeGreetings(controller);
    await waitFor(() => getToken.mock.calls.length === 1, 'the token read');

    token = 'new';
    controller.tokenChanged();
    finishSlowRead();

    await waitFor(() => server.subscriptions() === 1, 'subscribed');
    expect(server.connections.map((c) => c.params)).toEqual([{ authorization: 'Bearer new' }]);
    expect(statuses).toEqual(['connecting', 'connected']);
  });

  it('keeps the subscription and retries with backoff when getToken throws', async () => {
    const onError = jest.fn();
    const server = await startGraphQLServer();
    const getToken = jest.fn(async () => {
      if (getToken.mock.calls.length === 1) throw new Error('token refresh failed');
      return 'fresh';
    });
    const controller = make(server.url, { getToken, onError });
    const sub = subscribeGreetings(controller);

    await waitFor(() => server.subscriptions() === 1, 'subscribed');
    server.publish('hello');
    await waitFor(() => sub.received.length === 1, 'the event');

    expect(server.connections.map((c) => [c.initialised, c.closeCode])).toEqual([
      [false, TOKEN_UNAVAILABLE_CLOSE_CODE],
      [true, undefined],
    ]);
    expect(server.connections[1]?.params).toEqual({ authorization: 'Bearer fresh' });
    expect(sub.errors).toEqual([]);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[0]).toEqual(new Error('token refresh failed'));
  });

  it('reports idle → connecting → connected → reconnecting → connected → idle, each change once', async () => {
    const server = await startGraphQLServer();
    const controller = make(server.url);
    const statuses = recordStatuses(controller);
    const removed: SocketStatus[] = [];
    controller.onStatusChange((status) => removed.push(status))();
    expect(controller.status).toBe('idle');

    const sub = subscribeGreetings(controller);
    await waitFor(() => controller.status === 'connected', 'connected');
    server.connections[0]?.socket.terminate();
    await waitFor(
      () => server.connections.length === 2 && controller.status === 'connected',
      'reconnected',
    );
    sub.stop();
    await waitFor(() => controller.status === 'idle', 'idle');
    expect(statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected', 'idle']);

    // iterate() counts as an active subscription too: a drop means reconnecting, not idle.
    const iterator = controller.client.iterate(GREETINGS);
    const next = iterator.next();
    await waitFor(() => controller.status === 'connected', 'connected for iterate()');
    server.connections[2]?.socket.terminate();
    await waitFor(
      () => server.connections.length === 4 && controller.status === 'connected',
      'back',
    );
    await iterator.return?.();
    await expect(next).resolves.toEqual({ done: true, value: undefined });
    await waitFor(() => controller.status === 'idle', 'idle after iterate()');

    expect(statuses.slice(5)).toEqual([
      'connecting',
      'connected',
      'reconnecting',
      'connected',
      'idle',
    ]);
    expect(removed).toEqual([]);
  });

  it('goes idle at once when the last subscription ends during a reconnect wait', async () => {
    const port = await freePort();
    const controller = make(`ws://${HOST}:${port}`, {
      backoff: { minMs: 5_000, maxMs: 5_000, factor: 2 },
    });
    const statuses = recordStatuses(controller);
    const sub = subscribeGreetings(controller);
    await waitFor(() => controller.status === 'reconnecting', 'reconnecting');

    sub.stop();
    expect(controller.status).toBe('idle');
    // The 5 s wait is cut short: graphql-ws notices there is nothing left and completes.
    await waitFor(() => sub.completed, 'completion', 1_000);
    expect(statuses).toEqual(['connecting', 'reconnecting', 'idle']);
  });

  it('reports offline while the browser is offline, and the real status once it is back', async () => {
    const browser = fakeBrowser(true);
    const server = await startGraphQLServer();
    const controller = make(server.url);
    const statuses = recordStatuses(controller);

    browser.dispatch('offline');
    expect(controller.status).toBe('offline');
    subscribeGreetings(controller);
    await waitFor(() => server.subscriptions() === 1, 'subscribed');
    expect(controller.status).toBe('offline');
    browser.dispatch('online');

    expect(controller.status).toBe('connected');
    expect(statuses).toEqual(['offline', 'connected']);
  });

  it('starts offline when navigator.onLine is false, and reconnects at once when back online', async () => {
    const browser = fakeBrowser(false);
    const port = await freePort();
    const random = jest.fn(() => 0.5);
    const controller = make(`ws://${HOST}:${port}`, {
      backoff: { minMs: 5_000, maxMs: 5_000, factor: 2 },
      random,
    });
    expect(controller.status).toBe('offline');
    const statuses = recordStatuses(controller);
    subscribeGreetings(controller);
    await waitFor(() => random.mock.calls.length === 1, 'a pending 5 s reconnect wait');
    expect(controller.status).toBe('offline');

    await startGraphQLServer(port);
    browser.dispatch('online');
    await waitFor(() => controller.status === 'connected', 'connected', 1_000);
    expect(statuses).toEqual(['reconnecting', 'connected']);
  });

  it('keeps working when a status listener throws', async () => {
    const onError = jest.fn();
    const server = await startGraphQLServer();
    const controller = make(server.url, { onError });
    controller.onStatusChange(() => {
      throw new Error('listener bug');
    });
    const statuses = recordStatuses(controller);
    subscribeGreetings(controller);
    await waitFor(() => controller.status === 'connected', 'connected');
    server.connections[0]?.socket.terminate();
    await waitFor(
      () => server.subscriptions() === 1 && server.connections.length === 2,
      'resubscribed',
    );

    expect(statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    expect(onError).toHaveBeenCalledTimes(4); // one per status change, none of them lost
  });

  it('dispose() ends subscriptions, closes the socket and leaves no timer or window listener behind', async () => {
    const timers = () =>
      process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    // The count is the process's, Jest's own included: when several test files run in one
    // process, its reporter arms a 100 ms timer every second (@jest/reporters, Status._tick), so
    // one reading can be one higher than the next. The fewest over 200 ms leaves that timer out;
    // a timer this test leaks stays in every reading.
    const settledTimers = async () => {
      let fewest = timers();
      for (let i = 0; i < 8; i += 1) {
        await sleep(25);
        fewest = Math.min(fewest, timers());
      }
      return fewest;
    };
    const browser = fakeBrowser(true);
    const before = await settledTimers();

    // One controller with an armed pong timer (the server never answers pings)…
    const server = await startPonglessServer();
    const connected = make(server.url, { timeoutMs: 400 });
    const a = subscribeGreetings(connected);
    // …and one waiting 60 s to reconnect.
    const port = await freePort();
    const waiting = make(`ws://${HOST}:${port}`, {
      backoff: { minMs: 60_000, maxMs: 60_000, factor: 2 },
    });
    const b = subscribeGreetings(waiting);
    await waitFor(
      () => (server.connections[0]?.pingsAt.length ?? 0) > 0 && waiting.status === 'reconnecting',
      'a ping in flight and a reconnect wait',
    );
    // Now the server is back: a socket opened after dispose() would show up here.
    const back = await startGraphQLServer(port);
    expect(timers()).toBeGreaterThan(before);

    await Promise.all([connected.dispose(), waiting.dispose()]);

    expect([a.completed, b.completed]).toEqual([true, true]);
    expect([connected.status, waiting.status]).toEqual(['idle', 'idle']);
    expect(server.connections[0]?.closeCode).toBe(NORMAL_CLOSURE_CLOSE_CODE);
    expect(browser.listenersLeft()).toBe(0);
    browser.dispatch('offline');
    expect(connected.status).toBe('idle');
    await sleep(50);
    expect(back.connections).toHaveLength(0);
    await Promise.all([server.close(), back.close()]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await settledTimers()).toBe(before);
  });

  it('dispose() while the socket is still connecting resolves, without crashing or reconnecting', async () => {
    const server = await startGraphQLServer();
    const controller = make(server.url);
    const sub = subscribeGreetings(controller); // CONNECTING: terminate() here would crash Node

    await controller.dispose();
    expect(sub.completed).toBe(true);
    expect(controller.status).toBe('idle');

    const late = subscribeGreetings(controller);
    expect(late.completed).toBe(true);
    await sleep(100);
    expect(server.connections.length).toBeLessThanOrEqual(1);
    expect(server.connections.every((c) => c.closeCode !== undefined)).toBe(true);
  });
});

describe('the server time last heard', () => {
  it('is the acknowledgement’s clock, moved on to the last message received', async () => {
    // A server whose clock is an hour ahead, as its acknowledgement says.
    const ahead = 3_600_000;
    const server = await listen(0, ({ socket }) => {
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string; id?: string };
        if (message.type === 'connection_init') {
          socket.send(
            JSON.stringify({ type: 'connection_ack', payload: { now: Date.now() + ahead } }),
          );
        }
        if (message.type === 'subscribe') {
          setTimeout(() => {
            socket.send(
              JSON.stringify({
                id: message.id,
                type: 'next',
                payload: { data: { greetings: 'hi' } },
              }),
            );
          }, 200);
        }
      });
    });
    const controller = make(server.url);
    expect(controller.lastHeard()).toBeUndefined();
    const sub = subscribeGreetings(controller);
    await waitFor(() => sub.received.length === 1, 'the greeting');
    const heard = controller.lastHeard()!;
    // Heard just now, by the server's clock (give or take the test's own delays).
    expect(Math.abs(heard - (Date.now() + ahead))).toBeLessThan(1_000);
    await sleep(300);
    // Nothing since: it stays at the last message.
    expect(controller.lastHeard()).toBe(heard);
  });
});
