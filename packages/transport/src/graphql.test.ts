import { print } from '@0no-co/graphql.web';
import type { DocumentNode } from '@0no-co/graphql.web';
import { initGraphQLTada } from 'gql.tada';
import { graphql } from './graphql';
import type { ResultOf, VariablesOf } from './graphql';

// gql.tada's own runtime, for comparison.
const tada = initGraphQLTada<{ introspection: never; disableMasking: true }>() as unknown as (
  source: string,
  fragments?: unknown[],
) => DocumentNode;

describe('graphql', () => {
  it('builds the documents gql.tada builds: the operation, then each fragment once', () => {
    const fields = `fragment F on Comment{id body}`;
    const thread = `fragment T on Comment{...F replies(first:3){edges{node{...F}}}}`;
    const query = `query Q($id:ID!){comment(id:$id){...T parent{...F}}}`;
    const ours = graphql(query, [graphql(thread, [graphql(fields)]), graphql(fields)]);
    const oursF = graphql(fields);
    const oursQ = graphql(query, [graphql(thread, [oursF]), oursF]);
    const tadaF = tada(fields);
    const theirs = tada(query, [tada(thread, [tadaF]), tadaF]);
    expect(print(oursQ)).toBe(print(theirs));
    expect(oursQ.definitions.map((d) => ('name' in d ? d.name?.value : ''))).toEqual([
      'Q',
      'T',
      'F',
    ]);
    // Fragments are told apart by identity, as in gql.tada: two parses of one are two definitions.
    expect(ours.definitions).toHaveLength(theirs.definitions.length + 1);
  });

  it('types results and variables from the schema', () => {
    const probe = graphql(`query Probe($id:ID!){comment(id:$id){id replyCount}}`);
    const result: ResultOf<typeof probe> = { comment: { id: 'c1', replyCount: 2 } };
    const variables: VariablesOf<typeof probe> = { id: 'c1' };
    // @ts-expect-error replyCount is an Int in schema.graphql
    const wrong: ResultOf<typeof probe> = { comment: { id: 'c1', replyCount: 'two' } };
    expect([probe.definitions.length, result, variables, wrong]).toHaveLength(4);
  });
});
