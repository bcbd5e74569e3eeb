import type { ParleyError } from '../ParleyError';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkWebhookUrl, isPublicAddress, postWebhook, WEBHOOK_LIMITS } from './postWebhook';

describe('isPublicAddress', () => {
  it.each([
    ['93.184.216.34', true],
    ['2606:2800:220:1:248:1893:25c8:1946', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false], // a cloud's metadata address
    ['100.64.0.1', false], // carrier-grade NAT
    ['0.0.0.0', false],
    ['255.255.255.255', false],
    ['224.0.0.1', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:10.0.0.1', false], // an IPv4 private address written as IPv6
    ['::ffff:93.184.216.34', true],
    ['::7f00:1', false], // IPv4-compatible 127.0.0.1
    ['64:ff9b::5db8:d822', true], // NAT64 of 93.184.216.34
    ['64:ff9b::a00:1', false], // NAT64 of 10.0.0.1
    ['not an address', false],
  ])('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('checkWebhookUrl', () => {
  it('takes http(s) URLs without credentials and drops the fragment', () => {
    expect(checkWebhookUrl(' https://hooks.example.com/in?x=1#frag ', false).href).toBe(
      'https://hooks.example.com/in?x=1',
    );
  });
  it('refuses private IP literals unless allowed', () => {
    expect(() => checkWebhookUrl('http://[::1]:8080/', false)).toThrow(/::1/);
    expect(() => checkWebhookUrl('http://192.168.0.10/', false)).toThrow(/private/);
    expect(checkWebhookUrl('http://192.168.0.10/', true).hostname).toBe('192.168.0.10');
  });
  it('names each refusal’s problem, with the figures its words need (the console words it)', () => {
    const problemOf = (text: string) => {
      try {
        checkWebhookUrl(text, false);
      } catch (error) {
        return (error as ParleyError).extensions;
      }
      return undefined;
    };
    expect(problemOf('http://10.0.0.5/hook')).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'url',
      problem: 'ADDRESS_PRIVATE',
      host: '10.0.0.5',
      address: '10.0.0.5',
    });
    expect(problemOf('hooks.example.com')).toMatchObject({ problem: 'URL_INVALID' });
    expect(problemOf('ftp://hooks.example.com/')).toMatchObject({ problem: 'URL_INVALID' });
    expect(problemOf('https://me:pw@hooks.example.com/')).toMatchObject({
      problem: 'URL_CREDENTIALS',
    });
  });
});

describe('postWebhook', () => {
  let server: Server;
  let base: string;
  let handler: Parameters<typeof createServer>[1];
  beforeAll(async () => {
    server = createServer((request, response) => handler!(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads at most 64 KB of an answer, not waiting for the rest, and keeps its start', async () => {
    let timer: NodeJS.Timeout | undefined;
    handler = (request, response) => {
      response.writeHead(200);
      // An answer that never ends: the attempt stops reading at 64 KB, long before its limit.
      const chunk = 'x'.repeat(16 * 1024);
      timer = setInterval(() => response.write(chunk), 5);
      request.socket.on('close', () => clearInterval(timer));
    };
    const answer = await postWebhook(
      `${base}/`,
      '{}',
      {},
      { allowPrivate: true, timeoutMs: 5_000 },
    );
    clearInterval(timer);
    expect(answer).toMatchObject({ status: 200, error: null });
    expect(answer.durationMs).toBeLessThan(2_000);
    expect(answer.excerpt).toHaveLength(WEBHOOK_LIMITS.excerptChars);
  });

  it('never reuses a connection: one kept alive would skip the address guard', async () => {
    handler = (_request, response) => response.end('ok');
    const url = `http://localhost:${new URL(base).port}/`;
    expect(await postWebhook(url, '{}', {}, { allowPrivate: true })).toMatchObject({ status: 200 });
    // At once, while a kept-alive socket would still be open: refused all the same.
    const refused = await postWebhook(url, '{}', {}, { allowPrivate: false });
    expect(refused.status).toBeNull();
    expect(refused.error).toMatch(/localhost is at/);
  });

  it('gives up on an endpoint that does not answer in time', async () => {
    handler = () => undefined; // never answers
    const answer = await postWebhook(`${base}/`, '{}', {}, { allowPrivate: true, timeoutMs: 300 });
    expect(answer).toMatchObject({ status: null, error: 'No answer within 0.3 s' });
    expect(answer.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('follows a redirect with the same body, and refuses one to an address not allowed', async () => {
    const bodies: string[] = [];
    handler = (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        bodies.push(`${request.method} ${request.url} ${Buffer.concat(chunks).toString()}`);
        if (request.url === '/old') {
          response.writeHead(308, { location: '/new' });
        } else if (request.url === '/renamed') {
          // A name this time: the guard is on the connection's lookup, redirect or not.
          response.writeHead(302, { location: `http://localhost:${new URL(base).port}/new` });
        } else if (request.url === '/away') {
          // To another loopback address: not 127.0.0.1, which this test lets count as public.
          response.writeHead(307, { location: `http://127.0.0.2:${new URL(base).port}/new` });
        } else response.writeHead(202);
        response.end();
      });
    };
    const onlyThisOne = (address: string) => address === '127.0.0.1';
    const moved = await postWebhook(
      `${base}/old`,
      '{"a":1}',
      {},
      {
        allowPrivate: false,
        isPublic: onlyThisOne,
      },
    );
    expect(moved).toMatchObject({ status: 202, error: null });
    expect(bodies).toEqual(['POST /old {"a":1}', 'POST /new {"a":1}']);

    bodies.length = 0;
    const away = await postWebhook(
      `${base}/away`,
      '{"a":1}',
      {},
      {
        allowPrivate: false,
        isPublic: onlyThisOne,
      },
    );
    expect(away.status).toBeNull();
    expect(away.error).toMatch(/127\.0\.0\.2.*private/);
    expect(bodies).toEqual(['POST /away {"a":1}']);

    // To a name: the guard judges what it resolves to, on the redirect's own connection.
    bodies.length = 0;
    const judged: string[] = [];
    const renamed = await postWebhook(
      `${base}/renamed`,
      '{"a":1}',
      {},
      {
        allowPrivate: false,
        isPublic: (address) => {
          judged.push(address);
          return onlyThisOne(address);
        },
      },
    );
    // The first hop's literal, then localhost's addresses (127.0.0.1 here, ::1 where it has it).
    expect(judged[0]).toBe('127.0.0.1');
    expect(judged.slice(1)).toContain('127.0.0.1');
    expect(renamed.status).toBe(judged.includes('::1') ? null : 202);
  });

  it('refuses a name that resolves to a private address, on the connection itself', async () => {
    handler = (_request, response) => response.end();
    const answer = await postWebhook(
      `http://localhost:${new URL(base).port}/`,
      '{}',
      {},
      {
        allowPrivate: false,
      },
    );
    expect(answer.status).toBeNull();
    expect(answer.error).toMatch(/localhost is at (127\.0\.0\.1|::1)/);
  });
});
