import { isObjectType, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

/**
 * Replaces type-graphql's resolver of each plain `@Field` property by the executor's default field resolution.
 * Proven equal by test/unit/schema/fast-path-plain-fields.test.ts (fast-check); measured by `npm run bench --
 * facade` (README.md).
 *
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
