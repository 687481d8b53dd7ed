import 'reflect-metadata';
import { buildSchema, type ContainerType } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import { IdentityResolver } from '../src/identity/index.js';
import { ProjectCountsResolver, ProjectResolver } from '../src/projects/index.js';
import { TechnicalResolver } from '../src/technical/index.js';
import { ToolsResolver } from '../src/tools/index.js';
import { ReportResolver } from '../src/reports/index.js';
import { FixResolver } from '../src/fixes/index.js';
import { KeywordResolver } from '../src/keywords/index.js';
import { CompetitorResolver } from '../src/competitors/index.js';
import { AuditResolver, IssueResolver, ProjectAuditFieldsResolver } from '../src/audits/index.js';

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
  return buildSchema({
    resolvers: [...RESOLVERS],
    container,
    validate: false,
    emitSchemaFile: false,
  });
}
