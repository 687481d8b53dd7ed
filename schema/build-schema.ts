import 'reflect-metadata';
import { buildSchema, getMetadataStorage, type ContainerType } from 'type-graphql';
import { isObjectType, type GraphQLSchema } from 'graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import type { AppConfig } from '../src/platform/config.js';
import type { ApiKeyService, OrganizationService } from '../src/identity/index.js';
import { IdentityResolver } from '../src/identity/graphql.js';
import type {
  CrawlLoginService,
  CustomExtractorService,
  OrganizationUsageService,
  ProjectCountRegistry,
  ProjectService,
} from '../src/projects/index.js';
import {
  CrawlLoginResolver,
  CustomExtractorResolver,
  OrganizationUsageResolver,
  ProjectResolver,
} from '../src/projects/graphql.js';
import type { TechnicalService } from '../src/technical/index.js';
import { TechnicalResolver } from '../src/technical/graphql.js';
import type { ToolsService } from '../src/tools/index.js';
import { ToolsResolver } from '../src/tools/graphql.js';
import type { CheckSettingsService } from '../src/checks-catalog/index.js';
import { CheckCatalogResolver, CheckSettingsResolver } from '../src/checks-catalog/graphql.js';
import type { ClientReportService, ExportService, ReportService } from '../src/reports/index.js';
import { ReportResolver } from '../src/reports/graphql.js';
import type { FixService } from '../src/fixes/index.js';
import { FixResolver } from '../src/fixes/graphql.js';
import type { KeywordService } from '../src/keywords/index.js';
import { KeywordResolver } from '../src/keywords/graphql.js';
import type { CompetitorService } from '../src/competitors/index.js';
import { CompetitorResolver } from '../src/competitors/graphql.js';
import type { AlertService, WebhookService } from '../src/alerts/index.js';
import { AlertResolver } from '../src/alerts/graphql.js';
import type { ComparisonService } from '../src/comparison/index.js';
import { ComparisonResolver } from '../src/comparison/graphql.js';
import type { AuditPageService, AuditService, WontFixService } from '../src/audits/index.js';
import type { AuditScheduleService } from '../src/schedules/index.js';
import {
  AuditPageViewRankingResolver,
  AuditPageViewResolver,
  UrlTableResolver,
  SegmentResolver,
  AuditSegmentResolver,
  AuditResolver,
  IssueOccurrenceRankingResolver,
  IssueResolver,
  WontFixIssueResolver,
  WontFixOccurrenceResolver,
  WontFixResolver,
  KeywordRankingPageResolver,
  ProjectAuditFieldsResolver,
} from '../src/audits/graphql.js';
import { AuditScheduleResolver } from '../src/schedules/graphql.js';
import { assertStorableText } from '../src/platform/text-input.js';

/** The services the resolvers are made with: schema/domain-runtime.ts makes them, once per API process. */
export interface ResolverServices {
  config: AppConfig;
  apiKeys: ApiKeyService;
  organizations: OrganizationService;
  usage: OrganizationUsageService;
  projects: ProjectService;
  counts: ProjectCountRegistry;
  crawlLogins: CrawlLoginService;
  extractors: CustomExtractorService;
  audits: AuditService;
  pages: AuditPageService;
  wontFix: WontFixService;
  auditSchedules: AuditScheduleService;
  technical: TechnicalService;
  tools: ToolsService;
  checkSettings: CheckSettingsService;
  keywords: KeywordService;
  competitors: CompetitorService;
  alerts: AlertService;
  webhooks: WebhookService;
  comparison: ComparisonService;
  reports: ReportService;
  exports: ExportService;
  clientReports: ClientReportService;
  fixes: FixService;
}

/** A resolver class of the schema, and how an API process makes its one instance from the services. */
export interface ResolverEntry<T extends object = object> {
  type: abstract new (...args: never[]) => T;
  make(services: ResolverServices): T;
}

const resolver = <T extends object>(
  type: abstract new (...args: never[]) => T,
  make: (services: ResolverServices) => T,
): ResolverEntry<T> => ({ type, make });

/**
 * The one list of the schema's resolvers (a new resolver class is added here and nowhere else): the printed schema
 * reads the classes, the API process (domain-runtime.ts) makes each instance with its services.
 */
export const RESOLVERS: readonly ResolverEntry[] = [
  resolver(
    IdentityResolver,
    (s) => new IdentityResolver(s.apiKeys, s.organizations, { mailEnabled: Boolean(s.config.SMTP_URL) }),
  ),
  resolver(OrganizationUsageResolver, (s) => new OrganizationUsageResolver(s.usage)),
  resolver(ProjectResolver, (s) => new ProjectResolver(s.projects, s.counts)),
  resolver(AuditResolver, (s) => new AuditResolver(s.audits, s.pages)),
  resolver(AuditPageViewResolver, (s) => new AuditPageViewResolver(s.pages)),
  resolver(UrlTableResolver, (s) => new UrlTableResolver(s.config.authSecret)),
  resolver(SegmentResolver, () => new SegmentResolver()),
  resolver(AuditSegmentResolver, () => new AuditSegmentResolver()),
  resolver(IssueResolver, (s) => new IssueResolver(s.audits, s.pages)),
  resolver(WontFixResolver, (s) => new WontFixResolver(s.wontFix)),
  resolver(WontFixIssueResolver, (s) => new WontFixIssueResolver(s.wontFix)),
  resolver(WontFixOccurrenceResolver, (s) => new WontFixOccurrenceResolver(s.wontFix)),
  resolver(ProjectAuditFieldsResolver, () => new ProjectAuditFieldsResolver()),
  resolver(KeywordRankingPageResolver, () => new KeywordRankingPageResolver()),
  resolver(IssueOccurrenceRankingResolver, () => new IssueOccurrenceRankingResolver()),
  resolver(AuditPageViewRankingResolver, () => new AuditPageViewRankingResolver()),
  resolver(AuditScheduleResolver, (s) => new AuditScheduleResolver(s.auditSchedules)),
  resolver(TechnicalResolver, (s) => new TechnicalResolver(s.technical)),
  resolver(ToolsResolver, (s) => new ToolsResolver(s.tools)),
  resolver(CheckCatalogResolver, () => new CheckCatalogResolver()),
  resolver(CheckSettingsResolver, (s) => new CheckSettingsResolver(s.checkSettings)),
  resolver(KeywordResolver, (s) => new KeywordResolver(s.keywords)),
  resolver(CompetitorResolver, (s) => new CompetitorResolver(s.competitors)),
  resolver(AlertResolver, (s) => new AlertResolver(s.alerts, s.webhooks)),
  resolver(ComparisonResolver, (s) => new ComparisonResolver(s.comparison)),
  resolver(CrawlLoginResolver, (s) => new CrawlLoginResolver(s.crawlLogins)),
  resolver(CustomExtractorResolver, (s) => new CustomExtractorResolver(s.extractors)),
  resolver(ReportResolver, (s) => new ReportResolver(s.reports, s.exports, s.clientReports)),
  resolver(FixResolver, (s) => new FixResolver(s.fixes)),
];

/** type-graphql's container of an API process: each resolver class answered with its one instance. */
export function resolverContainer(services: ResolverServices): ContainerType {
  const instances = new Map<unknown, object>(RESOLVERS.map((entry) => [entry.type, entry.make(services)]));
  return {
    get: (cls: unknown) => {
      const instance = instances.get(cls);
      if (!instance) throw new Error(`No resolver instance registered for ${(cls as { name?: string }).name}`);
      return instance;
    },
  };
}

/**
 * The one place the schema is assembled. `container` supplies resolver instances with their services
 * (resolverContainer); printing the SDL needs no container (resolvers are only instantiated to resolve).
 */
export async function buildDomainSchema(container?: ContainerType): Promise<GraphQLSchema> {
  useSimpleResolvers();
  const [first, ...rest] = RESOLVERS.map((entry) => entry.type);
  if (!first) throw new Error('The schema has no resolver');
  const schema = await buildSchema({
    resolvers: [first, ...rest],
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
