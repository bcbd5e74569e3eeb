import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import { WebSocket } from 'ws';
import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { createTestDatabase, testDialects } from '../src/db/testDatabases';
import type { TestDatabase } from '../src/db/testDatabases';
import { loadConfig } from '../src/runtime/loadConfig';
import { loadTrustedDocuments } from '../src/runtime/plugins/trustedDocuments';
import { createMemoryLogger } from '../src/runtime/testing/createTestYoga';
import { graphqlAs } from '../src/runtime/testing/graphqlAs';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';

// API tokens against the real server as production runs it: only the clients' documents, except
// for a request with an API token that works, which sends its own query (and may introspect).
// The data is made by a first server that takes any text, then served by one that does not.
const SITE = 'https://site.example';

/** The id of the console's trusted document whose text holds `needle`. */
function documentIdOf(needle: string): string {
  const found = [...loadTrustedDocuments()].find(([, text]) => text.includes(needle));
  if (!found) throw new Error(`No trusted document holds ${needle}`);
  return found[0];
}

describe.each(testDialects())('API tokens over HTTP on %s', (dialect) => {
  let database: TestDatabase;
  const servers: ParleyServer[] = [];

  async function start(env: Record<string, string> = {}) {
    const server = await createParleyServer({
      config: loadConfig({
        PORT: '0',
        PARLEY_DATA_DIR: database.dataDir,
        DATABASE_URL: dialect === 'postgres' ? database.url : undefined,
        LOG_LEVEL: 'silent',
        ...env,
      }),
      logger: createMemoryLogger().logger,
    });
    servers.push(server);
    return `http://127.0.0.1:${await server.listen()}`;
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect, { sqliteFile: true });
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await database?.close();
  });

  it('send their own queries where only trusted documents run, as far as their scope goes', async () => {
    const open = await start();
    const adminSession = await installOverHttp(open, {
      site: SITE,
      password: 'correct horse battery',
    });
    const admin = graphqlAs(open, adminSession);
    const make = async (name: string, scope: string) =>
      (
        await admin<{ createApiToken: { apiToken: { id: string; secret: string } } }>(
          `mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { apiToken { id secret } } }`,
          { input: { name, scope } },
        )
      ).createApiToken.apiToken;
    const reader = await make('Reader', 'READ');
    const configurer = await make('Configurer', 'ADMIN');
    await servers.pop()!.close();

    const url = await start({ GRAPHQL_ALLOW_ARBITRARY: 'false' });
    const post = async (credential: string | null, body: Record<string, unknown>) => {
      const response = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(credential ? { authorization: `Bearer ${credential}` } : {}),
        },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    const codeOf = (answer: { body: Record<string, any> }) =>
      answer.body.errors?.[0]?.extensions?.code;

    // The admin's own session runs only trusted documents.
    const list = { query: `{ apiTokens { name lastUsedAt } }` };
    expect(codeOf(await post(adminSession, list))).toBe('DOCUMENT_NOT_TRUSTED');
    // A token runs its own text, and may introspect.
    const listed = await post(reader.secret, list);
    expect(listed.status).toBe(200);
    expect(listed.body.data.apiTokens).toEqual([
      { name: 'Configurer', lastUsedAt: null },
      { name: 'Reader', lastUsedAt: expect.any(String) },
    ]);
    const schema = await post(reader.secret, { query: `{ __type(name: "ApiToken") { name } }` });
    expect(schema.body).toEqual({ data: { __type: { name: 'ApiToken' } } });
    // A token that is no token is vouched for by nothing.
    expect(codeOf(await post('parley_pat_madeup', list))).toBe('DOCUMENT_NOT_TRUSTED');

    // Within its scope only.
    const settings = {
      query: `mutation { updateSettings(input: { reportThreshold: 9 }) { settings { reportThreshold } } }`,
    };
    expect(codeOf(await post(reader.secret, settings))).toBe('FORBIDDEN');
    expect((await post(configurer.secret, settings)).body).toEqual({
      data: { updateSettings: { settings: { reportThreshold: 9 } } },
    });

    // Over WebSocket a token signs the connection in, as a session does; the documents are the
    // trusted ones there (text is for HTTP only).
    const overSocket = async (credential: string, payload: Record<string, unknown>) => {
      const client: Client = createClient({
        url: `${url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${credential}` },
        retryAttempts: 0,
      });
      try {
        return await new Promise<Record<string, any>>((resolve) => {
          let result: Record<string, any> = {};
          client.subscribe(payload as { query: string }, {
            next: (value) => (result = value as Record<string, any>),
            error: (error) => {
              const { code, reason } = error as { code?: number; reason?: string };
              resolve({ error: code === undefined ? error : { code, reason } });
            },
            complete: () => resolve(result),
          });
        });
      } finally {
        await client.dispose();
      }
    };
    const listById = {
      query: '',
      extensions: { persistedQuery: { version: 1, documentId: documentIdOf('apiTokens {') } },
    };
    const bySocket = await overSocket(reader.secret, listById);
    expect(bySocket['data']?.apiTokens).toHaveLength(2);
    const textBySocket = await overSocket(reader.secret, list);
    expect(JSON.stringify(textBySocket)).toContain('DOCUMENT_NOT_TRUSTED');

    // The console revokes it by its own trusted document; from then on nothing runs for it.
    const revoked = await post(adminSession, {
      extensions: { persistedQuery: { version: 1, documentId: documentIdOf('revokeApiToken(') } },
      variables: { input: { tokenId: reader.id } },
    });
    expect(revoked.body.data.revokeApiToken.apiToken.revokedAt).toEqual(expect.any(String));
    expect(codeOf(await post(reader.secret, list))).toBe('DOCUMENT_NOT_TRUSTED');
    const byId = await post(reader.secret, {
      extensions: { persistedQuery: { version: 1, documentId: documentIdOf('apiTokens {') } },
    });
    expect(byId.status).toBe(401);
    expect(codeOf(byId)).toBe('TOKEN_INVALID');
    // Nor over WebSocket.
    const revokedBySocket = await overSocket(reader.secret, listById);
    expect(revokedBySocket['data']).toBeUndefined();
    expect(JSON.stringify(revokedBySocket)).toMatch(/TOKEN_INVALID|revoked|4403|4401/);
  });
});
