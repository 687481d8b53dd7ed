import 'reflect-metadata';
import { buildSchema, type ContainerType } from 'type-graphql';
import { isObjectType, type GraphQLSchema } from 'graphql';
import { DIRECT_RESOLVERS, hasDirectResolvers } from '../src/platform/direct-resolvers.js';
import { IdentityResolver } from '../src/identity/index.js';
import { ProjectCountsResolver, ProjectResolver } from '../src/projects/index.js';
import { TechnicalResolver } from '../src/technical/index.js';
import { ToolsResolver } from '../src/tools/index.js';
import { ReportResolver } from '../src/reports/index.js';
import { FixResolver } from '../src/fixes/index.js';
import { KeywordResolver } from '../src/keywords/index.js';
import { CompetitorResolver } from '../src/competitors/index.js';
import { AuditResolver, IssueResolver, ProjectAuditFieldsResolver } from '../src/audits/index.js';
import { DateTimeISO } from '../src/platform/graphql-scalars.js';

export const RESOLVERS = [
  IdentityResolver,
  ProjectResolver,
  ProjectCountsResolver,
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
  if (container) installDirectResolvers(schema, RESOLVERS.map((cls) => container.get(cls, undefined as never)));
  return schema;
}

/** Hot per-row fields resolved without type-graphql's per-call wrapper (see src/platform/direct-resolvers.ts). */
export function installDirectResolvers(schema: GraphQLSchema, resolverInstances: unknown[]): void {
  for (const instance of resolverInstances) {
    if (!hasDirectResolvers(instance)) continue;
    for (const [coordinate, resolve] of Object.entries(instance[DIRECT_RESOLVERS]())) {
      const [typeName, fieldName] = coordinate.split('.');
      const type = schema.getType(typeName);
      const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
      if (!field?.resolve) throw new Error(`${instance.constructor.name}: direct resolver for ${coordinate}, which has no @FieldResolver`);
      field.resolve = resolve;
    }
  }
}
