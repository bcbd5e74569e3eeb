import { createTestYoga, postGraphQL } from '../testing/createTestYoga';
import { startTestServer } from '../testing/startTestServer';
import type { TestServer } from '../testing/startTestServer';
import { loadTrustedDocuments } from './trustedDocuments';

// Production runs only the clients' documents, named by id; development (and a production server
// with GRAPHQL_ALLOW_ARBITRARY=true) runs any text too, and introspection with it.

const DOCUMENTS = new Map([
  ['hi', 'query Hello { hello }'],
  ['live', 'subscription Live($storyId: ID!) { commentCreated(storyId: $storyId) { commentId } }'],
]);
const byId = (documentId: string) => ({ persistedQuery: { documentId } });

function yogaOf(allowArbitrary: boolean) {
  return createTestYoga({
    production: true,
    trustedDocuments: { documents: DOCUMENTS, allowArbitrary },
  }).yoga;
}

async function post(allowArbitrary: boolean, body: Record<string, unknown>) {
  const response = await postGraphQL(yogaOf(allowArbitrary), body as { query: string });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('trusted documents', () => {
  it('run a document named by its id, over POST and GET, with no text sent', async () => {
    expect(await post(false, { extensions: byId('hi') })).toEqual({
      status: 200,
      body: { data: { hello: 'world' } },
    });
    const response = await yogaOf(false).fetch(
      `http://test/graphql?operationName=Hello&extensions=${encodeURIComponent(JSON.stringify(byId('hi')))}`,
      { method: 'GET', headers: { accept: 'application/json' } },
    );
    expect(await response.json()).toEqual({ data: { hello: 'world' } });
  });

  it('refuse query text in production with DOCUMENT_NOT_TRUSTED, and an unknown id', async () => {
    const text = await post(false, { query: '{ hello }' });
    expect(text.status).toBe(400);
    expect(text.body).toEqual({
      errors: [
        {
          message: expect.stringContaining('GRAPHQL_ALLOW_ARBITRARY=true'),
          extensions: { code: 'DOCUMENT_NOT_TRUSTED' },
        },
      ],
    });
    const unknown = await post(false, { extensions: byId('from-an-older-build') });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      errors: [
        {
          message: expect.stringContaining('Reload the page'),
          extensions: { code: 'DOCUMENT_NOT_TRUSTED' },
        },
      ],
    });
    // Neither text nor id: the same refusal as text.
    expect((await post(false, {})).body).toMatchObject({
      errors: [{ extensions: { code: 'DOCUMENT_NOT_TRUSTED' } }],
    });
  });

  it('run text, and introspection, only where arbitrary documents are allowed', async () => {
    const introspection = { query: '{ __schema { queryType { name } } }' };
    expect((await post(true, { query: '{ hello }' })).body).toEqual({ data: { hello: 'world' } });
    expect((await post(true, introspection)).body).toEqual({
      data: { __schema: { queryType: { name: 'Query' } } },
    });
    // A trusted document may not introspect either where text is refused (none of ours does).
    const introspecting = createTestYoga({
      production: true,
      trustedDocuments: {
        documents: new Map([['schema', introspection.query]]),
        allowArbitrary: false,
      },
    }).yoga;
    const refused = await postGraphQL(introspecting, {
      extensions: byId('schema'),
    } as unknown as { query: string });
    const { data, errors } = (await refused.json()) as { data?: unknown; errors: unknown[] };
    expect(data).toBeUndefined();
    expect(errors).toContainEqual(
      expect.objectContaining({
        message: expect.stringMatching(/introspection has been disabled/i),
        extensions: { code: 'INVALID_INPUT' },
      }),
    );
  });

  it('run text, and introspection, for a request its vouchedFor accepts (an API token)', async () => {
    const asked: (string | null)[] = [];
    const { yoga } = createTestYoga({
      production: true,
      trustedDocuments: {
        documents: DOCUMENTS,
        allowArbitrary: false,
        vouchedFor: (request) => {
          const authorization = request.headers.get('authorization');
          asked.push(authorization);
          return Promise.resolve(authorization === 'Bearer works');
        },
      },
    });
    const as = async (authorization: string, body: Record<string, unknown>) =>
      (await postGraphQL(yoga, body as { query: string }, { authorization })).json();
    expect(await as('Bearer works', { query: '{ hello }' })).toEqual({ data: { hello: 'world' } });
    expect(await as('Bearer works', { query: '{ __schema { queryType { name } } }' })).toEqual({
      data: { __schema: { queryType: { name: 'Query' } } },
    });
    expect(await as('Bearer revoked', { query: '{ hello }' })).toMatchObject({
      errors: [{ extensions: { code: 'DOCUMENT_NOT_TRUSTED' } }],
    });
    // A trusted document from anyone: never asked about (no text to vouch for), never introspecting.
    expect(await as('Bearer revoked', { extensions: byId('hi') })).toEqual({
      data: { hello: 'world' },
    });
    expect(asked).toEqual(['Bearer works', 'Bearer works', 'Bearer revoked']);
  });

  it('hold every document the clients send, none introspecting', () => {
    const documents = loadTrustedDocuments();
    expect(documents.size).toBeGreaterThan(50);
    for (const [id, text] of documents) {
      expect(id).toMatch(/^[0-9a-z]+$/);
      expect(text).not.toMatch(/__schema|__type\b/);
    }
  });

  describe('over WebSocket', () => {
    let server: TestServer;
    afterEach(async () => {
      await server.close();
    });

    function subscribe(payload: Record<string, unknown>): Promise<string> {
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve('open'), 300);
        server.wsClient().subscribe(payload as { query: string }, {
          next: () => undefined,
          error: (error) => {
            clearTimeout(timer);
            resolve(
              (error as { extensions?: { code?: string } }[])[0]?.extensions?.code ?? 'error',
            );
          },
          complete: () => undefined,
        });
      });
    }

    it('subscribe by id, and refuse text and unknown ids as HTTP does', async () => {
      server = await startTestServer({
        production: true,
        trustedDocuments: { documents: DOCUMENTS, allowArbitrary: false },
      });
      const variables = { storyId: 's1' };
      expect(await subscribe({ query: '', variables, extensions: byId('live') })).toBe('open');
      expect(
        await subscribe({
          query: 'subscription { commentCreated(storyId: "s1") { commentId } }',
        }),
      ).toBe('DOCUMENT_NOT_TRUSTED');
      expect(await subscribe({ query: '', variables, extensions: byId('nope') })).toBe(
        'DOCUMENT_NOT_TRUSTED',
      );
    });
  });
});
