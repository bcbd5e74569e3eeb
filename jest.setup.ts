// Node 20 has no global WebSocket: give tests the `ws` one so graphql-ws and msw can use it.
// jsdom test files get theirs from jest-fixed-jsdom.
import { WebSocket as NodeWebSocket } from 'ws';

if (typeof globalThis.WebSocket === 'undefined') {
  (globalThis as { WebSocket?: unknown }).WebSocket = NodeWebSocket;
}

// Suites that need PostgreSQL and Redis always run: against the URLs in the environment (CI sets
// them), else against the services every machine of this project runs on loopback. A missing
// service fails those suites loudly rather than skipping them.
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
process.env.REDIS_URL ??= 'redis://127.0.0.1:6379';
