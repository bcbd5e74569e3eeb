// Node 20 has no global WebSocket: give tests the `ws` one so graphql-ws and msw can use it
// (STACK.md trap 5). jsdom test files get theirs from jest-fixed-jsdom.
import { WebSocket as NodeWebSocket } from 'ws';

if (typeof globalThis.WebSocket === 'undefined') {
  (globalThis as { WebSocket?: unknown }).WebSocket = NodeWebSocket;
}
