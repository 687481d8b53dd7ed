import 'reflect-metadata';
import type pg from 'pg';
import type { GraphQLSchema } from 'graphql';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../src/platform/config.js';
import type { Channel, Principal, RequestContext } from '../src/platform/context.js';
import { ApiRequestContext } from '../src/platform/context.js';
import { createOrm, type MikroORM } from '../src/platform/db/orm.js';
import { MIGRATIONS } from '../src/platform/db/migrations/index.js';
import type { Logger } from '../src/platform/logger.js';
import { createRedis, redisTimeoutsOf, type Redis } from '../src/platform/redis.js';
import { DependencyMonitor } from '../src/platform/dependency-monitor.js';
import { isInfrastructureFailure } from '../src/platform/infra-errors.js';
import { ClusterMetrics, checkReadiness, type Readiness } from '../src/platform/cluster-metrics.js';
import { nativePoolOf } from '../src/platform/db/native-query.js';
import { pingDatabase } from '../src/platform/db/health.js';
import { ENTITIES } from '../src/entities.js';
import {
  ApiKeyService,
  OrganizationService,
  PrincipalResolver,
  HOUR_MS,
  RATE_LIMITS,
  RateLimiter,
  createAuth,
  type Auth,
  type RateLimitResult,
} from '../src/identity/index.js';
import { IdentityResolver } from '../src/identity/graphql.js';
import { OrganizationUsageService, ProjectCountRegistry, ProjectService } from '../src/projects/index.js';
import { OrganizationUsageResolver, ProjectResolver } from '../src/projects/graphql.js';
import {
  AuditPageService,
  AuditScheduleService,
  AuditService,
  AUDIT_COUNT_SOURCE,
  countAuditsByStatus,
  type AuditJobData,
  type ScheduledAuditJobData,
} from '../src/audits/index.js';
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
import { QUEUES, createQueue, type Queue } from '../src/platform/queues.js';
import { TechnicalService } from '../src/technical/index.js';
import { TechnicalResolver } from '../src/technical/graphql.js';
import { ToolsService } from '../src/tools/index.js';
import { ToolsResolver } from '../src/tools/graphql.js';
import {
  KEYWORD_COUNT_SOURCE,
  KeywordService,
  unscheduleDailyRankCheck,
  type RankJobData,
} from '../src/keywords/index.js';
import { KeywordResolver } from '../src/keywords/graphql.js';
import { COMPETITOR_COUNT_SOURCE, CompetitorService, type CompetitorJobData } from '../src/competitors/index.js';
import { CompetitorResolver } from '../src/competitors/graphql.js';
import { AlertService, WebhookService, type AlertJobData } from '../src/alerts/index.js';
import { AlertResolver } from '../src/alerts/graphql.js';
import { ComparisonService } from '../src/comparison/index.js';
import { ComparisonResolver } from '../src/comparison/graphql.js';
import { CrawlLoginService } from '../src/crawler/index.js';
import { CrawlLoginResolver } from '../src/crawler/graphql.js';
import { ClientReportService, ExportService, ReportService, createReportPdfRenderer } from '../src/reports/index.js';
import { ReportResolver } from '../src/reports/graphql.js';
import { FixService } from '../src/fixes/index.js';
import { FixResolver } from '../src/fixes/graphql.js';
import { createLlmClient } from '../src/llm/index.js';
import { createConfiguredSafeHttpClient } from '../src/platform/safe-http/index.js';
import { buildDomainSchema } from './build-schema.js';
import { CheckCatalogResolver, CheckSettingsResolver } from '../src/checks-catalog/graphql.js';
import { CheckSettingsService } from '../src/projects/index.js';
import { SharedMetrics, meteredFetch } from '../src/platform/shared-metrics.js';
import { fastPaths, type FastPathSwitches } from '../src/platform/fast-path/switches.js';
import { ConcurrencyGate } from '../src/platform/concurrency-gate.js';

/** better-auth requests handled at once by one API process (fewer than the pool's 10 connections). */
const AUTH_CONCURRENCY = 4;

/** How a transport identified the caller, before any domain rule applies. */
export interface Credentials {
  bearer?: string | null;
  /** A session cookie: the request's Cookie header, and its headers for better-auth when it has to decide. */
  session?: { cookie: string; headers: () => Headers };
}

/**
 * What the transports (facades/) are handed: the schema and request contexts, how a caller is identified and
 * rate-limited, better-auth's handler, readiness and the cluster metrics. No connection, ORM or service: a facade
 * maps a request onto these and nothing else (each facade module takes a `Pick` of it naming what it uses).
 */
export interface DomainApi {
  config: AppConfig;
  logger: Logger;
  schema: GraphQLSchema;
  createContext(input: { principal: Principal | null; requestId: string; ip?: string }): RequestContext;
  authenticate(creds: Credentials, channel: Channel): Promise<Principal | null>;
  rateLimit(bucket: string, limit: number): Promise<RateLimitResult>;
  peekRateLimit(bucket: string, limit: number): Promise<RateLimitResult>;
  /**
   * A principal's bucket and limit: keys count against their organization's Surface A allowance, sessions on REST
   * against its Surface B allowance (spec §8); sessions on /graphql are the first-party web app, limited per user.
   */
  rateLimitFor(principal: Principal): { bucket: string; limit: number };
  /** The web app's per-user budget (session on /graphql and /api/auth): APP_RATE_PER_MINUTE. */
  appRateFor(userId: string): { bucket: string; limit: number };
  /** Counts one sign-up from a client IP (SIGNUPS_PER_IP_PER_HOUR, hourly window). */
  signUpRate(ip: string): Promise<RateLimitResult>;
  anonymousRate: number;
  /** Whether PostgreSQL and Redis are reachable; logs one line per change. Transports call check() on a 503. */
  dependencies: DependencyMonitor;
  /** better-auth's own routes (`/api/auth/*`), answered in better-auth's shape. */
  handleAuth(request: Request): Promise<Response>;
  /** PostgreSQL, Redis and the migrations of this build (`/ready`). */
  readiness(): Promise<Readiness>;
  /** The deployment's metrics read at scrape time (`/metrics`); the caller closes it. */
  createClusterMetrics(): ClusterMetrics;
  /** Which request-path shortcuts of src/platform/fast-path/ run (all in production). */
  fastPaths: Readonly<FastPathSwitches>;
  close(): Promise<void>;
}

/**
 * The API process's runtime: the transports' DomainApi plus its connections and auth instance, which only the
 * process entry, tests and benchmarks touch.
 */
export interface DomainRuntime extends DomainApi {
  orm: MikroORM;
  redis: Redis;
  pool: pg.Pool;
  auth: Auth;
  /**
   * The same runtime (connections, services, schema) with shortcuts of src/platform/fast-path/ switched off: its
   * own principal resolver. For the facade bench and the equivalence tests; closing it closes nothing.
   */
  withFastPaths(overrides: Partial<FastPathSwitches>): Promise<DomainRuntime>;
}

export async function createDomainRuntime(
  config: AppConfig,
  logger: Logger,
  options: {
    onQuery?: (sql: string) => void;
    /** Shortcuts of src/platform/fast-path/ to turn off (the facade bench and the equivalence tests only). */
    fastPaths?: Partial<FastPathSwitches>;
  } = {},
): Promise<DomainRuntime> {
  const orm = await createOrm({
    databaseUrl: config.DATABASE_URL,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    logger,
    onQuery: options.onQuery,
    connectTimeoutMs: config.PG_CONNECT_TIMEOUT_MS,
  });
  const late: { monitor?: DependencyMonitor } = {};
  // Connection errors are not logged one by one: the monitor probes and logs each change of state once.
  const onInfraEvent = (err?: Error) => {
    if (err && !isInfrastructureFailure(err)) logger.warn({ err }, 'redis error');
    void late.monitor?.check();
  };
  const redis = createRedis(config.REDIS_URL, {
    name: 'api',
    ...redisTimeoutsOf(config),
    onEvent: (event, err) => onInfraEvent(err),
  });
  // Two PostgreSQL pools per process, no more: MikroORM's (knex keeps its own tarn pool and cannot be handed a
  // node-postgres one) and the node-postgres pool made with it (src/platform/db/orm.ts), shared by the raw
  // statements of the repositories ($1 parameters, arrays bound natively) and better-auth, which takes a pg.Pool.
  const pool = nativePoolOf(orm.config);
  if (!pool) throw new Error('createOrm made no node-postgres pool');
  pool.on('error', (err) => onInfraEvent(err));
  const dependencies = new DependencyMonitor({
    logger,
    probes: { postgres: () => pingDatabase(orm.em), redis: () => redis.ping() },
  });
  late.monitor = dependencies;
  const auth = await createAuth(config, pool, logger);
  // better-auth's requests, a few at a time: its sign-up holds a connection (a transaction) while it hashes the
  // password, so a burst of sign-ups would otherwise take the whole pool (10) and time out waiting for it.
  const authGate = new ConcurrencyGate(AUTH_CONCURRENCY);
  // A Redis outage is the dependency monitor's to report (one line per change of state); anything else is logged.
  const onQueueError = (err: Error) => {
    if (isInfrastructureFailure(err)) void dependencies.check();
    else logger.warn({ err }, 'metrics queue error');
  };

  const apiKeys = new ApiKeyService();
  const organizations = new OrganizationService();
  // The safe HTTP client of user-given URLs: fix suggestions, the free tools, and a bare domain's scheme.
  const http = createConfiguredSafeHttpClient(config);
  const projects = new ProjectService(config, http);
  const counts = new ProjectCountRegistry();
  counts.register('audits', AUDIT_COUNT_SOURCE);
  counts.register('keywords', KEYWORD_COUNT_SOURCE);
  counts.register('competitors', COMPETITOR_COUNT_SOURCE);
  const auditQueue: Queue<AuditJobData> = createQueue<AuditJobData>(
    QUEUES.audit,
    redis,
    config.REDIS_PREFIX,
    onInfraEvent,
  );
  const audits = new AuditService(config, projects, auditQueue, logger);
  projects.onDelete((em, project) => audits.cancelForProject(em, project));
  // Scheduled audits: the API keeps each project's job scheduler in step with its stored schedule (the workers'
  // reconciler repairs what an outage left out). The same queue, typed for the scheduled jobs' data.
  const scheduleQueue = createQueue<ScheduledAuditJobData>(QUEUES.audit, redis, config.REDIS_PREFIX, onInfraEvent);
  const auditSchedules = new AuditScheduleService(projects, audits, scheduleQueue, logger);
  projects.onScheduleChange((project) => auditSchedules.sync(project));
  projects.onDelete((_em, project) => auditSchedules.unschedule(project.id));
  const rankQueue: Queue<RankJobData> = createQueue<RankJobData>(QUEUES.rank, redis, config.REDIS_PREFIX, onInfraEvent);
  const keywords = new KeywordService(config, projects, rankQueue);
  const competitorQueue = createQueue<CompetitorJobData>(QUEUES.competitor, redis, config.REDIS_PREFIX, onInfraEvent);
  const competitors = new CompetitorService(config, projects, competitorQueue);
  projects.onDelete(async (_em, project) => {
    await unscheduleDailyRankCheck(rankQueue, project.id);
  });
  // Alerts: rule and endpoint changes here; redeliveries and test events go to the alert workers.
  const alertQueue = createQueue<AlertJobData>(QUEUES.alert, redis, config.REDIS_PREFIX, onInfraEvent);
  const alertResolver = new AlertResolver(
    new AlertService(config, projects),
    new WebhookService(config, projects, alertQueue),
  );
  const limiter = new RateLimiter(redis, config.REDIS_PREFIX);
  const appRate = (userId: string) => ({ bucket: `user:${userId}:app`, limit: config.APP_RATE_PER_MINUTE });
  // LLM calls (fix suggestions) are counted with the workers' counters in Redis (served by /metrics).
  const metrics = new SharedMetrics(redis, config.REDIS_PREFIX);
  const llmFetch = meteredFetch(
    globalThis.fetch,
    metrics,
    { requests: 'seo_llm_requests_total', errors: 'seo_llm_errors_total' },
    { model: config.LLM_MODEL ?? 'unset' },
  );

  // Client report PDFs with the lab's Chromium, when one is configured (launched on first use, closed when idle).
  const reportPdf = config.CHROMIUM_PATH ? createReportPdfRenderer({ chromiumPath: config.CHROMIUM_PATH }) : null;

  const pageService = new AuditPageService();
  const instances = new Map<unknown, unknown>([
    [IdentityResolver, new IdentityResolver(apiKeys, organizations, { mailEnabled: Boolean(config.SMTP_URL) })],
    [OrganizationUsageResolver, new OrganizationUsageResolver(new OrganizationUsageService(config))],
    [ProjectResolver, new ProjectResolver(projects, counts)],
    [AuditResolver, new AuditResolver(audits, pageService)],
    [AuditPageViewResolver, new AuditPageViewResolver(pageService)],
    [IssueResolver, new IssueResolver(audits, pageService)],
    [ProjectAuditFieldsResolver, new ProjectAuditFieldsResolver()],
    [KeywordRankingPageResolver, new KeywordRankingPageResolver()],
    [IssueOccurrenceRankingResolver, new IssueOccurrenceRankingResolver()],
    [AuditPageViewRankingResolver, new AuditPageViewRankingResolver()],
    [AuditScheduleResolver, new AuditScheduleResolver(auditSchedules)],
    [TechnicalResolver, new TechnicalResolver(new TechnicalService(projects))],
    [ToolsResolver, new ToolsResolver(new ToolsService(http))],
    [CheckCatalogResolver, new CheckCatalogResolver()],
    [CheckSettingsResolver, new CheckSettingsResolver(new CheckSettingsService())],
    [KeywordResolver, new KeywordResolver(keywords)],
    [CompetitorResolver, new CompetitorResolver(competitors)],
    [AlertResolver, alertResolver],
    [ComparisonResolver, new ComparisonResolver(new ComparisonService(projects, audits))],
    [CrawlLoginResolver, new CrawlLoginResolver(new CrawlLoginService(config, projects))],
    [
      ReportResolver,
      new ReportResolver(
        new ReportService(projects),
        new ExportService(projects),
        new ClientReportService(projects, reportPdf),
      ),
    ],
    [FixResolver, new FixResolver(new FixService(projects, http, createLlmClient(config, llmFetch), logger))],
  ]);
  const container = {
    get: (cls: unknown) => {
      const instance = instances.get(cls);
      if (!instance) throw new Error(`No resolver instance registered for ${(cls as { name?: string }).name}`);
      return instance;
    },
  };
  const schema = await buildDomainSchema(container);
  /** The runtime with the given shortcuts: its own principal resolver, everything else shared. */
  const assemble = async (shortcuts: FastPathSwitches, close: () => Promise<void>): Promise<DomainRuntime> => {
    const principals = new PrincipalResolver(auth, apiKeys, organizations, config.authSecret, {
      sessionFastPath: shortcuts.sessionCookie,
    });
    return {
      config,
      logger,
      orm,
      redis,
      pool,
      auth,
      schema,
      dependencies,
      anonymousRate: config.ANONYMOUS_RATE_PER_MINUTE,
      createContext: ({ principal, requestId, ip }) =>
        new ApiRequestContext(orm.em as EntityManager, principal, requestId, ip),
      authenticate(creds, channel) {
        if (creds.bearer) return principals.fromApiKey(orm.em, creds.bearer, channel);
        if (creds.session) return principals.fromSession(orm.em, creds.session.cookie, creds.session.headers, channel);
        return Promise.resolve(null);
      },
      rateLimit: (bucket, limit) => limiter.hit(bucket, limit),
      peekRateLimit: (bucket, limit) => limiter.peek(bucket, limit),
      rateLimitFor(principal) {
        // The web app (a session on /graphql) has its own per-user budget; scripts keep the contract's figures.
        if (principal.via === 'SESSION' && principal.channel === 'GRAPHQL' && principal.userId)
          return appRate(principal.userId);
        const surface = principal.via === 'API_KEY' ? 'A' : 'B';
        return { bucket: `org:${principal.organizationId}:${surface}`, limit: RATE_LIMITS[surface][principal.plan] };
      },
      appRateFor: appRate,
      signUpRate: (ip) => limiter.hit(`ip:${ip}:signup`, config.SIGNUPS_PER_IP_PER_HOUR, HOUR_MS),
      // A view: its connections are the parent's, closed with the parent.
      handleAuth: (request) => authGate.run(() => auth.handler(request)),
      readiness: () => checkReadiness({ db: orm.em, redis }),
      createClusterMetrics: () =>
        new ClusterMetrics({
          auditsByStatus: () => countAuditsByStatus(orm.em),
          redis,
          prefix: config.REDIS_PREFIX,
          onError: onQueueError,
        }),
      fastPaths: shortcuts,
      withFastPaths: (overrides) => assemble({ ...shortcuts, ...overrides }, () => Promise.resolve()),
      close,
    };
  };

  return assemble(fastPaths(options.fastPaths), async () => {
    dependencies.close();
    await auditQueue.close().catch(() => undefined);
    await scheduleQueue.close().catch(() => undefined);
    await rankQueue.close().catch(() => undefined);
    await competitorQueue.close().catch(() => undefined);
    await alertQueue.close().catch(() => undefined);
    await http.close().catch(() => undefined);
    await reportPdf?.close().catch(() => undefined);
    await metrics.flush();
    // orm.close ends the shared node-postgres pool too.
    await Promise.allSettled([orm.close(true), redis.quit()]);
  });
}
