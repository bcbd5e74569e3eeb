import { createClient } from 'graphql-ws/client';
import type { Client, FormattedExecutionResult, Sink, SubscribePayload } from 'graphql-ws/client';
import type { BackoffOptions, GetToken, SocketStatus } from './types';

/** Close code (WebSocket standard) dispose() closes the socket with. */
export const NORMAL_CLOSURE_CLOSE_CODE = 1000;

// Our own close codes sit in a block graphql-ws does not use (it owns 4004, 4005, 4400–4429,
// 4499, 4500 and 4504), so a server log tells them apart from protocol failures; none is in
// graphql-ws's list of fatal codes, so the client reconnects after each.

/** Close code sent when a keep-alive ping got no pong within `timeoutMs`; the client reconnects. */
export const PONG_TIMEOUT_CLOSE_CODE = 4100;

/** Close code sent to restart the socket with a new token (sign in / out); the client reconnects. */
export const TOKEN_CHANGED_CLOSE_CODE = 4101;

/** Close code sent when `getToken` threw; the client reconnects with backoff instead of failing. */
export const TOKEN_UNAVAILABLE_CLOSE_CODE = 4102;

/** Smallest jitter factor a reconnect wait is multiplied by. */
const JITTER_MIN = 0.5;
/** Largest jitter factor a reconnect wait is multiplied by. */
const JITTER_MAX = 1.5;

/** Options of {@link createSocket}; `createTransport` fills them from `DEFAULTS.socket`. */
export interface SocketControllerOptions {
  /** graphql-ws endpoint (`ws://` or `wss://`). */
  url: string;
  /** Token source, read afresh for every connection. */
  getToken: GetToken;
  /** Connection-ack and keep-alive pong time-out, in ms. */
  timeoutMs: number;
  /** Reconnect backoff: `min(maxMs, minMs × factor^attempt)` × jitter, capped at `maxMs`. */
  backoff: Required<BackoffOptions>;
  /** WebSocket implementation. @default globalThis.WebSocket */
  WebSocket?: unknown;
  /** Random source of the jitter, returning [0, 1). @default Math.random */
  random?: () => number;
  /**
   * Where errors that must not break the socket go (a token read that failed, a status listener
   * that threw); the transport passes its `reportError`. Library code stays off the host page's
   * console. @default a no-op
   */
  onError?: (error: unknown, context: Record<string, unknown>) => void;
}

/** The shared subscription socket and its status. */
export interface SocketController {
  /** graphql-ws client for urql's `subscriptionExchange` (`forwardSubscription`). */
  readonly client: Client;
  /** The socket status now. */
  readonly status: SocketStatus;
  /** Listens to status changes (each change once); returns the unsubscribe function. */
  onStatusChange(listener: (status: SocketStatus) => void): () => void;
  /** See {@link Transport.lastHeard}. */
  lastHeard(): number | undefined;
  /** The token changed (sign in / out): restarts the socket with it; subscriptions carry on. */
  tokenChanged(): void;
  /** Ends every subscription, closes the socket, removes every listener and clears every timer. */
  dispose(): Promise<void>;
}

/** The part of a WebSocket this module touches. */
interface SocketLike {
  close(code?: number, reason?: string): void;
}

/** Wait before retry `attempt` (0-based): `min(maxMs, minMs × factor^attempt)` × jitter, capped at `maxMs`. */
export function backoffDelayMs(
  attempt: number,
  backoff: Required<BackoffOptions>,
  random: () => number = Math.random,
): number {
  const { minMs, maxMs, factor } = backoff;
  const jitter = JITTER_MIN + random() * (JITTER_MAX - JITTER_MIN);
  // Capping before the jitter as well keeps waits at the cap spread over [maxMs / 2, maxMs], so
  // clients dropped together (a server restart) do not all come back in the same instant.
  return Math.min(maxMs, Math.min(maxMs, minMs * factor ** attempt) * jitter);
}

/**
 * One lazily opened graphql-ws socket shared by every subscription, which reconnects with
 * backoff for as long as a subscription is active and reports its status.
 */
export function createSocket(options: SocketControllerOptions): SocketController {
  const {
    url,
    getToken,
    timeoutMs,
    backoff,
    random = Math.random,
    onError = ignoreError,
  } = options;
  // Read here, not at import (tests set the global later); passed explicitly so msw intercepts it.
  const webSocketImpl = options.WebSocket ?? globalThis.WebSocket;
  const win = typeof window !== 'undefined' && 'addEventListener' in window ? window : undefined;

  const listeners = new Set<(status: SocketStatus) => void>();
  let offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  let base: SocketStatus = 'idle';
  let status: SocketStatus = offline ? 'offline' : base;

  let disposed = false;
  let active = 0;
  const stoppers = new Set<() => void>();
  let hasSocket = false; // from graphql-ws's `connecting` (socket created) until `closed`
  let socket: SocketLike | undefined; // from `opened` until `closed`: never CONNECTING
  let tokenSent = false; // connectionParams of the current socket were read
  let tokenGeneration = 0;
  let pongTimer: ReturnType<typeof setTimeout> | undefined;
  let closeTimer: ReturnType<typeof setTimeout> | undefined;
  let wait: { timer: ReturnType<typeof setTimeout>; resolve: () => void } | undefined;
  let closeWaiters: (() => void)[] = [];
  // The server's clock minus ours, from the latest acknowledgement (its `now`), and when (ours)
  // the socket last received anything: together, the server's time of the last word heard.
  // Unknown (undefined) until an acknowledgement carries `now` (a server from before it did, in a
  // rolling deploy): a time on our own clock could be far off the server's.
  let clockOffset: number | undefined;
  let heardAt: number | undefined;

  function update(): void {
    const next = offline ? 'offline' : base;
    if (next === status) return;
    status = next;
    for (const listener of [...listeners]) {
      // A throwing listener must not stop graphql-ws's own listeners, which run after ours.
      try {
        listener(next);
      } catch (error) {
        onError(error, { during: 'socket status listener' });
      }
    }
  }
  const setBase = (next: SocketStatus): void => {
    base = next;
    update();
  };

  function endWait(): void {
    if (!wait) return;
    clearTimeout(wait.timer);
    const { resolve } = wait;
    wait = undefined;
    resolve();
  }

  function clearPongTimer(): void {
    clearTimeout(pongTimer);
    pongTimer = undefined;
  }

  function settleClosed(): void {
    clearTimeout(closeTimer);
    closeTimer = undefined;
    const waiters = closeWaiters;
    closeWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /**
   * Closes the open socket. A peer that stopped reading never answers the close frame, and the
   * socket then stays CLOSING (30 s in `ws`, longer in some browsers) with no reconnect; so after
   * `graceMs` we terminate it instead.
   */
  function closeSocket(code: number, reason: string, graceMs: number): void {
    const current = socket;
    if (!current) return;
    current.close(code, reason);
    terminateAfter(current, graceMs);
  }

  /**
   * Terminates `current` unless it reports closed within `graceMs`. `socket` is only set once
   * open, so terminate() never meets a CONNECTING socket, whose abort crashes Node.
   */
  function terminateAfter(current: SocketLike, graceMs: number): void {
    const terminate = (): void => {
      if (socket === current) inner.terminate();
      settleClosed();
    };
    clearTimeout(closeTimer);
    if (graceMs === 0) terminate();
    else closeTimer = setTimeout(terminate, graceMs);
  }

  const inner = createClient({
    url,
    webSocketImpl,
    lazy: true,
    connectionAckWaitTimeout: timeoutMs,
    // graphql-ws sends the next ping this long after the last pong. Half the time-out means a
    // silent link is noticed within 1.5 × timeoutMs of its last pong, while an idle socket still
    // sends only one small frame per 15 s at the default (well inside common proxy idle limits).
    keepAlive: timeoutMs / 2,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait: (attempt) =>
      new Promise<void>((resolve) => {
        if (disposed) {
          resolve();
          return;
        }
        wait = { resolve, timer: setTimeout(endWait, backoffDelayMs(attempt, backoff, random)) };
      }),
    connectionParams: async () => {
      let token: string | null | undefined;
      try {
        const generation = tokenGeneration;
        token = await getToken();
        // tokenChanged() during the read (createTransport calls it from inside getToken when it
        // notices a new token): read once more so the socket does not start with a stale one.
        if (generation !== tokenGeneration) token = await getToken();
      } catch (error) {
        // A throw here would make graphql-ws close with 4005, which is fatal and ends every
        // subscription; closing with our own code retries with backoff instead.
        onError(error, { during: 'reading the token for the live-update socket' });
        closeSocket(TOKEN_UNAVAILABLE_CLOSE_CODE, 'Token unavailable', timeoutMs);
        return undefined;
      }
      tokenSent = true;
      return token ? { authorization: `Bearer ${token}` } : undefined;
    },
    on: {
      connecting: (isRetry) => {
        hasSocket = true;
        tokenSent = false;
        setBase(isRetry ? 'reconnecting' : 'connecting');
      },
      opened: (opened) => {
        socket = opened as SocketLike;
        // dispose() ran while this socket was connecting: close it before connection_init.
        if (disposed) closeSocket(NORMAL_CLOSURE_CLOSE_CODE, 'Normal Closure', timeoutMs);
      },
      connected: (_socket, payload) => {
        const now = (payload as { now?: unknown } | undefined)?.now;
        clockOffset = typeof now === 'number' ? now - Date.now() : undefined;
        setBase('connected');
      },
      message: () => void (heardAt = Date.now()),
      // graphql-ws keepAlive sends pings but never drops a socket whose pong is missing.
      ping: (received) => {
        if (received) return;
        clearPongTimer();
        pongTimer = setTimeout(() => {
          pongTimer = undefined;
          closeSocket(PONG_TIMEOUT_CLOSE_CODE, 'Pong timeout', 0);
        }, timeoutMs);
      },
      pong: (received) => {
        if (received) clearPongTimer();
      },
      closed: () => {
        hasSocket = false;
        socket = undefined;
        clearPongTimer();
        settleClosed();
        setBase(active > 0 && !disposed ? 'reconnecting' : 'idle');
      },
    },
  });

  /** Counts a subscription as active until `release` (idempotent) runs. */
  function track(stop: () => void): () => void {
    active++;
    stoppers.add(stop);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      active--;
      stoppers.delete(stop);
      if (active > 0 || hasSocket) return;
      // No socket means a reconnect wait is pending; graphql-ws gives it up silently.
      setBase('idle');
      endWait();
    };
  }

  function subscribe<Data = Record<string, unknown>, Extensions = unknown>(
    payload: SubscribePayload,
    sink: Sink<FormattedExecutionResult<Data, Extensions>>,
  ): () => void {
    if (disposed) {
      sink.complete();
      return () => undefined;
    }
    let stopInner = (): void => undefined;
    const stop = (): void => {
      release();
      stopInner();
    };
    const release = track(stop);
    stopInner = inner.subscribe<Data, Extensions>(payload, {
      next: (value) => sink.next(value),
      error: (error) => {
        release();
        sink.error(error);
      },
      complete: () => {
        release();
        sink.complete();
      },
    });
    return stop;
  }

  function iterate<Data = Record<string, unknown>, Extensions = unknown>(
    payload: SubscribePayload,
  ): AsyncIterableIterator<FormattedExecutionResult<Data, Extensions>> {
    // Even a disposed graphql-ws client would open a new socket for it.
    if (disposed) return (async function* () {})();
    const iterator = inner.iterate<Data, Extensions>(payload);
    const release = track(() => void iterator.return?.());
    return {
      async next() {
        try {
          const result = await iterator.next();
          if (result.done) release();
          return result;
        } catch (error) {
          release();
          throw error;
        }
      },
      async return(value) {
        release();
        return (await iterator.return?.(value)) ?? { done: true, value: undefined };
      },
      async throw(error) {
        release();
        return (await iterator.throw?.(error)) ?? { done: true, value: undefined };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  const onOffline = (): void => {
    offline = true;
    update();
  };
  const onOnline = (): void => {
    offline = false;
    update();
    // The network is back: a backoff wait of up to maxMs would only delay live updates.
    endWait();
  };
  win?.addEventListener('offline', onOffline);
  win?.addEventListener('online', onOnline);

  let disposing: Promise<void> | undefined;
  async function dispose(): Promise<void> {
    disposed = true;
    win?.removeEventListener('offline', onOffline);
    win?.removeEventListener('online', onOnline);
    clearPongTimer();
    // Ending the subscriptions first matters: graphql-ws opens a new socket after a pending
    // reconnect wait whenever a subscription is still counted, even once disposed. (The last
    // one to end also ends that wait.)
    for (const stop of [...stoppers]) stop();
    // Not terminate(): on a socket still connecting that crashes Node with `ws`.
    // It rejects with the close event when the connection it waits for fails: nothing is open then.
    const innerDisposed = inner.dispose()?.catch(() => undefined);
    // An open socket still waiting for its ack would otherwise linger until the ack time-out.
    closeSocket(NORMAL_CLOSURE_CLOSE_CODE, 'Normal Closure', timeoutMs);
    await innerDisposed;
    // Wait for the socket to report closed so nothing outlives dispose(), terminating it if the
    // peer never answers the close frame.
    if (socket) {
      const closed = new Promise<void>((resolve) => closeWaiters.push(resolve));
      terminateAfter(socket, timeoutMs);
      await closed;
    }
    settleClosed();
    setBase('idle');
    listeners.clear();
  }

  return {
    client: {
      ...inner,
      subscribe,
      iterate,
      dispose: () => (disposing ??= dispose()),
    },
    get status() {
      return status;
    },
    onStatusChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    lastHeard: () =>
      heardAt === undefined || clockOffset === undefined ? undefined : heardAt + clockOffset,
    tokenChanged() {
      if (disposed) return;
      tokenGeneration++;
      // A socket that has not read its connectionParams yet will read the new token by itself.
      if (tokenSent) closeSocket(TOKEN_CHANGED_CLOSE_CODE, 'Token changed', timeoutMs);
    },
    dispose: () => (disposing ??= dispose()),
  };
}

function ignoreError(): void {}
