import type { ParleyYoga } from '../../runtime/createYogaApp';
import type { GraphQLAnswer } from './useApi';

/** A live subscription over Server-Sent Events, read event by event. */
export interface SseSubscription<T> {
  /** The next event's payload; rejects after `timeoutMs` with what was expected. */
  next(timeoutMs?: number): Promise<GraphQLAnswer<T>>;
  /** Resolves true if no event arrives within `ms` (for "nothing is delivered" assertions). */
  quietFor(ms: number): Promise<boolean>;
  /** Ends the subscription (the request is aborted). */
  close(): void;
}

/**
 * Subscribes through yoga's GraphQL-over-SSE support, in process: the same resolvers and
 * pub/sub the WebSocket path uses, without a port.
 */
export async function subscribeSse<T = Record<string, any>>(
  yoga: ParleyYoga,
  query: string,
  variables: Record<string, unknown>,
  token?: string | null,
): Promise<SseSubscription<T>> {
  const controller = new AbortController();
  const response = await yoga.fetch('http://test/graphql', {
    method: 'POST',
    signal: controller.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: GraphQLAnswer<T>[] = [];
  const waiters: ((event: GraphQLAnswer<T>) => void)[] = [];
  let buffer = '';

  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('');
          if (!data) continue; // keep-alive comments and `event: complete`
          const event = JSON.parse(data) as GraphQLAnswer<T>;
          const waiter = waiters.shift();
          if (waiter) waiter(event);
          else events.push(event);
        }
      }
    } catch {
      // aborted by close()
    }
  })();

  return {
    next(timeoutMs = 2000) {
      const ready = events.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`No subscription event within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push((event) => {
          clearTimeout(timer);
          resolve(event);
        });
      });
    },
    async quietFor(ms) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return events.length === 0;
    },
    close() {
      // In process, aborting the request does not reach yoga's stream; cancelling the body does,
      // and ends the subscription's iterator and keep-alive timer.
      void reader.cancel().catch(() => undefined);
      controller.abort();
    },
  };
}
