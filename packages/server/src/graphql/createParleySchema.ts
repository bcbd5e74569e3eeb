import { createSchema } from 'graphql-yoga';
import type { GraphQLSchema } from 'graphql';
import type { ParleyContext } from './context';
import { typeDefs } from './typeDefs';
import { resolverMaps } from './resolvers';
import { DateTime } from './scalars';

/** A map of type name → field resolvers, as graphql-tools takes them. */
export type Resolvers = Record<string, Record<string, unknown>>;

/** Merges resolver maps type by type; a field defined twice is a programming error. */
export function mergeResolvers(maps: readonly Resolvers[]): Resolvers {
  const merged: Resolvers = {};
  for (const map of maps) {
    for (const [type, fields] of Object.entries(map)) {
      const target = (merged[type] ??= {});
      for (const [field, resolver] of Object.entries(fields)) {
        if (field in target) throw new Error(`Resolver ${type}.${field} is defined twice.`);
        target[field] = resolver;
      }
    }
  }
  return merged;
}

/** The executable schema: the SDL contract with every resolver. */
export function createParleySchema(): GraphQLSchema {
  return createSchema<ParleyContext>({
    typeDefs,
    resolvers: { ...mergeResolvers(resolverMaps), DateTime },
  });
}
