import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import type { RequestContext } from '../context.js';

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

/**
 * type-graphql gives every plain `@Field` property a resolver of its own that runs the (here empty) middleware
 * chain and returns `root[property]`. Executors must then treat each such field as a resolver call: for a list
 * of 20 projects with 7 fields, 140 calls with their resolve info and result handling, where graphql-jit would
 * otherwise read the property inline. Without middlewares, auth roles or a renamed property those resolvers
 * are the default field resolution, so they are removed. Fields declared with @FieldResolver keep theirs.
 */
export function removePlainFieldResolvers(schema: GraphQLSchema): number {
  const storage = getMetadataStorage();
  let removed = 0;
  for (const objectType of storage.objectTypes) {
    const type = schema.getType(objectType.name);
    if (!isObjectType(type)) continue;
    const fields = type.getFields();
    for (const field of objectType.fields ?? []) {
      const definition = fields[field.schemaName];
      if (!definition?.resolve || field.name !== field.schemaName || field.middlewares?.length || field.roles?.length) continue;
      const owners: unknown[] = [field.target, objectType.target];
      const resolvedByMethod = storage.fieldResolvers.some((r) => r.methodName === field.name && owners.includes(r.getObjectType?.()));
      if (resolvedByMethod) continue;
      definition.resolve = undefined;
      removed++;
    }
  }
  return removed;
}

/** Hot fields resolved without type-graphql's per-call wrapper (DIRECT_RESOLVERS above). */
export function installDirectResolvers(schema: GraphQLSchema, resolverInstances: unknown[]): void {
  for (const instance of resolverInstances) {
    if (!hasDirectResolvers(instance)) continue;
    for (const [coordinate, resolve] of Object.entries(instance[DIRECT_RESOLVERS]())) {
      const [typeName, fieldName] = coordinate.split('.');
      const type = schema.getType(typeName);
      const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
      if (!field?.resolve) throw new Error(`${instance.constructor.name}: direct resolver for ${coordinate}, which has no resolver method`);
      field.resolve = resolve;
    }
  }
}
