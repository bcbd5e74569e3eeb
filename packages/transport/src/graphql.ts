import { Kind, parse } from '@0no-co/graphql.web';
import type { DefinitionNode, DocumentNode } from '@0no-co/graphql.web';
import type { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env';

/** What gql.tada knows of Parley's schema: its types (`graphql-env.d.ts`) and scalars. */
type Setup = {
  introspection: introspection;
  // Fragments are not masked: the stream's cache updates and live events work on whole comment
  // objects, and a masked fragment would make every one of them unwrap it with `readFragment`.
  disableMasking: true;
  scalars: {
    DateTime: string;
    File: Blob;
  };
};

/**
 * The clients' one way to write a GraphQL document: `graphql('query … { … }', [fragments])`. Its
 * type is gql.tada's, so each document's result and variables are read from
 * `@parley/contract`'s `schema.graphql` at compile time (through `graphql-env.d.ts`, which
 * `npm run codegen` writes) and a wrong field or argument fails `npm run typecheck`.
 *
 * At run time it does what gql.tada's own `graphql()` does for these documents — parse the
 * literal and append the fragments' definitions, each once — without its other helpers (read
 * locations, `persisted`, `scalar`), which cost the stream's first render 0.3 KB; the test pins the
 * two to the same documents.
 */
export const graphql = function graphql(
  source: string,
  fragments: readonly DocumentNode[] = [],
): DocumentNode {
  const definitions: DefinitionNode[] = [...parse(source).definitions];
  for (const fragment of fragments)
    for (const definition of fragment.definitions)
      if (definition.kind === Kind.FRAGMENT_DEFINITION && !definitions.includes(definition))
        definitions.push(definition);
  return { kind: Kind.DOCUMENT, definitions };
} as unknown as ReturnType<typeof initGraphQLTada<Setup>>;

export type { FragmentOf, ResultOf, VariablesOf } from 'gql.tada';
export { documentId, documentText } from './lruCacheExchange';
