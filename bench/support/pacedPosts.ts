// Section 5 of `bench:scale`: comments posted at a steady rate (an open loop), each timed from
// when it was due to leave. autocannon, used before, paces by the second: every connection sends
// its share of the second's requests at once when the second starts, then waits for the next
// one, so 500 "per second" arrived as one burst of 500 each second, and a request's time was
// mostly its wait behind the rest of its burst. Here request n leaves at start + n / rate,
// whatever happened to the ones before it: a server that falls behind shows it as a growing
// delay, never as a slower load (no coordinated omission). The first `warmUpSeconds` of the run,
// at `warmUpRate`, are not counted, but they are the same run: a backlog they leave is the
// measured window's.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** What to post: request n's headers and body. */
export interface PacedPostsOptions {
  url: string;
  /** Requests per second, spread evenly. */
  rate: number;
  /** Seconds posted before the measured window (their requests are not counted)... */
  warmUpSeconds: number;
  /** ...at this rate (a cold server at full rate builds a backlog it then works off). */
  warmUpRate: number;
  /** Seconds measured. */
  seconds: number;
  /** Connections open at most (a pool shared by the writers, as a proxy in front would). */
  connections: number;
  request(n: number): { headers: Record<string, string>; body: string };
  /** Reads a response body: the created comment's id, or undefined when it was refused. */
  idOf(body: string): string | undefined;
  /** Called when the measured window starts (e.g. to read the server's CPU time). */
  onWindow?(): void;
  /** How long to wait for the last answers after the last request left. @default 30 s */
  drainMs?: number;
}

/** What came back. */
export interface PacedPostsResult {
  /** Ids of every comment the server acknowledged, warm-up included. */
  acknowledged: Set<string>;
  /** Requests due in the measured window that were acknowledged. */
  windowAcknowledged: number;
  /** From the window's start to the last answer to a request due in it, in ms. */
  windowMs: number;
  /** Delay from each acknowledged request's due time to its answer, in ms: warm-up, window. */
  warmUpLatencies: number[];
  latencies: number[];
  /** Answers without a comment; the first one's text. */
  refused: number;
  firstRefusal: string;
  /** Requests that failed (network) or had no answer by the end of the drain. */
  errors: number;
  /** How late the sender was at worst (its own lag, which would skew every figure). */
  senderLagMs: number;
}

/** Posts `rate × (warmUpSeconds + seconds)` requests at a steady rate; waits for the answers. */
export async function postAtRate(options: PacedPostsOptions): Promise<PacedPostsResult> {
  const { rate, warmUpRate, warmUpSeconds, seconds, connections, drainMs = 30_000 } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(options.url);
  const warmUpCount = Math.round(warmUpRate * warmUpSeconds);
  const total = warmUpCount + Math.round(rate * seconds);
  const result: PacedPostsResult = {
    acknowledged: new Set(),
    windowAcknowledged: 0,
    windowMs: 0,
    warmUpLatencies: [],
    latencies: [],
    refused: 0,
    firstRefusal: '',
    errors: 0,
    senderLagMs: 0,
  };
  const pending = new Set<http.ClientRequest>();
  let answered = 0;
  let closed = false;
  let allAnswered: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allAnswered = resolve));
  const start = performance.now();
  const windowStart = start + warmUpSeconds * 1000;
  // When request n is due: the warm-up's at its rate, then the window's.
  const dueOf = (n: number) =>
    n < warmUpCount
      ? start + (n * 1000) / warmUpRate
      : windowStart + ((n - warmUpCount) * 1000) / rate;

  const send = (n: number, due: number) => {
    const { headers, body } = options.request(n);
    let settled = false;
    // Exactly once per request, and never after the result was handed back: a reset can raise
    // both the request's and the response's error, and a drained-out request its own later.
    const settle = (outcome: { text: string } | 'error') => {
      if (settled || closed) return;
      settled = true;
      pending.delete(request);
      if (outcome === 'error') {
        result.errors++;
      } else {
        let id: string | undefined;
        try {
          id = options.idOf(outcome.text);
        } catch {
          id = undefined; // not JSON (a proxy's error page): a refusal, its text kept
        }
        if (id === undefined) {
          if (result.refused++ === 0) result.firstRefusal = outcome.text.slice(0, 300);
        } else {
          const now = performance.now();
          result.acknowledged.add(id);
          if (n < warmUpCount) {
            result.warmUpLatencies.push(now - due);
          } else {
            result.latencies.push(now - due);
            result.windowAcknowledged++;
            result.windowMs = Math.max(result.windowMs, now - windowStart);
          }
        }
      }
      if (++answered === total) allAnswered();
    };
    const request = http.request(
      target,
      { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => settle({ text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', () => settle('error'));
      },
    );
    pending.add(request);
    request.on('error', () => settle('error'));
    request.end(body);
  };

  let n = 0;
  while (n < total) {
    const now = performance.now();
    for (; n < total && dueOf(n) <= now; n++) {
      const due = dueOf(n);
      if (n === warmUpCount) options.onWindow?.();
      result.senderLagMs = Math.max(result.senderLagMs, now - due);
      send(n, due);
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const drained = await Promise.race([
    done.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), drainMs).unref()),
  ]);
  closed = true;
  if (!drained) {
    result.errors += total - answered;
    for (const request of pending) request.destroy();
  }
  agent.destroy();
  return result;
}
