import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { ASSET_CACHE_CONTROL, HTML_CACHE_CONTROL, IMMUTABLE_CACHE_CONTROL } from './serveStatic';
import { SECRET_ERROR_TEXT } from './testing/createTestSchema';
import { TEST_SITE_ORIGIN } from './testing/createTestYoga';
import { startTestServer, wsQuery } from './testing/startTestServer';
import type { TestServer } from './testing/startTestServer';

/** A raw GET whose path Node does not normalize (fetch would resolve `..` before sending). */
function rawGet(
  origin: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('createHttpServer', () => {
  let dir: string;
  let server: TestServer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-static-'));
    await mkdir(join(dir, 'public', 'admin'), { recursive: true });
    await writeFile(join(dir, 'public', 'embed.js'), 'console.log("embed")');
    await writeFile(
      join(dir, 'public', 'admin', 'index.html'),
      '<!doctype html><title>Admin</title>',
    );
    await writeFile(join(dir, 'public', '.env'), 'SECRET=1');
    // A hashed chunk as the build writes it: its Brotli and gzip copies beside it.
    const chunk = 'export const chunk = "' + 'x'.repeat(400) + '";';
    await writeFile(join(dir, 'public', 'part-Ab3_x9Zq.js'), chunk);
    await writeFile(join(dir, 'public', 'part-Ab3_x9Zq.js.br'), brotliCompressSync(chunk));
    await writeFile(join(dir, 'public', 'part-Ab3_x9Zq.js.gz'), gzipSync(chunk));
    await writeFile(join(dir, 'outside.txt'), 'outside the root');
    server = await startTestServer({
      staticRoutes: {
        '/assets': join(dir, 'public'),
        '/console': {
          root: join(dir, 'public', 'admin'),
          fallback: 'index.html',
          noFraming: true,
          isolated: true,
        },
        '/single.js': join(dir, 'public', 'embed.js'),
        '/popup': { root: join(dir, 'public', 'admin', 'index.html'), noFraming: true },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers GraphQL over real HTTP with the bearer token and the peer address', async () => {
    const response = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t1' },
      body: JSON.stringify({ query: '{ token transport ip }' }),
    });
    expect(await response.json()).toEqual({
      data: { token: 't1', transport: 'http', ip: '127.0.0.1' },
    });
  });

  it('guards /metrics with METRICS_TOKEN when one is set', async () => {
    const guarded = await startTestServer({ metricsToken: 'm-secret' });
    try {
      expect((await fetch(`${guarded.origin}/metrics`)).status).toBe(401);
      const wrong = { authorization: 'Bearer m-secreT' };
      expect((await fetch(`${guarded.origin}/metrics`, { headers: wrong })).status).toBe(401);
      const right = await fetch(`${guarded.origin}/metrics`, {
        headers: { authorization: 'Bearer m-secret' },
      });
      expect(right.status).toBe(200);
      expect(await right.text()).toContain('parley_');
    } finally {
      await guarded.close();
    }
  });

  it('ignores X-Forwarded-For unless proxies are trusted (TRUST_PROXY)', async () => {
    const forged = { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.9' };
    const body = JSON.stringify({ query: '{ ip }' });
    const direct = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers: forged,
      body,
    });
    expect(await direct.json()).toEqual({ data: { ip: '127.0.0.1' } });
    const proxied = await startTestServer({ trustedProxies: 1 });
    try {
      const viaProxy = await fetch(`${proxied.origin}/graphql`, {
        method: 'POST',
        headers: forged,
        body,
      });
      expect(await viaProxy.json()).toEqual({ data: { ip: '198.51.100.9' } });
    } finally {
      await proxied.close();
    }
  });

  it('runs queries over graphql-ws with the token from connectionParams', async () => {
    const client = server.wsClient({ authorization: 'Bearer w1' });
    await expect(wsQuery(client, '{ token transport ip }')).resolves.toEqual({
      data: { token: 'w1', transport: 'ws', ip: '127.0.0.1' },
    });
  });

  it('delivers a subscription event published through a mutation', async () => {
    const client = server.wsClient();
    const received = new Promise((resolve, reject) => {
      const stop = client.subscribe(
        { query: 'subscription { commentCreated(storyId: "s1") { commentId storyId } }' },
        { next: (value) => (stop(), resolve(value)), error: reject, complete: () => {} },
      );
    });
    // The subscription is registered once the server has run onSubscribe; poll the mutation.
    const publish = (): Promise<Response> =>
      fetch(`${server.origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'mutation { publishComment(storyId: "s1", commentId: "c1") }',
        }),
      });
    const timer = setInterval(() => void publish(), 20);
    try {
      await expect(received).resolves.toEqual({
        data: { commentCreated: { commentId: 'c1', storyId: 's1' } },
      });
    } finally {
      clearInterval(timer);
    }
  });

  it('fails one WS operation with the context error (TOKEN_INVALID), keeping the socket', async () => {
    const client = server.wsClient({ authorization: 'bad' });
    await expect(wsQuery(client, '{ hello }')).rejects.toEqual([
      expect.objectContaining({ extensions: { code: 'TOKEN_INVALID' } }),
    ]);
    await expect(wsQuery(client, '{ zzzz }')).rejects.toEqual([
      expect.objectContaining({ extensions: { code: 'INVALID_INPUT' } }),
    ]);
    await expect(wsQuery(client, '{ hello')).rejects.toEqual([
      expect.objectContaining({ extensions: { code: 'INVALID_INPUT' } }),
    ]);
  });

  it('masks an unexpected error in a WS subscription', async () => {
    const client = server.wsClient();
    const result = await wsQuery(client, 'subscription { unexpected }').catch((e: unknown) => e);
    expect(JSON.stringify(result)).not.toContain('hunter2');
    expect(JSON.stringify(result)).toContain('"code":"INTERNAL"');
    expect(JSON.stringify(server.logs)).toContain(SECRET_ERROR_TEXT);
  });

  it('refuses a WebSocket from a page whose origin is not permitted (browsers send no preflight)', async () => {
    const url = `${server.origin.replace('http', 'ws')}/graphql`;
    const outcome = (origin?: string) =>
      new Promise<string>((resolve) => {
        const socket = new WebSocket(url, 'graphql-transport-ws', origin ? { origin } : {});
        socket.once('open', () => (socket.close(), resolve('open')));
        socket.once('unexpected-response', (_req, res) => resolve(`refused ${res.statusCode}`));
        socket.once('error', () => resolve('error'));
      });
    expect(await outcome('https://hostile.example')).toBe('refused 403');
    expect(await outcome(TEST_SITE_ORIGIN)).toBe('open');
    // Not a browser: no Origin at all.
    expect(await outcome()).toBe('open');
  });

  it('sends CORS headers to a permitted origin over HTTP', async () => {
    const response = await fetch(`${server.origin}/graphql?query=%7Bhello%7D`, {
      headers: { origin: TEST_SITE_ORIGIN },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe(TEST_SITE_ORIGIN);
  });

  it('serves static files with their content type and cache policy', async () => {
    const js = await fetch(`${server.origin}/assets/embed.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe(ASSET_CACHE_CONTROL);
    expect(await js.text()).toBe('console.log("embed")');
    // Public assets load from any site (module scripts need CORS); HTML pages do not get it.
    expect(js.headers.get('access-control-allow-origin')).toBe('*');

    const html = await fetch(`${server.origin}/assets/admin/`);
    expect(html.headers.get('access-control-allow-origin')).toBeNull();
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('cache-control')).toBe(HTML_CACHE_CONTROL);
    expect(html.headers.get('content-security-policy')).toContain(TEST_SITE_ORIGIN);
    expect(await html.text()).toContain('<title>Admin</title>');
  });

  it('serves a file route and an app route whose client-side paths get the app page', async () => {
    const single = await fetch(`${server.origin}/single.js`);
    expect(await single.text()).toBe('console.log("embed")');

    const deep = await fetch(`${server.origin}/console/moderate/pending`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('<title>Admin</title>');
    // The console is never framed, not even by permitted sites, and runs only its own code.
    expect(deep.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'none'; " +
        "img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(deep.headers.get('x-frame-options')).toBe('DENY');
    expect(deep.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(deep.headers.get('referrer-policy')).toBe('no-referrer');
    expect(deep.headers.get('permissions-policy')).toContain('camera=()');
    // Nor is a single page marked so (the sign-in popup), while the stream's pages may be. The
    // popup keeps its opener (the stream's frame, which it answers).
    const popup = await fetch(`${server.origin}/popup`);
    expect(await popup.text()).toContain('<title>Admin</title>');
    expect(popup.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(popup.headers.get('x-frame-options')).toBe('DENY');
    expect(popup.headers.get('cross-origin-opener-policy')).toBeNull();
    const framable = await fetch(`${server.origin}/assets/admin/`);
    expect(framable.headers.get('x-frame-options')).toBeNull();
    expect(framable.headers.get('content-security-policy')).toMatch(
      new RegExp(`^default-src 'none'; .*; frame-ancestors 'self' [^;]*${TEST_SITE_ORIGIN}$`),
    );
    // A missing asset stays a 404 instead of HTML a browser would try to run.
    expect((await fetch(`${server.origin}/console/assets/missing.js`)).status).toBe(404);
    // Outside the app's folder is still out of reach.
    expect((await rawGet(server.origin, '/console/../outside.txt')).status).toBe(404);
  });

  it('sends the build’s compressed copy the browser accepts, and keeps hashed chunks a year', async () => {
    const get = (acceptEncoding?: string) =>
      rawGet(
        server.origin,
        '/assets/part-Ab3_x9Zq.js',
        acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      );
    const sizes = {
      br: brotliCompressSync('export const chunk = "' + 'x'.repeat(400) + '";').length,
      gzip: gzipSync('export const chunk = "' + 'x'.repeat(400) + '";').length,
    };
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
      ['*', 'br'],
    ] as const) {
      const answer = await get(accept);
      expect([accept, answer.headers['content-encoding']]).toEqual([accept, encoding]);
      expect(answer.headers['content-length']).toBe(String(sizes[encoding]));
      expect(answer.headers['vary']).toBe('Accept-Encoding');
      expect(answer.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
    }
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('export const chunk = "' + 'x'.repeat(400) + '";');
    expect(plain.headers['vary']).toBe('Accept-Encoding');
    // Each encoding is its own representation: its own ETag, and a 304 for it.
    const br = await get('br');
    expect(br.headers['etag']).not.toBe(plain.headers['etag']);
    const again = await rawGet(server.origin, '/assets/part-Ab3_x9Zq.js', {
      'accept-encoding': 'br',
      'if-none-match': String(br.headers['etag']),
    });
    expect(again.status).toBe(304);
    // A file without copies, and without a hash in its name: as before.
    const embed = await rawGet(server.origin, '/assets/embed.js', { 'accept-encoding': 'br' });
    expect(embed.headers['content-encoding']).toBeUndefined();
    expect(embed.headers['vary']).toBeUndefined();
    expect(embed.headers['cache-control']).toBe(ASSET_CACHE_CONTROL);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await fetch(`${server.origin}/assets/embed.js`);
    const etag = first.headers.get('etag') ?? '';
    const second = await rawGet(server.origin, '/assets/embed.js', { 'if-none-match': etag });
    expect(etag).not.toBe('');
    expect(second.status).toBe(304);
  });

  it("names each request, and takes no client's own X-Request-Id without a proxy in front", async () => {
    const answer = await rawGet(server.origin, '/assets/embed.js', { 'x-request-id': 'mine' });
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a request target that is no URL with 400, and keeps running', async () => {
    // Node's parser takes `//[`; the URL parser throws on it (once, this stopped the process).
    expect((await rawGet(server.origin, '//[')).status).toBe(400);
    expect((await rawGet(server.origin, '/assets/embed.js')).status).toBe(200);
  });

  it.each([
    '/assets/../outside.txt',
    '/assets/%2e%2e/outside.txt',
    '/assets/%2e%2e%2foutside.txt',
    '/assets/..%5coutside.txt',
    '/assets/admin/../../outside.txt',
    '/assets/.env',
    '/assets/embed.js%00.html',
    '/assets/%E0%A4%A',
    '/assets/missing.js',
  ])('refuses %s with 404', async (path) => {
    const response = await rawGet(server.origin, path);
    expect(response.status).toBe(404);
    expect(response.body).not.toContain('outside the root');
    expect(response.body).not.toContain('SECRET');
  });

  it('answers /healthz with status ok', async () => {
    const response = await fetch(`${server.origin}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers 404 to unknown paths', async () => {
    expect((await fetch(`${server.origin}/nowhere`)).status).toBe(404);
  });

  it('exposes request durations and open WebSockets on /metrics', async () => {
    const client = server.wsClient();
    await wsQuery(client, '{ hello }');
    const text = await (await fetch(`${server.origin}/metrics`)).text();
    expect(text).toMatch(
      /parley_http_request_duration_seconds_count\{method="GET",route="healthz",status="200"\} [1-9]/,
    );
    expect(text).toMatch(/route="static",status="404"/);
    expect(text).toMatch(/parley_websocket_connections_active [1-9]/);
  });
});

describe('createHttpServer health check and shutdown', () => {
  it('answers 503 when the health check fails', async () => {
    const server = await startTestServer({
      healthCheck: async () => Promise.reject(new Error('db')),
    });
    try {
      const response = await fetch(`${server.origin}/healthz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: 'error' });
    } finally {
      await server.close();
    }
  });

  it('close() ends open WebSockets and resolves once everything is closed', async () => {
    const server = await startTestServer();
    const socket = new WebSocket(
      `ws://127.0.0.1:${new URL(server.origin).port}/graphql`,
      'graphql-transport-ws',
    );
    await new Promise((resolve) => socket.once('open', resolve));
    const socketClosed = new Promise<number>((resolve) => socket.once('close', resolve));

    await server.close();

    expect(await socketClosed).toBe(1001);
    expect(server.http.server.listening).toBe(false);
    expect(await server.metrics.activeWebSockets.get()).toMatchObject({ values: [{ value: 0 }] });
  });

  it('close() cuts a client that never answers the close frame', async () => {
    const server = await startTestServer();
    const socket = new WebSocket(
      `ws://127.0.0.1:${new URL(server.origin).port}/graphql`,
      'graphql-transport-ws',
    );
    await new Promise((resolve) => socket.once('open', resolve));
    // Pausing the socket means this client never reads (or answers) the server's close frame.
    socket.pause();
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(3000);
    socket.terminate();
  });

  it('close() lets a request in flight finish, then closes its kept-alive connection', async () => {
    const server = await startTestServer();
    const agent = new Agent({ keepAlive: true });
    const { port } = new URL(server.origin);
    try {
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/graphql',
            method: 'POST',
            agent,
            headers: { 'content-type': 'application/json' },
          },
          (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ query: '{ slow(ms: 300) }' }));
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = Date.now();
      await server.close();
      const took = Date.now() - started;
      expect(await answer).toEqual({ status: 200, body: '{"data":{"slow":"done"}}' });
      // Closed once its answer was out, not after Node's keep-alive time-out or the 5 s cut.
      expect(took).toBeLessThan(1500);
    } finally {
      agent.destroy();
    }
  });
});
