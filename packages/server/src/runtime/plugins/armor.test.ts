import { createTestYoga, postGraphQL } from '../testing/createTestYoga';
import { FIELD_SUGGESTION_MASK, MAX_ALIASES, MAX_DEPTH } from './armor';

/** `{ node { child { … { value } } } }`: `depth` fields from `node` down to `value`. */
function nested(depth: number): string {
  let selection = 'value';
  for (let level = 2; level < depth; level++) selection = `child { ${selection} }`;
  return `{ node { ${selection} } }`;
}

/** {@link nested} with every level's selection in a fragment of its own: `{ node { ...L2 } } …`. */
function nestedInFragments(depth: number): string {
  const fragments = [`fragment L${depth} on Node { value }`];
  for (let level = depth - 1; level >= 2; level--)
    fragments.push(`fragment L${level} on Node { child { ...L${level + 1} } }`);
  return `{ node { ...L2 } } ${fragments.join(' ')}`;
}

describe('graphql-armor limits', () => {
  it(`accepts a query ${MAX_DEPTH} fields deep`, async () => {
    const { yoga } = createTestYoga();
    const body = await (await postGraphQL(yoga, { query: nested(MAX_DEPTH) })).json();
    expect(body.errors).toBeUndefined();
    expect(JSON.stringify(body.data)).toContain(`"value":${MAX_DEPTH - 1}`);
  });

  it(`rejects a query ${MAX_DEPTH + 1} fields deep with INVALID_INPUT, naming the limit`, async () => {
    const { yoga, logs } = createTestYoga();
    const body = await (await postGraphQL(yoga, { query: nested(MAX_DEPTH + 1) })).json();
    expect(body.data).toBeUndefined();
    expect(body.errors[0].extensions).toEqual({ code: 'INVALID_INPUT' });
    expect(body.errors[0].message).toMatch(/depth limit/i);
    expect(logs).toEqual([]);
  });

  it('counts a selection in fragments as its fields: no extra depth or cost per spread', async () => {
    const { yoga } = createTestYoga();
    const accepted = await (
      await postGraphQL(yoga, { query: nestedInFragments(MAX_DEPTH) })
    ).json();
    expect(accepted.errors).toBeUndefined();
    expect(JSON.stringify(accepted.data)).toContain(`"value":${MAX_DEPTH - 1}`);
    const refused = await (
      await postGraphQL(yoga, { query: nestedInFragments(MAX_DEPTH + 1) })
    ).json();
    expect(refused.errors[0].message).toMatch(/depth limit/i);
  });

  it(`rejects more than ${MAX_ALIASES} aliases with INVALID_INPUT`, async () => {
    const { yoga } = createTestYoga();
    const aliases = Array.from({ length: MAX_ALIASES + 1 }, (_, i) => `a${i}: hello`).join(' ');
    const body = await (await postGraphQL(yoga, { query: `{ ${aliases} }` })).json();
    expect(body.errors[0].extensions).toEqual({ code: 'INVALID_INPUT' });
    expect(body.errors[0].message).toMatch(/aliases/i);
  });

  it('rejects a document over the token limit with INVALID_INPUT', async () => {
    const { yoga } = createTestYoga();
    const fields = Array.from({ length: 2500 }, () => 'hello').join(' ');
    const body = await (await postGraphQL(yoga, { query: `{ ${fields} }` })).json();
    expect(body.errors[0].extensions).toEqual({ code: 'INVALID_INPUT' });
    expect(body.errors[0].message).toMatch(/token/i);
  });

  it('hides field suggestions in production only', async () => {
    const development = createTestYoga();
    // A production server that lets its own clients send text (GRAPHQL_ALLOW_ARBITRARY=true).
    const production = createTestYoga({
      production: true,
      trustedDocuments: { documents: new Map(), allowArbitrary: true },
    });
    const query = { query: '{ hell }' };
    const devBody = await (await postGraphQL(development.yoga, query)).json();
    const prodBody = await (await postGraphQL(production.yoga, query)).json();
    expect(devBody.errors[0].message).toContain('Did you mean "hello"?');
    expect(prodBody.errors[0].message).not.toContain('hello');
    expect(prodBody.errors[0].message).toContain(FIELD_SUGGESTION_MASK);
    expect(prodBody.errors[0].extensions).toEqual({ code: 'INVALID_INPUT' });
  });
});
