// Section 5 of `bench:scale`: comments posted at a steady rate (an open loop), each timed from
// when it was due to leave. autocannon, used before, paces by the second: every connection sends
// its share of the second's requests at once when the second starts, then waits for the next
// one, so 500 "per second" arrived as one burst of 500 each second, and a request's time was
// mostly its wait behind the rest of its burst. Here request n leaves at start + n / rate,
// whatever happened to the ones before it: a server that falls behind shows it as a growing
// delay, never as a slower load (no coordinated omission).
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** What to post: request n's headers and body. */
export interface PacedPostsOptions {
  url: string;
  /** Requests per second, spread evenly. */
  rate: number;
  seconds: number;
  /** Open connections at most (one per writer, as a browser each). */
  connections: number;
  request(n: number): { headers: Record<string, string>; body: string };
  /** Reads a response body: the created comment's id, or undefined when it was refused. */
  idOf(body: string): string | undefined;
  /** How long to wait for the last answers after the last request left. @default 30 s */
  drainMs?: number;
}

/** What came back. */
export interface PacedPostsResult {
  /** Ids of the comments the server acknowledged. */
  acknowledged: Set<string>;
  /** Delay from each acknowledged request's due time to its answer, in ms. */
  latencies: number[];
  /** Answers without a comment; the first one's text. */
  refused: number;
  firstRefusal: string;
  /** Requests that failed (network) or had no answer by the end of the drain. */
  errors: number;
  /** How late the sender was at worst (its own lag, which would skew every figure). */
  senderLagMs: number;
}

/** Posts `rate × seconds` requests at a steady rate and waits for their answers. */
export async function postAtRate(options: PacedPostsOptions): Promise<PacedPostsResult> {
  const { url, rate, seconds, connections, drainMs = 30_000 } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url);
  const total = Math.round(rate * seconds);
  const result: PacedPostsResult = {
    acknowledged: new Set(),
    latencies: [],
    refused: 0,
    firstRefusal: '',
    errors: 0,
    senderLagMs: 0,
  };
  let answered = 0;
  let allAnswered: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allAnswered = resolve));
  const settle = () => {
    if (++answered === total) allAnswered();
  };

  const send = (n: number, due: number) => {
    const { headers, body } = options.request(n);
    const request = http.request(
      target,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const id = options.idOf(text);
          if (id === undefined) {
            if (result.refused++ === 0) result.firstRefusal = text.slice(0, 300);
          } else {
            result.acknowledged.add(id);
            result.latencies.push(performance.now() - due);
          }
          settle();
        });
        response.on('error', () => {
          result.errors++;
          settle();
        });
      },
    );
    request.on('error', () => {
      result.errors++;
      settle();
    });
    request.end(body);
  };

  const start = performance.now();
  const interval = 1000 / rate;
  let n = 0;
  while (n < total) {
    const now = performance.now();
    for (; n < total && start + n * interval <= now; n++) {
      const due = start + n * interval;
      result.senderLagMs = Math.max(result.senderLagMs, now - due);
      send(n, due);
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const drained = await Promise.race([
    done.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), drainMs).unref()),
  ]);
  if (!drained) result.errors += total - answered;
  agent.destroy();
  return result;
}
