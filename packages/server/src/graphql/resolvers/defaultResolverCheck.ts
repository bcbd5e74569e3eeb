/**
 * A compile-time check of the fields that no resolver map resolves. graphql-js answers those with
 * the parent's property of the same name (its default resolver), and the generated `Resolvers`
 * type checks only the resolvers written: a store row whose `replyCount` is a number would keep
 * serving a schema that says `String!`. Here each such property must fit its field's type (an
 * absent one counts as undefined), so `tsc` names every field that does not.
 */
import type { GraphQLScalarType } from 'graphql';
import type { RESOLVER_MAPS } from './index';
import type { Resolvers, ResolversParentTypes } from './resolverTypes.generated';

/** The fields of `Type` that map `Map` resolves; distributes over a union of maps. */
type ResolvedIn<Map, Type extends PropertyKey> = Map extends { readonly [K in Type]: infer Fields }
  ? keyof Fields
  : never;

/** The object types (the resolver types that are not scalars). */
type ObjectType = {
  [T in keyof Resolvers]-?: NonNullable<Resolvers[T]> extends GraphQLScalarType ? never : T;
}[keyof Resolvers];

/** `Type`'s field resolver types. */
type FieldsOf<Type extends ObjectType> = NonNullable<Resolvers[Type]>;

/** What the default resolvers of `Type` read from: a root type has no parent object. */
type ParentOf<Type extends ObjectType> = Type extends 'Query' | 'Mutation' | 'Subscription'
  ? object
  : ResolversParentTypes[Type];

/** What a resolver of `Field` must answer. */
type Wanted<Fields, Field extends keyof Fields> = Awaited<
  ReturnType<Extract<NonNullable<Fields[Field]>, (...args: never[]) => unknown>>
>;

/** What the default resolver answers for `Field`: the parent's property, else undefined. */
type Read<Parent, Field> = Field extends keyof Parent ? Parent[Field] : undefined;

/** `Type`'s fields that no resolver map resolves. */
type DefaultResolved<Type extends ObjectType> = Exclude<
  keyof FieldsOf<Type>,
  ResolvedIn<(typeof RESOLVER_MAPS)[number], Type>
>;

/** `Type`'s default-resolved fields whose value does not fit, as `Type.field`. */
type Misfits<Type extends ObjectType> = {
  [Field in DefaultResolved<Type>]-?: Read<ParentOf<Type>, Field> extends Wanted<
    FieldsOf<Type>,
    Field
  >
    ? never
    : `${Type}.${Field & string}`;
}[DefaultResolved<Type>];

/** Compiles only when `Misfit` is never; otherwise the error names each misfit field. */
type NoMisfits<Misfit extends never> = Misfit;

/** Every field answered by the default resolver, in every object type, fits the schema. */
export type DefaultResolverCheck = NoMisfits<{ [T in ObjectType]: Misfits<T> }[ObjectType]>;
