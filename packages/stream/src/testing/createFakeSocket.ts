// A stand-in for the live server: a WebSocket class speaking just enough graphql-transport-ws
// (ack, subscribe, next, complete, ping/pong) for the transport's real graphql-ws client, so
// tests drive live updates through the same code path as the browser, without a port.

/** graphql-transport-ws message types this fake answers or sends. */
const MESSAGE = {
  init: 'connection_init',
  ack: 'connection_ack',
  subscribe: 'subscribe',
  next: 'next',
  complete: 'complete',
  ping: 'ping',
  pong: 'pong',
} as const;

/** WebSocket ready states. */
const READY_STATE = { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 } as const;

/** A fake live server and the WebSocket class that reaches it. */
export interface FakeSocketServer {
  /** Pass as the transport's `WebSocket` option. */
  WebSocket: unknown;
  /** Resolves once a subscription to the root field `field` is active. */
  subscribed(field: string): Promise<void>;
  /** Sends `data` to every active subscription of the root field `field`. */
  publish(field: string, data: unknown): void;
}

/** Creates a {@link FakeSocketServer}. */
export function createFakeSocketServer(): FakeSocketServer {
  const active = new Map<string, { socket: FakeWebSocket; query: string }>();
  let changed: () => void = () => {};

  class FakeWebSocket {
    static readonly CONNECTING = READY_STATE.CONNECTING;
    static readonly OPEN = READY_STATE.OPEN;
    static readonly CLOSING = READY_STATE.CLOSING;
    static readonly CLOSED = READY_STATE.CLOSED;
    readyState: number = READY_STATE.CONNECTING;
    protocol = 'graphql-transport-ws';
    onopen: ((event: unknown) => void) | null = null;
    onmessage: ((event: { data: string }) => void) | null = null;
    onclose: ((event: unknown) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;

    constructor() {
      setTimeout(() => {
        this.readyState = READY_STATE.OPEN;
        this.onopen?.({});
      });
    }

    send(raw: string) {
      const message = JSON.parse(raw) as { type: string; id?: string; payload?: { query: string } };
      if (message.type === MESSAGE.init) this.deliver({ type: MESSAGE.ack });
      else if (message.type === MESSAGE.ping) this.deliver({ type: MESSAGE.pong });
      else if (message.type === MESSAGE.subscribe && message.id && message.payload) {
        active.set(message.id, { socket: this, query: message.payload.query });
        changed();
      } else if (message.type === MESSAGE.complete && message.id) active.delete(message.id);
    }

    close(code = 1000, reason = '') {
      this.readyState = READY_STATE.CLOSED;
      for (const [id, entry] of active) if (entry.socket === this) active.delete(id);
      setTimeout(() => this.onclose?.({ code, reason, wasClean: true }));
    }

    deliver(message: unknown) {
      setTimeout(() => {
        if (this.readyState === READY_STATE.OPEN)
          this.onmessage?.({ data: JSON.stringify(message) });
      });
    }
  }

  const matching = (field: string) =>
    [...active].filter(([, entry]) => new RegExp(`\\{\\s*${field}\\(`).test(entry.query));

  return {
    WebSocket: FakeWebSocket,
    subscribed: (field) =>
      new Promise<void>((resolve) => {
        const check = () => matching(field).length > 0 && resolve();
        const previous = changed;
        changed = () => (previous(), check());
        check();
      }),
    publish(field, data) {
      for (const [id, { socket }] of matching(field)) {
        socket.deliver({ type: MESSAGE.next, id, payload: { data: { [field]: data } } });
      }
    },
  };
}
