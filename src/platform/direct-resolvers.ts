import type { GraphQLFieldResolver } from 'graphql';
import type { RequestContext } from './context.js';

/**
 * type-graphql calls every field resolver through a generic wrapper: a resolver-data object, the parameter
 * list sorted and rebuilt, the root copied into a class instance when it is not one, middleware dispatch.
 * For a field resolved once per row of a list, or a list query on every request, that wrapper costs more
 * than the resolver itself. A resolver class may name such fields (`'Type.field'`) under this key;
 * build-schema installs them as plain resolve functions. They must call the same method the class declares
 * with @FieldResolver, @Query or @Mutation, so the schema (types, nullability, descriptions, arguments) still
 * comes from the decorators and both paths give the same answer.
 */
export const DIRECT_RESOLVERS = Symbol('directResolvers');

export type DirectFieldResolver = GraphQLFieldResolver<any, RequestContext>;

export interface HasDirectResolvers {
  [DIRECT_RESOLVERS](): Record<string, DirectFieldResolver>;
}

export const hasDirectResolvers = (value: unknown): value is HasDirectResolvers =>
  typeof value === 'object' && value !== null && typeof (value as Partial<HasDirectResolvers>)[DIRECT_RESOLVERS] === 'function';
