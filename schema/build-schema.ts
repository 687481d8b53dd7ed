import 'reflect-metadata';
import { buildSchema, getMetadataStorage, type ContainerType } from 'type-graphql';
import { isObjectType, type GraphQLSchema } from 'graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { IdentityResolver } from '../src/identity/graphql.js';
import { OrganizationUsageResolver, ProjectResolver } from '../src/projects/graphql.js';
import { TechnicalResolver } from '../src/technical/graphql.js';
import { ToolsResolver } from '../src/tools/graphql.js';
import { CheckCatalogResolver, CheckSettingsResolver } from '../src/checks-catalog/graphql.js';
import { ReportResolver } from '../src/reports/graphql.js';
import { FixResolver } from '../src/fixes/graphql.js';
import { KeywordResolver } from '../src/keywords/graphql.js';
import { CompetitorResolver } from '../src/competitors/graphql.js';
import { AlertResolver } from '../src/alerts/graphql.js';
import { ComparisonResolver } from '../src/comparison/graphql.js';
import { CrawlLoginResolver } from '../src/crawler/graphql.js';
import {
  AuditPageViewRankingResolver,
  AuditPageViewResolver,
  AuditResolver,
  AuditScheduleResolver,
  IssueOccurrenceRankingResolver,
  IssueResolver,
  KeywordRankingPageResolver,
  ProjectAuditFieldsResolver,
} from '../src/audits/graphql.js';
import { assertStorableText } from '../src/platform/text-input.js';

export const RESOLVERS = [
  IdentityResolver,
  OrganizationUsageResolver,
  ProjectResolver,
  AuditResolver,
  AuditPageViewResolver,
  IssueResolver,
  ProjectAuditFieldsResolver,
  KeywordRankingPageResolver,
  IssueOccurrenceRankingResolver,
  AuditPageViewRankingResolver,
  AuditScheduleResolver,
  TechnicalResolver,
  ToolsResolver,
  CheckCatalogResolver,
  CheckSettingsResolver,
  KeywordResolver,
  CompetitorResolver,
  AlertResolver,
  ComparisonResolver,
  CrawlLoginResolver,
  ReportResolver,
  FixResolver,
] as const;

/**
 * The one place the schema is assembled. `container` supplies resolver instances with their services;
 * printing the SDL needs no container (resolvers are only instantiated to resolve).
 */
export async function buildDomainSchema(container?: ContainerType): Promise<GraphQLSchema> {
  useSimpleResolvers();
  const schema = await buildSchema({
    resolvers: [...RESOLVERS],
    container,
    validate: false,
    emitSchemaFile: false,
    scalarsMap: [{ type: Date, scalar: GraphQLDateTimeISO }],
  });
  guardTextArguments(schema);
  return schema;
}

/**
 * type-graphql's `simpleResolvers` for every object type: a plain `@Field` property gets no resolver of its own, so it
 * is read as graphql-js' default resolver reads it (`source[fieldName]`), and graphql-jit compiles that read inline.
 * Without it, type-graphql gives each plain field a resolver that runs the middleware stack around `root[property]`:
 * 80 calls for a list of 20 projects, about 30 µs of CPU per `GET /api/v1/projects` (measured: facade bench, and a CPU
 * profile of the route under load, 320 → 289 µs per request). The option only skips middlewares and the auth checker,
 * and this schema uses neither (buildSchema below passes no `globalMiddlewares` or `authChecker`; no field is
 * `@UseMiddleware` or `@Authorized`: access is checked in the services). Field resolvers (`@FieldResolver`) are not
 * affected. A type that needs its own middleware can still opt out with `@ObjectType({ simpleResolvers: false })`.
 */
function useSimpleResolvers(): void {
  for (const type of getMetadataStorage().objectTypes) type.simpleResolvers ??= true;
}

/**
 * Every field that takes arguments refuses text PostgreSQL cannot store (NUL, lone surrogates) before its resolver runs
 * (src/platform/text-input.ts).
 */
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
