import type { IncomingMessage } from 'node:http';
import { createMemoryReadStore, createReadCache } from './createReadCache';
import { createFastReads } from './fastReads';
import { readCacheKey } from './useReadCache';

const TEXT = 'query Hello($n: Int) { hello(n: $n) }';
const DOCUMENTS = new Map([['hi', TEXT]]);
const ANSWER = { data: { hello: 'world' } };

function setUp() {
  const cache = createReadCache({
    store: createMemoryReadStore({ maxBytes: 10_000 }),
    logger: { warn: () => undefined } as unknown as Parameters<typeof createReadCache>[0]['logger'],
  });
  const read = createFastReads({ cache, documents: DOCUMENTS, sharedMaxAgeSeconds: 10 });
  const request = (search: Record<string, string>, headers: Record<string, string> = {}) =>
    read({ url: `/graphql?${new URLSearchParams(search)}`, headers } as IncomingMessage);
  /** Keeps ANSWER as yoga's plugin would for `Hello` with `variables`. */
  const keep = async (variables: Record<string, unknown>) => {
    const key = readCacheKey({
      operationName: 'Hello',
      documentString: TEXT,
      variableValues: variables,
    });
    expect(await cache.store.get(key)).toBeUndefined(); // the read that missed
    const result = {
      ...ANSWER,
      extensions: {
        http: { headers: { ETag: 'x', 'Last-Modified': 'Thu, 26 Nov 2026 03:00:00 GMT' } },
      },
    };
    await cache.store.set(key, result, [{ typename: 'Story', id: 's1' }], 60_000);
  };
  return { cache, request, keep };
}

const byId = (n: number) => ({
  operationName: 'Hello',
  variables: JSON.stringify({ n }),
  extensions: JSON.stringify({ persistedQuery: { documentId: 'hi' } }),
});

describe('fast reads', () => {
  it('answer a kept answer to an anonymous GET by id, as yoga would', async () => {
    const { request, keep } = setUp();
    expect(await request(byId(1))).toBeUndefined(); // nothing kept: yoga answers
    await keep({ n: 1 });
    const hit = await request(byId(1), { accept: 'application/graphql-response+json' });
    expect(hit?.body.toString()).toBe(JSON.stringify(ANSWER));
    expect(hit?.headers).toEqual({
      'content-type': 'application/graphql-response+json; charset=utf-8',
      'content-length': String(JSON.stringify(ANSWER).length),
      etag: expect.stringMatching(/^[\w-]+\.[\w-]{16}$/), // the key and the answer's version
      'last-modified': 'Thu, 26 Nov 2026 03:00:00 GMT',
      'cache-control': 'public, max-age=0, s-maxage=10',
      vary: 'Authorization, Origin',
    });
    expect(await request(byId(2))).toBeUndefined(); // other variables: another question
  });

  it('leave to yoga a signed-in reader, another origin, a revalidation, text and unknown ids', async () => {
    const { request, keep } = setUp();
    await keep({ n: 1 });
    const others: Record<string, string>[] = [
      { authorization: 'Bearer t' },
      { origin: 'https://elsewhere.example' },
      { 'if-none-match': 'x' },
    ];
    for (const headers of others) expect(await request(byId(1), headers)).toBeUndefined();
    expect(await request({ ...byId(1), query: TEXT })).toBeUndefined();
    expect(
      await request({
        ...byId(1),
        extensions: JSON.stringify({ persistedQuery: { documentId: 'no' } }),
      }),
    ).toBeUndefined();
    expect(await request({ ...byId(1), variables: '{not json' })).toBeUndefined();
  });

  it('stop answering what an invalidation dropped', async () => {
    const { cache, request, keep } = setUp();
    await keep({ n: 1 });
    expect(await request(byId(1))).toBeDefined();
    await cache.invalidate([{ typename: 'Story', id: 's1' }]);
    expect(await request(byId(1))).toBeUndefined();
  });
});
