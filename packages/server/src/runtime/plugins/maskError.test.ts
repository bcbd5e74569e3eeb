import { GRAPHQL_RESPONSE_TYPE } from '../testing/createTestYoga';
import { SECRET_ERROR_TEXT } from '../testing/createTestSchema';
import { createTestYoga, postGraphQL } from '../testing/createTestYoga';

describe('error masking', () => {
  it('masks an unexpected resolver error as INTERNAL, without stack or secret, and logs it', async () => {
    const { yoga, logs } = createTestYoga();
    const response = await postGraphQL(yoga, { query: '{ hello unexpected }' });
    const text = await response.text();

    expect(JSON.parse(text)).toEqual({
      data: { hello: 'world', unexpected: null },
      errors: [
        {
          message: 'Unexpected error.',
          extensions: { code: 'INTERNAL' },
          locations: [{ line: 1, column: 9 }],
          path: ['unexpected'],
        },
      ],
    });
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('stack');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ level: 50, msg: 'Unexpected error' });
    expect(JSON.stringify(logs[0])).toContain(SECRET_ERROR_TEXT);
  });

  it('passes a ParleyError through with its code and details', async () => {
    const { yoga, logs } = createTestYoga();
    const body = await (await postGraphQL(yoga, { query: '{ forbidden }' })).json();
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: 'Moderators only.',
        extensions: { code: 'FORBIDDEN', field: 'role' },
      }),
    ]);
    expect(logs).toEqual([]);
  });

  it('passes a ParleyError thrown by the context factory (bad token) through', async () => {
    const { yoga } = createTestYoga();
    const body = await (
      await postGraphQL(yoga, { query: '{ hello }' }, { authorization: 'Bearer bad' })
    ).json();
    expect(body.errors[0]).toMatchObject({ extensions: { code: 'TOKEN_INVALID' } });
  });

  it('codes a syntax error INVALID_INPUT and answers 400 to graphql-response+json', async () => {
    const { yoga } = createTestYoga();
    const response = await postGraphQL(
      yoga,
      { query: '{ hello' },
      { accept: GRAPHQL_RESPONSE_TYPE },
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors[0].extensions.code).toBe('INVALID_INPUT');
    expect(body.errors[0].message).toMatch(/^Syntax Error/);
  });

  it('codes a validation error INVALID_INPUT', async () => {
    const { yoga, logs } = createTestYoga();
    const body = await (await postGraphQL(yoga, { query: '{ zzzz }' })).json();
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: 'Cannot query field "zzzz" on type "Query".',
        extensions: { code: 'INVALID_INPUT' },
      }),
    ]);
    expect(logs).toEqual([]);
  });

  it('codes a bad variable INVALID_INPUT', async () => {
    const { yoga } = createTestYoga();
    const body = await (
      await postGraphQL(yoga, {
        query: 'mutation ($s: ID!) { publishComment(storyId: $s, commentId: "c") }',
        variables: { s: { not: 'an id' } },
      })
    ).json();
    expect(body.errors[0].extensions.code).toBe('INVALID_INPUT');
  });

  it('codes invalid JSON INVALID_INPUT with status 400', async () => {
    const { yoga } = createTestYoga();
    const response = await yoga.fetch('http://test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: GRAPHQL_RESPONSE_TYPE },
      body: '{"query":',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0].extensions.code).toBe('INVALID_INPUT');
  });
});
