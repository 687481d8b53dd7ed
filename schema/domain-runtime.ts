import 'reflect-metadata';
import type pg from 'pg';
import type { GraphQLSchema } from 'graphql';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../src/platform/config.js';
import type { Channel, Principal, RequestContext } from '../src/platform/context.js';
import { ApiRequestContext } from '../src/platform/context.js';
import { createOrm, type MikroORM } from '../src/platform/db/orm.js';
import type { Logger } from '../src/platform/logger.js';
import { createRedis, redisTimeoutsOf, type Redis } from '../src/platform/redis.js';
import { DependencyMonitor } from '../src/platform/dependency-monitor.js';
import { isInfrastructureFailure } from '../src/platform/infra-errors.js';
import { ClusterMetrics, checkReadiness, type Readiness } from '../src/platform/cluster-metrics.js';
import { nativePoolOf, setQueryBounds } from '../src/platform/db/native-query.js';
import { pingDatabase } from '../src/platform/db/health.js';
import { ENTITIES } from '../src/entities.js';
import {
  ApiKeyService,
  OrganizationService,
  PrincipalResolver,
  HOUR_MS,
  MINUTE_MS,
  RATE_LIMITS,
  RateLimiter,
  createAuth,
  type Auth,
  type RateLimitResult,
  type RateRule,
} from '../src/identity/index.js';
import {
  CrawlLoginService,
  CustomExtractorService,
  OrganizationUsageService,
  ProjectCountRegistry,
  ProjectService,
} from '../src/projects/index.js';
import {
  AuditPageService,
  AuditService,
  AUDIT_COUNT_SOURCE,
  countAuditsByStatus,
  type AuditJobData,
  WontFixService,
} from '../src/audits/index.js';
import { AuditScheduleService, type ScheduledAuditJobData } from '../src/schedules/index.js';
import { QUEUES, createQueue, type Queue } from '../src/platform/queues.js';
import { TechnicalService } from '../src/technical/index.js';
import { ToolsService } from '../src/tools/index.js';
import {
  KEYWORD_COUNT_SOURCE,
  KeywordService,
  unscheduleDailyRankCheck,
  type RankJobData,
} from '../src/keywords/index.js';
import { COMPETITOR_COUNT_SOURCE, CompetitorService, type CompetitorJobData } from '../src/competitors/index.js';
import { AlertService, WebhookService, type AlertJobData } from '../src/alerts/index.js';
import { ComparisonService } from '../src/comparison/index.js';
import { ClientReportService, ExportService, ReportService, createReportPdfRenderer } from '../src/reports/index.js';
import { FixService } from '../src/fixes/index.js';
import { createLlmClient } from '../src/llm/index.js';
import { createConfiguredSafeHttpClient } from '../src/platform/safe-http/index.js';
import { buildDomainSchema, resolverContainer, type ResolverServices } from './build-schema.js';
import { CheckSettingsService } from '../src/checks-catalog/index.js';
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
  /** `signal`: made on first use, aborted when the HTTP client goes away (bounded statements are then cancelled). */
  createContext(input: {
    principal: Principal | null;
    requestId: string;
    ip?: string;
    signal?: () => AbortSignal;
  }): RequestContext;
  authenticate(creds: Credentials, channel: Channel): Promise<Principal | null>;
  /** Counts one request in `bucket` (a minute's window; `burst`: see RateRule). */
  rateLimit(bucket: string, limit: number, burst?: number): Promise<RateLimitResult>;
  peekRateLimit(bucket: string, limit: number): Promise<RateLimitResult>;
  /**
   * A principal's bucket and limit: keys count against their organization's Surface A allowance, sessions on REST
   * against its Surface B allowance (spec §8); sessions on /graphql are the first-party web app, limited per user.
   */
  rateLimitFor(principal: Principal): RateRule;
  /** The web app's per-user budget (session on /graphql and /api/auth): APP_RATE_PER_MINUTE, APP_RATE_BURST at once. */
  appRateFor(userId: string): RateRule;
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

/** The connections of the API process and the monitor of their health (which the connections report to). */
interface Connections {
  orm: MikroORM;
  redis: Redis;
  pool: pg.Pool;
  dependencies: DependencyMonitor;
  /** A connection's error event: logged unless it is an outage, which the monitor reports once per change. */
  onInfraEvent(err?: Error): void;
}

async function openConnections(
  config: AppConfig,
  logger: Logger,
  onQuery: ((sql: string) => void) | undefined,
): Promise<Connections> {
  const orm = await createOrm({
    databaseUrl: config.DATABASE_URL,
    entities: ENTITIES,
    // No migrator: `seo migrate` applies migrations; /ready compares the names (src/platform/db/migrations/names.ts).
    logger,
    onQuery,
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
  setQueryBounds(orm.config, {
    timeoutMs: {
      grid: config.QUERY_TIMEOUT_GRID_MS,
      export: config.QUERY_TIMEOUT_EXPORT_MS,
      segment: config.QUERY_TIMEOUT_SEGMENT_MS,
    },
    gate: {
      perKey: config.GRID_QUERIES_PER_ORGANIZATION,
      total: config.GRID_QUERIES_TOTAL,
      maxWaitMs: config.GRID_QUERY_WAIT_MS,
      maxQueuedPerKey: 4 * config.GRID_QUERIES_PER_ORGANIZATION,
    },
    share: { budgetMs: config.GRID_TIME_PER_ORGANIZATION_MS, windowMs: config.GRID_TIME_WINDOW_MS },
  });
  pool.on('error', (err) => onInfraEvent(err));
  const dependencies = new DependencyMonitor({
    logger,
    probes: { postgres: () => pingDatabase(orm.em), redis: () => redis.ping() },
  });
  late.monitor = dependencies;
  return { orm, redis, pool, dependencies, onInfraEvent };
}

/** The domain services of the API process (the resolvers' and the DomainApi's), and what closing them takes. */
interface Services extends ResolverServices {
  close(): Promise<void>;
}

function createServices(config: AppConfig, logger: Logger, conn: Connections): Services {
  const { redis, onInfraEvent } = conn;
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

  return {
    config,
    apiKeys,
    organizations,
    usage: new OrganizationUsageService(config),
    projects,
    counts,
    crawlLogins: new CrawlLoginService(config, projects),
    extractors: new CustomExtractorService(),
    audits,
    pages: new AuditPageService(),
    wontFix: new WontFixService(),
    auditSchedules,
    technical: new TechnicalService(projects),
    tools: new ToolsService(http),
    checkSettings: new CheckSettingsService(),
    keywords,
    competitors,
    alerts: new AlertService(config, projects),
    webhooks: new WebhookService(config, projects, alertQueue),
    comparison: new ComparisonService(projects, audits),
    reports: new ReportService(projects),
    exports: new ExportService(projects),
    clientReports: new ClientReportService(projects, reportPdf),
    fixes: new FixService(projects, http, createLlmClient(config, llmFetch), logger),
    async close() {
      await auditQueue.close().catch(() => undefined);
      await scheduleQueue.close().catch(() => undefined);
      await rankQueue.close().catch(() => undefined);
      await competitorQueue.close().catch(() => undefined);
      await alertQueue.close().catch(() => undefined);
      await http.close().catch(() => undefined);
      await reportPdf?.close().catch(() => undefined);
      await metrics.flush();
    },
  };
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
  const conn = await openConnections(config, logger, options.onQuery);
  const { orm, redis, dependencies } = conn;
  const auth = await createAuth(config, conn.pool, logger);
  const services = createServices(config, logger, conn);
  const schema = await buildDomainSchema(resolverContainer(services));
  const parts: RuntimeParts = {
    config,
    logger,
    conn,
    auth,
    services,
    schema,
    // better-auth's requests, a few at a time: its sign-up holds a connection (a transaction) while it hashes the
    // password, so a burst of sign-ups would otherwise take the whole pool (10) and time out waiting for it.
    authGate: new ConcurrencyGate(AUTH_CONCURRENCY),
    limiter: new RateLimiter(redis, config.REDIS_PREFIX),
  };
  return assembleRuntime(parts, fastPaths(options.fastPaths), async () => {
    dependencies.close();
    await services.close();
    // orm.close ends the shared node-postgres pool too.
    await Promise.allSettled([orm.close(true), redis.quit()]);
  });
}

interface RuntimeParts {
  config: AppConfig;
  logger: Logger;
  conn: Connections;
  auth: Auth;
  services: Services;
  schema: GraphQLSchema;
  authGate: ConcurrencyGate;
  limiter: RateLimiter;
}

/** The runtime with the given shortcuts: its own principal resolver, everything else shared. */
function assembleRuntime(parts: RuntimeParts, shortcuts: FastPathSwitches, close: () => Promise<void>): DomainRuntime {
  const { config, logger, conn, auth, services, schema, authGate, limiter } = parts;
  const { orm, redis, pool, dependencies } = conn;
  // A Redis outage is the dependency monitor's to report (one line per change of state); anything else is logged.
  const onQueueError = (err: Error) => {
    if (isInfrastructureFailure(err)) void dependencies.check();
    else logger.warn({ err }, 'metrics queue error');
  };
  const appRate = (userId: string): RateRule => ({
    bucket: `user:${userId}:app`,
    limit: config.APP_RATE_PER_MINUTE,
    burst: config.APP_RATE_BURST,
  });
  const principals = new PrincipalResolver(auth, services.apiKeys, services.organizations, config.authSecret, {
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
    createContext: ({ principal, requestId, ip, signal }) =>
      new ApiRequestContext(orm.em as EntityManager, principal, requestId, ip, signal),
    authenticate(creds, channel) {
      if (creds.bearer) return principals.fromApiKey(orm.em, creds.bearer, channel);
      if (creds.session) return principals.fromSession(orm.em, creds.session.cookie, creds.session.headers, channel);
      return Promise.resolve(null);
    },
    rateLimit: (bucket, limit, burst) => limiter.hit(bucket, limit, MINUTE_MS, burst),
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
    withFastPaths: (overrides) =>
      Promise.resolve(assembleRuntime(parts, { ...shortcuts, ...overrides }, () => Promise.resolve())),
    close,
  };
}
