/** Small pieces the server's own HTTP routes share (createHttpServer, the portability routes). */
import type { ServerResponse } from 'node:http';

/** Answers `body` as JSON with `status` (and any more headers). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** `work`, or a rejection with `late()` when it has not settled within `ms`. */
export function withTimeout<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
