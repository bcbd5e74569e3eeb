import { parseBearer } from './createYogaApp';
import { GRAPHQL_RESPONSE_TYPE } from './testing/createTestYoga';
import { createTestYoga, postGraphQL } from './testing/createTestYoga';

describe('GraphQL over HTTP (in process)', () => {
  it('answers a POSTed JSON query', async () => {
    const { yoga } = createTestYoga();
    const response = await postGraphQL(yoga, { query: '{ hello transport }' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { hello: 'world', transport: 'http' } });
  });

  it('answers a query sent with GET', async () => {
    const { yoga } = createTestYoga();
    const response = await yoga.fetch('http://test/graphql?query=%7Bhello%7D', {
      headers: { accept: 'application/json' },
    });
    expect(await response.json()).toEqual({ data: { hello: 'world' } });
  });

  it('refuses a mutation sent with GET: 405, Allow: POST', async () => {
    const { yoga } = createTestYoga();
    const query = encodeURIComponent('mutation { publishComment(storyId: "s", commentId: "c") }');
    const response = await yoga.fetch(`http://test/graphql?query=${query}`, {
      headers: { accept: GRAPHQL_RESPONSE_TYPE },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect((await response.json()).errors[0].extensions.code).toBe('INVALID_INPUT');
  });

  it('negotiates application/graphql-response+json', async () => {
    const { yoga } = createTestYoga();
    const response = await postGraphQL(
      yoga,
      { query: '{ hello }' },
      { accept: GRAPHQL_RESPONSE_TYPE },
    );
    expect(response.headers.get('content-type')).toContain(GRAPHQL_RESPONSE_TYPE);
  });

  it('answers application/json when the client asks for it', async () => {
    const { yoga } = createTestYoga();
    const response = await postGraphQL(yoga, { query: '{ hello }' });
    expect(response.headers.get('content-type')).toContain('application/json');
  });

  it('refuses an Accept it cannot produce with 406', async () => {
    const { yoga } = createTestYoga();
    const response = await postGraphQL(yoga, { query: '{ hello }' }, { accept: 'text/xml' });
    expect(response.status).toBe(406);
  });

  it('hands the bearer token to the context factory', async () => {
    const { yoga } = createTestYoga();
    const withToken = await postGraphQL(
      yoga,
      { query: '{ token }' },
      { authorization: 'Bearer abc.def' },
    );
    const without = await postGraphQL(yoga, { query: '{ token }' });
    expect((await withToken.json()).data.token).toBe('abc.def');
    expect((await without.json()).data.token).toBeNull();
  });
});

describe('parseBearer', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer  abc ', 'abc'],
    ['Basic abc', null],
    ['Bearer', null],
    ['Bearer a b', null],
    [undefined, null],
  ])('%j → %j', (header, token) => {
    expect(parseBearer(header)).toBe(token);
  });
});
