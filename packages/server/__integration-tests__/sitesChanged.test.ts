import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { ORGANIZATION_CACHE_TTL_MS } from '../src/defaults';
import { ALLOWED_ORIGINS_CACHE_TTL_MS } from '../src/runtime/plugins/originPolicy';
import { loadConfig } from '../src/runtime/loadConfig';
import { createMemoryLogger } from '../src/runtime/testing/createTestYoga';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';

// Two Parley processes on one database and one Redis. An admin adds a permitted origin on one;
// the other lets that origin in at once, not when its cached list expires. The same for the
// organization's settings, which each process keeps between requests.
const REDIS_URL = process.env['REDIS_URL'] as string;
const SITE = 'https://site.example';
const NEW_ORIGIN = 'https://new.example';

/** The CORS answer of `url` to a request from `origin`. */
async function allowedOrigin(url: string, origin: string): Promise<string | null> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ query: '{ settings { locale } }' }),
  });
  await response.arrayBuffer();
  return response.headers.get('access-control-allow-origin');
}

describe('what an admin saves, across processes', () => {
  let dir: string;
  const servers: ParleyServer[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-sites-'));
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    await rm(dir, { recursive: true, force: true });
  });

  /** Two servers on one SQLite file in one data folder (the processes share the data) and one Redis. */
  async function startTwo(): Promise<[string, string]> {
    const redisPrefix = `parley-test-${randomUUID()}:`;
    const start = async () => {
      const server = await createParleyServer({
        config: loadConfig({ PORT: '0', PARLEY_DATA_DIR: dir, LOG_LEVEL: 'silent', REDIS_URL }),
        logger: createMemoryLogger().logger,
        redisPrefix,
      });
      servers.push(server);
      return `http://127.0.0.1:${await server.listen()}`;
    };
    return [await start(), await start()];
  }

  it('a site’s permitted origins apply on every process at once', async () => {
    const [a, b] = await startTwo();
    const token = await installOverHttp(a, { site: SITE, password: 'correct horse battery' });
    // B has loaded (and now caches) the list without the new origin.
    expect(await allowedOrigin(b, SITE)).toBe(SITE);
    expect(await allowedOrigin(b, NEW_ORIGIN)).toBeNull();

    const sites = await fetch(`${a}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ sites { id } }' }),
    });
    const siteId = ((await sites.json()) as { data: { sites: { id: string }[] } }).data.sites[0]
      ?.id;
    const saved = await fetch(`${a}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        query: `mutation ($input: UpdateSiteInput!) { updateSite(input: $input) { site { allowedOrigins } } }`,
        variables: { input: { siteId, allowedOrigins: [SITE, NEW_ORIGIN] } },
      }),
    });
    expect(await saved.json()).toEqual({
      data: { updateSite: { site: { allowedOrigins: [SITE, NEW_ORIGIN] } } },
    });

    // Within a second on B, far inside its cache's lifetime.
    const deadline = Date.now() + 1_000;
    let answer = await allowedOrigin(b, NEW_ORIGIN);
    while (answer === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer = await allowedOrigin(b, NEW_ORIGIN);
    }
    expect(answer).toBe(NEW_ORIGIN);
    expect(ALLOWED_ORIGINS_CACHE_TTL_MS).toBeGreaterThan(60_000);
  });

  it('the settings apply on every process at once', async () => {
    const [a, b] = await startTwo();
    const token = await installOverHttp(a, { site: SITE, password: 'correct horse battery' });
    // Signed in: answered by the server, not the read cache.
    const ask = async (url: string, query: string, variables?: object) => {
      const response = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as { data: { settings: { bannedWords: string[] } } };
    };
    const bannedWords = async (url: string) =>
      (await ask(url, '{ settings { bannedWords } }')).data.settings.bannedWords;
    // Both have read (and now keep) the settings without the word.
    expect(await bannedWords(a)).toEqual([]);
    expect(await bannedWords(b)).toEqual([]);

    await ask(
      a,
      `mutation ($input: UpdateSettingsInput!) { updateSettings(input: $input) { settings { bannedWords } } }`,
      { input: { bannedWords: ['darn'] } },
    );
    // On A at once (its own copy dropped before the answer), on B within a second: far inside
    // the time a kept copy lives.
    expect(await bannedWords(a)).toEqual(['darn']);
    const deadline = Date.now() + 1_000;
    let onB = await bannedWords(b);
    while (onB.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      onB = await bannedWords(b);
    }
    expect(onB).toEqual(['darn']);
    expect(ORGANIZATION_CACHE_TTL_MS).toBeGreaterThanOrEqual(5_000);
  });
});
