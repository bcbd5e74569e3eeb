import { WebSocket } from 'ws';
import type { Client } from 'graphql-ws';
import { TOO_MANY_SOCKETS_STATUS } from './attachGraphQLWebSocket';
import { startTestServer } from './testing/startTestServer';
import type { TestServer } from './testing/startTestServer';

// Before these bounds one anonymous socket held 3,000 subscriptions, and sockets were unbounded.

const LIMITS = {
  socketsPerIp: 3,
  subscriptionsPerSocket: 5,
  subscriptionsPerStory: 2,
  maxMessageBytes: 2048,
  connectionInitTimeoutMs: 300,
};

const LIVE_BY_VARIABLE = `subscription ($storyId: ID!) { commentCreated(storyId: $storyId) { commentId } }`;
const live = (storyId: string) =>
  `subscription { commentCreated(storyId: "${storyId}") { commentId } }`;

/** Subscribes; resolves 'open' if nothing refused it within `waitMs`, else the error's code. */
function trySubscribe(
  client: Client,
  query: string,
  variables?: Record<string, unknown>,
  waitMs = 300,
): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('open'), waitMs);
    client.subscribe(
      { query, variables },
      {
        next: () => undefined,
        error: (error) => {
          clearTimeout(timer);
          const code = (error as { extensions?: { code?: string } }[])[0]?.extensions?.code;
          resolve(code ?? 'error');
        },
        complete: () => undefined,
      },
    );
  });
}

/** A raw socket speaking graphql-ws; resolves how the server ended it. */
function rawSocket(
  server: TestServer,
  act: (socket: WebSocket) => void,
): Promise<{ status?: number; closeCode?: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(
      `${server.origin.replace('http', 'ws')}/graphql`,
      'graphql-transport-ws',
    );
    socket.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    socket.once('open', () => act(socket));
    socket.once('close', (closeCode) => resolve({ closeCode }));
    socket.once('error', () => undefined);
  });
}

describe('WebSocket limits', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({ webSocketLimits: LIMITS });
  });
  afterEach(async () => {
    await server.close();
  });

  it('refuses operations past the per-socket and per-story bounds, keeping the others', async () => {
    const client = server.wsClient();
    expect(await trySubscribe(client, live('a'))).toBe('open');
    expect(await trySubscribe(client, live('a'))).toBe('open');
    expect(await trySubscribe(client, live('a'))).toBe('RATE_LIMITED');
    expect(await trySubscribe(client, live('b'))).toBe('open');
    expect(await trySubscribe(client, live('c'))).toBe('open');
    expect(await trySubscribe(client, live('d'))).toBe('open');
    // Five running: the sixth is one too many on this socket, whatever its story.
    expect(await trySubscribe(client, live('e'))).toBe('RATE_LIMITED');
    // The socket stays usable: another socket is not affected either.
    expect(await trySubscribe(server.wsClient(), live('a'))).toBe('open');
  });

  it('refuses the 3,000-subscription probe: only the bounds are ever held', async () => {
    const client = server.wsClient();
    // As the stream subscribes: one query, the story in a variable. Refusals take a while to
    // come back for 3,000 at once on a busy machine (about 2 s alone here; a CI run with the
    // other worker busy saw 1,655 of them take longer): wait long enough to hear every one.
    const started = Date.now();
    const outcomes = await Promise.all(
      Array.from({ length: 3000 }, (_, i) =>
        trySubscribe(client, LIVE_BY_VARIABLE, { storyId: `s${i % 3}` }, 6000),
      ),
    );
    // The cost is bounded: refusing is cheap, and what is held is a handful.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(outcomes.filter((outcome) => outcome === 'open')).toHaveLength(5);
    expect(outcomes.filter((outcome) => outcome === 'RATE_LIMITED')).toHaveLength(2995);
  }, 20_000);

  it('refuses sockets past the per-address bound until one closes', async () => {
    const open: WebSocket[] = [];
    for (let i = 0; i < LIMITS.socketsPerIp; i += 1) {
      const socket = new WebSocket(
        `${server.origin.replace('http', 'ws')}/graphql`,
        'graphql-transport-ws',
      );
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ type: 'connection_init' }));
      open.push(socket);
    }
    expect(await rawSocket(server, () => undefined)).toEqual({ status: TOO_MANY_SOCKETS_STATUS });
    open.pop()?.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await rawSocket(server, (socket) => socket.close(1000));
    expect(again.status).toBeUndefined();
    open.forEach((socket) => socket.close());
  });

  it('closes a socket that never says connection_init, and one that sends an oversized message', async () => {
    const started = Date.now();
    expect(await rawSocket(server, () => undefined)).toEqual({ closeCode: 4408 });
    expect(Date.now() - started).toBeLessThan(LIMITS.connectionInitTimeoutMs + 1000);

    const big = await rawSocket(server, (socket) => {
      socket.send(JSON.stringify({ type: 'connection_init', payload: { x: 'x'.repeat(4096) } }));
    });
    expect(big).toEqual({ closeCode: 1009 });
  });
});
