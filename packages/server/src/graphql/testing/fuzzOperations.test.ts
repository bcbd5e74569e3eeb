import { buildSchema } from 'graphql';
import { documentFor, fuzzOperations, judge } from './fuzzOperations';

describe('the fuzzer', () => {
  it('passes only data and coded errors of the contract', () => {
    expect(judge(200, { data: { a: 1 } })).toEqual({ ok: true, codes: [] });
    expect(judge(200, { errors: [{ extensions: { code: 'INVALID_INPUT' } }] }).ok).toBe(true);
    expect(judge(200, { errors: [{ extensions: { code: 'INTERNAL' } }] }).ok).toBe(false);
    expect(judge(200, { errors: [{ message: 'no code' }] })).toEqual({
      ok: false,
      codes: ['UNCODED'],
    });
    expect(judge(200, { errors: [{ extensions: { code: 'MADE_UP' } }] }).ok).toBe(false);
    expect(judge(502, { data: null }).ok).toBe(false);
    expect(judge(200, null).ok).toBe(false);
  });

  it('calls each field with its arguments as variables, and reports what broke the rules', async () => {
    const schema = buildSchema(`
      type Query { hello(name: String!, times: Int): String! }
      type Mutation { save(input: SaveInput!): Saved }
      input SaveInput { title: String!, tags: [String!] }
      type Saved { id: ID! }
    `);
    const [hello, save] = [schema.getQueryType()!, schema.getMutationType()!].map(
      (type) => Object.values(type.getFields())[0]!,
    );
    expect(documentFor('query', hello!)).toBe(
      'query Fuzz($name: String!, $times: Int) { hello(name: $name, times: $times) }',
    );
    expect(documentFor('mutation', save!)).toBe(
      'mutation Fuzz($input: SaveInput!) { save(input: $input) { __typename } }',
    );
    const sent: Record<string, unknown>[] = [];
    const report = await fuzzOperations({
      schema,
      context: { known: ['known-id'] },
      viewers: 2,
      seed: 7,
      runs: 25,
      send: async (document, variables) => {
        sent.push(variables);
        // A server that breaks whenever `save` gets a title: the fuzzer must say so.
        const broken =
          document.startsWith('mutation') &&
          typeof (variables['input'] as { title?: unknown } | null)?.title === 'string';
        return broken
          ? { status: 200, body: { errors: [{ extensions: { code: 'INTERNAL' } }] } }
          : { status: 200, body: { data: {} } };
      },
    });
    expect(report.calls).toBe(50);
    expect(report.failures.length).toBeGreaterThan(0);
    expect(report.failures[0]).toMatchObject({ field: 'save', codes: ['INTERNAL'] });
    // Known ids and hostile values are among what was sent.
    const values = JSON.stringify(sent);
    expect(values).toContain('known-id');
  });
});
