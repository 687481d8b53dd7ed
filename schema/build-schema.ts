import 'reflect-metadata';
import { buildSchema, getMetadataStorage, type ContainerType } from 'type-graphql';
import { isObjectType, type GraphQLSchema } from 'graphql';
import { DIRECT_RESOLVERS, hasDirectResolvers } from '../src/platform/direct-resolvers.js';
import { IdentityResolver } from '../src/identity/graphql.js';
import { OrganizationUsageResolver, ProjectResolver } from '../src/projects/graphql.js';
import { TechnicalResolver } from '../src/technical/graphql.js';
import { ToolsResolver } from '../src/tools/graphql.js';
import { ReportResolver } from '../src/reports/graphql.js';
import { FixResolver } from '../src/fixes/graphql.js';
import { KeywordResolver } from '../src/keywords/graphql.js';
import { CompetitorResolver } from '../src/competitors/graphql.js';
import { AuditResolver, IssueResolver, ProjectAuditFieldsResolver } from '../src/audits/graphql.js';
import { DateTimeISO } from '../src/platform/graphql-scalars.js';
import { assertStorableText } from '../src/platform/text-input.js';

export const RESOLVERS = [
  IdentityResolver,
  OrganizationUsageResolver,
  ProjectResolver,
  AuditResolver,
  IssueResolver,
  ProjectAuditFieldsResolver,
  TechnicalResolver,
  ToolsResolver,
  KeywordResolver,
  CompetitorResolver,
  ReportResolver,
  FixResolver,
] as const;

/**
 * The one place the schema is assembled. `container` supplies resolver instances with their services;
 * printing the SDL needs no container (resolvers are only instantiated to resolve).
 */
export async function buildDomainSchema(container?: ContainerType): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers: [...RESOLVERS],
    container,
    validate: false,
    emitSchemaFile: false,
    scalarsMap: [{ type: Date, scalar: DateTimeISO }],
  });
  removePlainFieldResolvers(schema);
  if (container) installDirectResolvers(schema, RESOLVERS.map((cls) => container.get(cls, undefined as never)));
  guardTextArguments(schema);
  return schema;
}

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

/** Hot fields resolved without type-graphql's per-call wrapper (see src/platform/direct-resolvers.ts). */
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

/** Every field that takes arguments refuses text PostgreSQL cannot store (NUL, lone surrogates) before its resolver runs (src/platform/text-input.ts). */
export function guardTextArguments(schema: GraphQLSchema): number {
  let guarded = 0;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (!resolve || !field.args.length) continue;
      field.resolve = (root, args: Record<string, unknown>, context, info) => {
        assertStorableText(args);
        return resolve(root, args, context, info);
      };
      guarded++;
    }
  }
  return guarded;
}
