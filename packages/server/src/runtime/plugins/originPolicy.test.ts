import { TEST_PUBLIC_URL, TEST_SITE_ORIGIN, createTestYoga } from '../testing/createTestYoga';
import { createMemoryLogger } from '../testing/createTestYoga';
import { ALLOWED_ORIGINS_CACHE_TTL_MS, createOriginPolicy, normalizeOrigin } from './originPolicy';

const QUERY_URL = 'http://test/graphql?query=%7Bhello%7D';

describe('CORS and frame-ancestors', () => {
  it('echoes an allowed origin, without credentials', async () => {
    const { yoga } = createTestYoga();
    const response = await yoga.fetch(QUERY_URL, { headers: { origin: TEST_SITE_ORIGIN } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(TEST_SITE_ORIGIN);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toMatch(/Origin/);
  });

  it("allows the server's own public origin", async () => {
    const { yoga } = createTestYoga();
    const response = await yoga.fetch(QUERY_URL, { headers: { origin: TEST_PUBLIC_URL } });
    expect(response.headers.get('access-control-allow-origin')).toBe(TEST_PUBLIC_URL);
  });

  it('gives any other origin no CORS allow headers', async () => {
    const { yoga } = createTestYoga();
    const response = await yoga.fetch(QUERY_URL, { headers: { origin: 'https://evil.example' } });
    const allowHeaders = [...response.headers.keys()].filter((name) =>
      name.startsWith('access-control-allow'),
    );
    expect(allowHeaders).toEqual([]);
  });

  it('answers a preflight from an allowed origin with the methods and headers', async () => {
    const { yoga } = createTestYoga();
    const response = await yoga.fetch('http://test/graphql', {
      method: 'OPTIONS',
      headers: {
        origin: TEST_SITE_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(TEST_SITE_ORIGIN);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(response.headers.get('access-control-allow-headers')).toMatch(/Idempotency-Key/);
  });

  it('answers a preflight from another origin without allow headers', async () => {
    const { yoga } = createTestYoga();
    const response = await yoga.fetch('http://test/graphql', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('sends frame-ancestors with self, the public origin and the permitted origins', async () => {
    const { yoga } = createTestYoga();
    const response = await yoga.fetch(QUERY_URL);
    expect(response.headers.get('content-security-policy')).toBe(
      `frame-ancestors 'self' ${TEST_PUBLIC_URL} ${TEST_SITE_ORIGIN}`,
    );
  });
});

describe('createOriginPolicy', () => {
  it(`reuses the origins for ${ALLOWED_ORIGINS_CACHE_TTL_MS} ms, then asks again`, async () => {
    let clock = 0;
    const getAllowedOrigins = jest.fn(async () => [TEST_SITE_ORIGIN]);
    const policy = createOriginPolicy({ getAllowedOrigins, now: () => clock });
    await Promise.all([policy.isAllowed(TEST_SITE_ORIGIN), policy.allowedOrigins()]);
    clock = ALLOWED_ORIGINS_CACHE_TTL_MS - 1;
    await policy.allowedOrigins();
    expect(getAllowedOrigins).toHaveBeenCalledTimes(1);
    clock = ALLOWED_ORIGINS_CACHE_TTL_MS;
    await policy.allowedOrigins();
    expect(getAllowedOrigins).toHaveBeenCalledTimes(2);
  });

  it('does not cache an empty list (before install), so the first site’s origins apply at once', async () => {
    const getAllowedOrigins = jest
      .fn<Promise<string[]>, []>()
      .mockResolvedValueOnce([])
      .mockResolvedValue([TEST_SITE_ORIGIN]);
    const policy = createOriginPolicy({
      getAllowedOrigins,
      publicUrl: TEST_PUBLIC_URL,
      now: () => 0,
    });
    expect(await policy.allowedOrigins()).toEqual([TEST_PUBLIC_URL]);
    expect(await policy.isAllowed(TEST_SITE_ORIGIN)).toBe(true);
    await policy.allowedOrigins();
    expect(getAllowedOrigins).toHaveBeenCalledTimes(2);
  });

  it('fails closed on a lookup error, logs it and retries on the next request', async () => {
    const { logger, logs } = createMemoryLogger();
    const getAllowedOrigins = jest
      .fn<Promise<string[]>, []>()
      .mockRejectedValueOnce(new Error('database down'))
      .mockResolvedValueOnce([TEST_SITE_ORIGIN]);
    const policy = createOriginPolicy({ getAllowedOrigins, publicUrl: TEST_PUBLIC_URL, logger });
    expect(await policy.allowedOrigins()).toEqual([TEST_PUBLIC_URL]);
    expect(logs[0]).toMatchObject({ msg: 'Could not load the permitted origins' });
    expect(await policy.isAllowed(TEST_SITE_ORIGIN)).toBe(true);
  });

  it('drops values that are not http(s) origins, so nothing can be injected into the CSP', async () => {
    const policy = createOriginPolicy({
      getAllowedOrigins: async () => [
        'https://a.example/some/path',
        "https://b.example; script-src 'unsafe-inline'",
        'javascript:alert(1)',
        'not a url',
      ],
    });
    expect(await policy.allowedOrigins()).toEqual(['https://a.example']);
    expect(await policy.contentSecurityPolicy()).toBe("frame-ancestors 'self' https://a.example");
  });

  it('normalizes origins', () => {
    expect(normalizeOrigin('HTTPS://Site.Example:443/x?y')).toBe('https://site.example');
    expect(normalizeOrigin('ftp://site.example')).toBeUndefined();
  });
});
