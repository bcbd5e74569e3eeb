/** @jest-environment jest-fixed-jsdom */
import { gql } from '@urql/core';
import { pipe, subscribe } from 'wonka';
import { createTransport } from './createTransport';
import type { SocketStatus } from './types';

// What only a browser-like environment shows: navigator.onLine and window online/offline events.

const Ticks = gql`
  subscription Ticks {
    ticks
  }
`;

/** A WebSocket that cannot connect (as when offline), counting how many were made. */
function countingWebSocket() {
  const made: string[] = [];
  class NeverOpens {
    // graphql-ws checks an implementation for the standard readyState constants.
    static CONNECTING = 0;
    static OPEN = 1;
    static CLOSING = 2;
    static CLOSED = 3;
    readyState = 0;
    onclose: ((event: { code: number; reason: string; wasClean: boolean }) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;
    constructor(url: string) {
      made.push(url);
      // Offline, a browser fails the connection at once: an error, then an abnormal close.
      setTimeout(() => {
        this.readyState = 3;
        this.onerror?.({ type: 'error' });
        this.onclose?.({ code: 1006, reason: '', wasClean: false });
      }, 0);
    }
    // Like a real socket closed while connecting: it reports the close.
    close(code = 1000, reason = '') {
      this.readyState = 3;
      queueMicrotask(() => this.onclose?.({ code, reason, wasClean: true }));
    }
    send() {}
    addEventListener() {}
    removeEventListener() {}
  }
  return { made, WebSocket: NeverOpens };
}

afterEach(() => {
  Object.defineProperty(window.navigator, 'onLine', { value: true, configurable: true });
});

it('tells listeners the socket is offline when the first subscription starts offline', async () => {
  Object.defineProperty(window.navigator, 'onLine', { value: false, configurable: true });
  const { WebSocket } = countingWebSocket();
  const transport = createTransport({ url: 'http://parley.test/graphql', WebSocket });
  const statuses: SocketStatus[] = [];
  transport.onStatusChange((status) => statuses.push(status));
  const { unsubscribe } = pipe(
    transport.client.subscription(Ticks, {}),
    subscribe(() => undefined),
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(statuses).toContain('offline');
  expect(transport.status).toBe('offline');
  unsubscribe();
  await transport.dispose();
});

it('opens no socket and loads nothing for a subscription made after dispose', async () => {
  const { made, WebSocket } = countingWebSocket();
  const transport = createTransport({ url: 'http://parley.test/graphql', WebSocket });
  await transport.dispose();
  const results: unknown[] = [];
  pipe(
    transport.client.subscription(Ticks, {}),
    subscribe((r) => results.push(r)),
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(made).toEqual([]);
  expect(transport.status).toBe('idle');
});

it('keeps calling other status listeners when one throws', async () => {
  Object.defineProperty(window.navigator, 'onLine', { value: false, configurable: true });
  const { WebSocket } = countingWebSocket();
  const transport = createTransport({ url: 'http://parley.test/graphql', WebSocket });
  const heard: SocketStatus[] = [];
  transport.onStatusChange(() => {
    throw new Error('listener bug');
  });
  transport.onStatusChange((status) => heard.push(status));
  const { unsubscribe } = pipe(
    transport.client.subscription(Ticks, {}),
    subscribe(() => undefined),
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(heard).toContain('offline');
  unsubscribe();
  await transport.dispose();
});
