/** Test-only builders of queue data (the shapes msw answers with). */
import { ws } from 'msw';
import type { QueueComment } from './ModerationCard';

/** A queue comment with sensible defaults; `n` orders them (higher = newer). */
export function makeQueueComment(n: number, patch: Partial<QueueComment> = {}): QueueComment {
  return {
    id: `c${n}`,
    body: `<p>Comment ${n}</p>`,
    bodySource: `Comment ${n}`,
    status: 'PREMOD',
    tags: [],
    createdAt: new Date(Date.UTC(2026, 10, 20, 10, n)).toISOString(),
    editedAt: null,
    heldBecause: ['PREMOD_ALL'],
    spamScore: null,
    reports: [],
    author: { id: `u${n}`, username: `user${n}`, status: 'ACTIVE' },
    parent: null,
    story: { id: 's1', title: 'A story', url: 'https://site.example/story' },
    ...patch,
  };
}

/** `items` as a `moderationQueue` connection. */
export function queueConnection(items: QueueComment[], hasNextPage = false) {
  return {
    moderationQueue: {
      edges: items.map((node) => ({ cursor: `cur-${node.id}`, node })),
      pageInfo: { hasNextPage, endCursor: items.at(-1) ? `cur-${items.at(-1)?.id}` : null },
    },
  };
}

/**
 * The live socket for tests: msw's WebSocket interception speaking just enough
 * graphql-transport-ws (ack, pong, next) to the transport's real graphql-ws client. Add
 * `handler` to the msw server; `publish` sends `data` to every subscription opened so far.
 */
export function createFakeLive(url = 'ws://parley.test/graphql') {
  const subscribers = new Set<(data: unknown) => void>();
  const handler = ws.link(url).addEventListener('connection', ({ client }) => {
    client.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { type: string; id?: string };
      if (message.type === 'connection_init')
        client.send(JSON.stringify({ type: 'connection_ack' }));
      if (message.type === 'ping') client.send(JSON.stringify({ type: 'pong' }));
      if (message.type === 'subscribe' && message.id) {
        const id = message.id;
        subscribers.add((data) =>
          client.send(JSON.stringify({ id, type: 'next', payload: { data } })),
        );
      }
    });
  });
  return {
    handler,
    subscribers,
    publish: (data: unknown) => subscribers.forEach((send) => send(data)),
  };
}
