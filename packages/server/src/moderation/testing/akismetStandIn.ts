/**
 * A local stand-in that speaks Akismet's HTTP API (https://akismet.com/developers/), for tests:
 * POST /1.1/comment-check, /1.1/submit-spam, /1.1/submit-ham, form-encoded, on 127.0.0.1. It calls
 * spam whatever contains "viagra" (and says "discard" when it also contains "blatant"), refuses
 * any key but {@link AKISMET_TEST_KEY} as Akismet does ("invalid" with a debug header), and
 * records every request.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const AKISMET_TEST_KEY = 'test-akismet-key';

/** One request the stand-in received. */
export interface AkismetRequest {
  path: string;
  fields: Record<string, string>;
}

/** A running stand-in. */
export interface AkismetStandIn {
  url: string;
  requests: AkismetRequest[];
  /** Answer every request after `ms` (to test time-outs). */
  delay(ms: number): void;
  close(): Promise<void>;
}

export async function startAkismetStandIn(): Promise<AkismetStandIn> {
  const requests: AkismetRequest[] = [];
  let delayMs = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const fields = Object.fromEntries(new URLSearchParams(body));
      const path = req.url ?? '';
      requests.push({ path, fields });
      const answer = (text: string, headers: Record<string, string> = {}) =>
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/plain', ...headers });
          res.end(text);
        }, delayMs);
      if (fields['api_key'] !== AKISMET_TEST_KEY) {
        answer('invalid', { 'X-akismet-debug-help': 'Empty "api_key" or invalid key.' });
      } else if (path === '/1.1/comment-check') {
        const content = fields['comment_content'] ?? '';
        if (!content.includes('viagra')) answer('false');
        else answer('true', content.includes('blatant') ? { 'X-akismet-pro-tip': 'discard' } : {});
      } else if (path === '/1.1/submit-spam' || path === '/1.1/submit-ham') {
        answer('Thanks for making the web a better place.');
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    delay: (ms) => (delayMs = ms),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Starts a stand-in for the test file (before all, closed after all) and forgets its requests
 * and any delay before each test; the getter answers the running one.
 */
export function useAkismetStandIn(): () => AkismetStandIn {
  let standIn: AkismetStandIn | undefined;
  beforeAll(async () => {
    standIn = await startAkismetStandIn();
  });
  afterAll(() => standIn?.close());
  beforeEach(() => {
    standIn!.requests.length = 0;
    standIn!.delay(0);
  });
  return () => standIn!;
}
