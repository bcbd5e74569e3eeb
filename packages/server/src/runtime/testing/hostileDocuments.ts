/**
 * GraphQL requests built to make a server work hard: each must be refused, with a coded error,
 * before it costs much. Shared by hostileDocuments.test.ts (each refused, coded) and
 * `bench/hostileDocuments.bench.ts` (the server's time per refusal). Test support only.
 */

/** One hostile request: its JSON body (an object, or an array for a batch). */
export interface HostileRequest {
  name: string;
  body: unknown;
}

const repeat = (times: number, part: (i: number) => string, separator = ' ') =>
  Array.from({ length: times }, (_, i) => part(i)).join(separator);

/** 50 levels of introspection types, each asking for the next. */
function nested(levels: number): string {
  let selection = 'name';
  for (let i = 0; i < levels; i++) selection = `fields { type { name ${selection} } }`;
  return `{ __type(name: "Query") { ${selection} } }`;
}

export const HOSTILE_REQUESTS: readonly HostileRequest[] = [
  { name: '1,000 aliases', body: { query: `{ ${repeat(1000, (i) => `a${i}: __typename`)} }` } },
  {
    name: 'a fragment cycle',
    body: {
      query: 'query { ...A } fragment A on Query { ...B } fragment B on Query { ...A __typename }',
    },
  },
  { name: '50-deep nesting', body: { query: nested(50) } },
  {
    name: 'a 1 MB document',
    body: { query: `{ ${repeat(75_000, () => '__typename')} }` },
  },
  {
    name: 'a 1 MB comment',
    body: { query: `# ${'x'.repeat(1_000_000)}\n{ __typename }` },
  },
  {
    name: 'a batch of 100 operations',
    body: Array.from({ length: 100 }, () => ({ query: '{ __typename }' })),
  },
  {
    name: '10,000 __typename',
    body: { query: `{ ${repeat(10_000, () => '__typename')} }` },
  },
  {
    name: '1,000 directives',
    body: { query: `{ __typename ${repeat(1000, () => '@include(if: true)')} }` },
  },
];
