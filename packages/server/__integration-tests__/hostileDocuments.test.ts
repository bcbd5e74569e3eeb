import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { isServerErrorCode } from '@parley/contract';
import { loadConfig } from '../src/runtime/loadConfig';
import { MAX_DOCUMENT_CHARACTERS } from '../src/runtime/plugins/documentSize';
import { HOSTILE_REQUESTS } from '../src/runtime/testing/hostileDocuments';

// GraphQL documents built to make the server work (hostileDocuments.ts): each is refused with a
// coded error before it runs — by a server that takes its clients' own documents
// (GRAPHQL_ALLOW_ARBITRARY, development) as by one that runs only Parley's. bench:hostile
// measures the server's time per refusal.

describe.each<[string, Record<string, string>]>([
  ['taking documents of their own', { GRAPHQL_ALLOW_ARBITRARY: 'true' }],
  ['running only trusted documents', { NODE_ENV: 'production', PARLEY_SECRET: 'x'.repeat(32) }],
])('hostile documents, to a server %s', (_name, env) => {
  let dir: string;
  let server: ParleyServer;
  let url: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-hostile-'));
    server = await createParleyServer({
      config: loadConfig({ PORT: '0', PARLEY_DATA_DIR: dir, LOG_LEVEL: 'silent', ...env }),
    });
    url = `http://127.0.0.1:${await server.listen()}`;
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  if (env['GRAPHQL_ALLOW_ARBITRARY']) {
    it(`takes a document of ${MAX_DOCUMENT_CHARACTERS} characters, and refuses one more`, async () => {
      const sized = (length: number) => `{ __typename }${' '.repeat(length - 14)}`;
      const post = async (query: string) => {
        const response = await fetch(`${url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query }),
        });
        return [response.status, await response.json()];
      };
      expect(await post(sized(MAX_DOCUMENT_CHARACTERS))).toEqual([
        200,
        { data: { __typename: 'Query' } },
      ]);
      expect(await post(sized(MAX_DOCUMENT_CHARACTERS + 1))).toEqual([
        400,
        {
          errors: [
            expect.objectContaining({
              message: `A GraphQL document can be at most ${MAX_DOCUMENT_CHARACTERS} characters; this one has ${MAX_DOCUMENT_CHARACTERS + 1}.`,
              extensions: expect.objectContaining({ code: 'INVALID_INPUT' }),
            }),
          ],
        },
      ]);
    });
  }

  it.each(HOSTILE_REQUESTS.map((r) => [r.name, r] as const))('refuses %s, coded', async (_n, r) => {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(r.body),
    });
    const body = (await response.json()) as {
      data?: unknown;
      errors?: { extensions?: { code?: string } }[];
    };
    expect(response.status).toBeLessThan(500);
    expect(body.data ?? null).toBeNull();
    const codes = (body.errors ?? []).map((e) => e.extensions?.code);
    expect(codes.length).toBeGreaterThan(0);
    for (const code of codes) expect([code, isServerErrorCode(code)]).toEqual([code, true]);
  });
});
