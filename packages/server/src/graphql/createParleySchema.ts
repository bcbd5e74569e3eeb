import { createSchema } from 'graphql-yoga';
import type { GraphQLSchema } from 'graphql';
import type { ParleyContext } from './context';
import { typeDefs } from './typeDefs';
import { resolverMaps } from './resolvers';
import type { Resolvers } from './resolvers/resolverTypes.generated';
import { DateTime } from './scalars';
import { requireTokenMayCall } from './apiTokenAccess';
import { requireGuestMayCall } from './guestAccess';

/** Resolver maps merged into one, as graphql-tools takes it: type name → field → resolver. */
type MergedResolvers = Record<string, Record<string, unknown>>;

/**
 * Merges resolver maps type by type; a field defined twice is a programming error. Object types
 * only: a scalar (a `GraphQLScalarType`, not a map of fields) goes beside the result.
 */
export function mergeResolvers(maps: readonly Resolvers[]): MergedResolvers {
  const merged: MergedResolvers = {};
  for (const map of maps) {
    for (const [type, fields] of Object.entries<object | undefined>(map)) {
      const target = (merged[type] ??= {});
      for (const [field, resolver] of Object.entries(fields ?? {})) {
        if (field in target) throw new Error(`Resolver ${type}.${field} is defined twice.`);
        target[field] = resolver;
      }
    }
  }
  return merged;
}

type FieldResolver = (root: unknown, args: unknown, ctx: ParleyContext, info: unknown) => unknown;

/**
 * Every mutation behind the API-token check (apiTokenAccess.ts) and the guests' (guestAccess.ts):
 * a request made with a token calls only what the token's scope allows, a guest only what guests
 * may, whatever the resolver itself checks.
 */
export function guardMutations(mutations: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(mutations).map(([field, resolve]) => [
      field,
      ((root, args, ctx, info) => {
        requireTokenMayCall(ctx.apiToken, field);
        requireGuestMayCall(ctx.viewer, field);
        return (resolve as FieldResolver)(root, args, ctx, info);
      }) satisfies FieldResolver,
    ]),
  );
}

/** The executable schema: the SDL contract with every resolver. */
export function createParleySchema(): GraphQLSchema {
  const merged = mergeResolvers(resolverMaps);
  return createSchema<ParleyContext>({
    typeDefs,
    resolvers: { ...merged, Mutation: guardMutations(merged.Mutation ?? {}), DateTime },
  });
}
