import { Writable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import { WebSocket } from 'ws';
import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { createDatabase } from '../src/db/createDatabase';
import { createTestDatabase } from '../src/db/testDatabases';
import { createLogger } from '../src/runtime/createLogger';
import { loadConfig } from '../src/runtime/loadConfig';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';
import { loadTrustedDocuments } from '../src/runtime/plugins/trustedDocuments';

// What an operator watches: one log line per request (with its id and operation), and the
// metrics at /metrics, against the real server.
const SITE = 'https://site.example';

describe('logs and metrics', () => {
  let dir: string;
  let server: ParleyServer;
  let url: string;
  let adminToken: string;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'parley-observability-'));
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    server = await createParleyServer({
      // Behind one proxy: its X-Request-Id is kept.
      config: loadConfig({ PORT: '0', PARLEY_DATA_DIR: dir, TRUST_PROXY: '1' }),
      logger: createLogger({ level: 'info', destination }),
    });
    url = `http://127.0.0.1:${await server.listen()}`;
    adminToken = await installOverHttp(url, { site: SITE, password: 'correct horse battery' });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const requests = () => lines.filter((line) => line['msg'] === 'request');
  const metric = async (name: string) => {
    const text = await (await fetch(`${url}/metrics`)).text();
    return text.split('\n').filter((line) => line.startsWith(name));
  };

  it('logs each request once, with its id, operation, status and duration, and no query string', async () => {
    const documents = loadTrustedDocuments();
    const [id] = [...documents].find(([, text]) => text.startsWith('query Stream('))!;
    const search = new URLSearchParams({
      variables: JSON.stringify({ url: `${SITE}/logged`, first: 20, sort: 'CREATED_AT_DESC' }),
      extensions: JSON.stringify({ persistedQuery: { documentId: id } }),
    });
    const response = await fetch(`${url}/graphql?${search}`, {
      headers: { 'x-request-id': 'proxy-42', 'sec-fetch-site': 'same-origin' },
    });
    expect(response.headers.get('x-request-id')).toBe('proxy-42');
    await response.arrayBuffer();
    // Our own id when the given one is not sane.
    const own = await fetch(`${url}/healthz`, { headers: { 'x-request-id': 'a b\u00e9' } });
    expect(own.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = requests().find((line) => line['reqId'] === 'proxy-42');
    expect(logged).toMatchObject({
      method: 'GET',
      path: '/graphql',
      route: 'graphql',
      operation: 'Stream',
      status: 200,
    });
    expect(typeof logged?.['ms']).toBe('number');
    expect(JSON.stringify(requests())).not.toContain('persistedQuery');
    expect(requests().filter((line) => line['reqId'] === 'proxy-42')).toHaveLength(1);
    expect(
      requests().find((line) => line['reqId'] === own.headers.get('x-request-id')),
    ).toMatchObject({ route: 'healthz', status: 200 });
  });

  it('times operations by name, their own text counted as other, and counts read-cache lookups', async () => {
    const ask = (query: string) =>
      fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      }).then((r) => r.json());
    await ask('query MyOwnName { settings { installed } }');
    const read = () =>
      fetch(`${url}/graphql?${new URLSearchParams({ query: '{ settings { reactionLabel } }' })}`);
    await (await read()).arrayBuffer();
    await (await read()).arrayBuffer();

    const durations = await metric('parley_graphql_operation_duration_seconds_count');
    expect(durations).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^parley_graphql_operation_duration_seconds_count\{operation="Stream"\} \d+$/,
        ),
        expect.stringMatching(
          /^parley_graphql_operation_duration_seconds_count\{operation="other"\} \d+$/,
        ),
      ]),
    );
    expect(durations.join('\n')).not.toContain('MyOwnName');
    expect(requests().some((line) => line['operation'] === 'MyOwnName')).toBe(true);
    const lookups = (await metric('parley_read_cache_lookups_total')).join('\n');
    expect(lookups).toMatch(/result="hit"\} [1-9]/);
    expect(lookups).toMatch(/result="miss"\} [1-9]/);
  });

  it('counts emails, and the operations running on sockets', async () => {
    await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation { requestPasswordReset(input: { email: "admin@example.com" }) { ok } }',
      }),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await metric('parley_emails_total')).toContain('parley_emails_total{result="filed"} 1');
    // The account-deletion sweep ran once, at start.
    expect(await metric('parley_job_runs_total')).toContain(
      'parley_job_runs_total{job="account_deletion",result="ok"} 1',
    );

    const client: Client = createClient({
      url: `${url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      lazy: false,
    });
    try {
      await new Promise<void>((resolve) => client.on('connected', () => resolve()));
      // The story the first test's read created.
      const story = (await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ story(url: "${SITE}/logged") { id } }` }),
      }).then((r) => r.json())) as { data: { story: { id: string } } };
      const stop = client.subscribe(
        { query: `subscription { commentCreated(storyId: "${story.data.story.id}") { id } }` },
        { next: () => undefined, error: () => undefined, complete: () => undefined },
      );
      let gauge: string[] = [];
      for (let i = 0; i < 50 && !gauge.includes('parley_graphql_subscriptions_active 1'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        gauge = await metric('parley_graphql_subscriptions_active');
      }
      expect(gauge).toContain('parley_graphql_subscriptions_active 1');
      // A site changed: every process hears of it through the pub/sub, this one included.
      const sites = (await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
        body: JSON.stringify({ query: '{ sites { id } }' }),
      }).then((r) => r.json())) as { data: { sites: { id: string }[] } };
      await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
        body: JSON.stringify({
          query: `mutation { updateSite(input: { siteId: "${sites.data.sites[0]!.id}", name: "Renamed" }) { site { id } } }`,
        }),
      });
      expect(await metric('parley_pubsub_lag_seconds_count')).toContain(
        'parley_pubsub_lag_seconds_count{topic="sitesChanged"} 1',
      );
      stop();
    } finally {
      await client.dispose();
    }
  });
});

describe('the PostgreSQL pool, for its metric', () => {
  it('says how many clients it has', async () => {
    const test = await createTestDatabase('postgres');
    const database = await createDatabase({ url: test.url, dataDir: test.dataDir, migrate: false });
    try {
      await database.db
        .selectFrom('kysely_migration' as never)
        .selectAll()
        .execute()
        .catch(() => []);
      expect(database.poolStats?.()).toEqual({ total: 1, idle: 1, waiting: 0 });
    } finally {
      await database.close();
      await test.close();
    }
  });
});
