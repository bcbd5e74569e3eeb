import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env';

/**
 * The clients' one way to write a GraphQL document: `graphql('query … { … }', [fragments])` returns a
 * document whose result and variables types gql.tada reads from `@parley/contract`'s
 * `schema.graphql` at compile time (through `graphql-env.d.ts`, which `npm run codegen` writes).
 * At run time it is a parse of the literal, as urql's `gql` did.
 *
 * Fragments are not masked: the stream's cache updates and live events work on whole comment
 * objects, and a masked fragment would make every one of them unwrap it with `readFragment`.
 */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  disableMasking: true;
  scalars: {
    DateTime: string;
    File: Blob;
  };
}>();

export type { FragmentOf, ResultOf, VariablesOf } from 'gql.tada';
