import { z } from 'zod';
import { DEFAULT_LOG_LEVEL, LOG_LEVELS } from './log-level.js';

/** Plans in ascending order of access. */
export const PLANS = ['FREE', 'PRO', 'ENTERPRISE'] as const;
export type Plan = (typeof PLANS)[number];

const quotaSchema = z.object({
  projects: z.number().int().positive(),
  keywordsPerProject: z.number().int().positive(),
  competitorsPerProject: z.number().int().positive(),
  pagesPerAudit: z.number().int().positive(),
});
export type PlanQuota = z.infer<typeof quotaSchema>;

export const DEFAULT_QUOTAS: Record<Plan, PlanQuota> = {
  FREE: { projects: 1, keywordsPerProject: 10, competitorsPerProject: 1, pagesPerAudit: 100 },
  PRO: { projects: 10, keywordsPerProject: 200, competitorsPerProject: 5, pagesPerAudit: 1_000 },
  ENTERPRISE: { projects: 100, keywordsPerProject: 2_000, competitorsPerProject: 20, pagesPerAudit: 10_000 },
};

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const csv = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

const DEV_SECRET = 'dev-only-secret-change-me-dev-only-secret-change-me';

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PUBLIC_URL: z.url().optional(),
    DATABASE_URL: z.url().default('postgres://postgres@127.0.0.1:5432/seo_audit'),
    REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
    REDIS_PREFIX: z.string().default('seo'),
    BETTER_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    TRUSTED_ORIGINS: csv.default([]),
    DEFAULT_PLAN: z.enum(PLANS).default('FREE'),
    PLAN_QUOTAS: z
      .string()
      .transform((v, ctx) => {
        try {
          return JSON.parse(v) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be JSON' });
          return z.NEVER;
        }
      })
      .pipe(z.partialRecord(z.enum(PLANS), quotaSchema.partial()))
      .optional(),
    LOG_LEVEL: z.enum(LOG_LEVELS).default(DEFAULT_LOG_LEVEL),
    /**
     * How long a Redis command may go unanswered before it fails (and the request answers 503): short, so that a
     * hung Redis is refused quickly. The test suite raises it: its processes share 2 cores and a busy event loop can
     * read an answer late.
     */
    REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
    /**
     * How long connecting to Redis, and to PostgreSQL, may take before the attempt fails (and the request waiting on
     * it answers 503). The test suite raises them for the same reason as the command timeout: a timer that fires
     * while the event loop was busy wins over the connection that completed meanwhile.
     */
    REDIS_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2_000),
    PG_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3_000),
    /**
     * Statement time limits of the queries a user shapes (docs/performance.md, "Bounded queries"): a URL table page
     * or count, one page of rows of an export, a segment's facts. PostgreSQL stops the statement; the answer is a
     * BAD_USER_INPUT naming the filter and sort.
     */
    QUERY_TIMEOUT_GRID_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    QUERY_TIMEOUT_EXPORT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    QUERY_TIMEOUT_SEGMENT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    /**
     * Such reads (a table page and its count, a segment's facts) in flight per organization, and in all, in one API
     * process (each holds up to 2 of its pool's 10 connections); another waits up to GRID_QUERY_WAIT_MS for a slot,
     * then is refused with RATE_LIMITED and Retry-After.
     */
    GRID_QUERIES_PER_ORGANIZATION: z.coerce.number().int().min(1).max(50).default(2),
    GRID_QUERIES_TOTAL: z.coerce.number().int().min(1).max(50).default(4),
    GRID_QUERY_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
    /**
     * Each organization's share of database time for URL table and segment reads in one API process: what its reads
     * took, forgotten exponentially over GRID_TIME_WINDOW_MS; past GRID_TIME_PER_ORGANIZATION_MS its next read is
     * refused with RATE_LIMITED and Retry-After (an export's pieces are not charged).
     */
    GRID_TIME_PER_ORGANIZATION_MS: z.coerce.number().int().min(100).max(3_600_000).default(3_000),
    GRID_TIME_WINDOW_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(10_000),
    TRUST_PROXY: bool.default(false),
    AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().positive().default(30),
    /** Unauthenticated requests (free tools, anonymous GraphQL) per client IP and minute; default = the Free rate. */
    ANONYMOUS_RATE_PER_MINUTE: z.coerce.number().int().positive().default(10),
    /**
     * The first-party web app's budget: session requests on /graphql and /api/auth per user and minute, never the
     * plan's Surface B figure (that one is for scripts on /api).
     */
    APP_RATE_PER_MINUTE: z.coerce.number().int().positive().default(600),
    /**
     * How many of those may come back to back; past them the minute's budget is spread evenly (one per 100 ms at
     * 600). A page of the web app sends a handful at once; a script firing the whole minute in its first seconds
     * would hold the API process's one thread from every other organization meanwhile.
     */
    APP_RATE_BURST: z.coerce.number().int().positive().default(30),
    /**
     * A request refused for its rate is answered when it could have been served, this long at most: a client that
     * does not wait out its 429s asks again at most once per hold and connection, not as fast as the API can refuse
     * (each refusal still costs a session check and a Redis call on the process's one thread). 0: at once.
     */
    RATE_LIMIT_HOLD_MS: z.coerce.number().int().min(0).max(10_000).default(1_000),
    /**
     * Signed-in pages rendered on the server (facades/http/server-render.ts): the browser paints the page from the HTML
     * instead of after its scripts and queries. Off: every signed-in page is the plain index.html, as before.
     */
    SERVER_RENDERING: bool.default(true),
    /** Sign-ups (POST /api/auth/sign-up/*) per client IP and hour. */
    SIGNUPS_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(20),
    BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
    GRAPHQL_INTROSPECTION: bool.optional(),
    GRAPHQL_MAX_DEPTH: z.coerce.number().int().positive().default(10),
    GRAPHQL_MAX_COST: z.coerce.number().int().positive().default(5_000),
    SAFE_HTTP_ALLOW: csv.default([]),
    SAFE_HTTP_RESOLVE: z.string().optional(),
    /**
     * Link checks (other hosts' links and resources) per resolved address, every audit of one worker process together:
     * requests in flight at once and request starts per second. Many host names can share one address, so a limit
     * per name alone let one page aim thousands of requests at a third party (docs/audits-and-crawling.md).
     */
    LINK_CHECK_ADDRESS_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(6),
    LINK_CHECK_ADDRESS_RATE: z.coerce.number().min(0.1).max(1_000).default(10),
    /**
     * Requests one audit sends to one address for link checks (a GET after a refused HEAD and each redirect hop count);
     * past it the links to that address are reported "could not check: per-address request cap reached".
     */
    LINK_CHECK_ADDRESS_CAP: z.coerce.number().int().min(1).max(1_000_000).default(500),
    CRAWLER_USER_AGENT: z.string().default('SEOAuditBot/1.0 (+https://github.com/seo-audit-platform)'),
    CHROMIUM_PATH: z.string().optional(),
    /**
     * Browser rendering mode's Chromium (rendererChromiumPath): CHROMIUM_PATH when unset. Debian's old headless shell
     * (chromium-headless-shell) renders a page for a third of the full browser's CPU (docs/audits-and-crawling.md).
     */
    RENDER_CHROMIUM_PATH: z.string().optional(),
    /** Browser rendering mode: pages one worker process renders at once (one Chromium, a context per page). */
    RENDER_PAGES: z.coerce.number().int().min(1).max(32).default(4),
    /** Browser rendering mode: the whole time budget of one page's render (navigation, settling, snapshot). */
    RENDER_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(120_000).default(15_000),
    SERP_PROVIDER: z.enum(['serpapi', 'serper', 'dataforseo', 'searxng']).optional(),
    SERP_API_KEY: z.string().min(1).optional(),
    SERP_LOGIN: z.string().min(1).optional(),
    SERP_PASSWORD: z.string().min(1).optional(),
    SERP_BASE_URL: z.url().optional(),
    SERP_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
    /** Results checked per keyword; Google serves 10 per request, so 100 costs 10 calls with most providers. */
    SERP_DEPTH: z.coerce.number().int().min(10).max(200).default(100),
    /** Keyword checks started per second across all rank workers (BullMQ limiter). */
    SERP_RATE_PER_SECOND: z.coerce.number().int().positive().default(5),
    SERP_CONCURRENCY: z.coerce.number().int().positive().default(2),
    /** Competitor homepage profiles one worker process runs at once (the competitor queue). */
    COMPETITOR_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(2),
    /** First retry delay of a failed provider call (exponential backoff, 4 attempts). */
    SERP_RETRY_DELAY_MS: z.coerce.number().int().min(100).default(10_000),
    /** Any OpenAI-compatible chat-completions endpoint, e.g. http://localhost:11434/v1; unset = rules only. */
    /** Outgoing mail (invitations, password resets): smtp://user:pass@host:587 (STARTTLS) or smtps://…:465. */
    SMTP_URL: z
      .string()
      .refine((v) => /^smtps?:\/\/[^/?#]+/i.test(v) && URL.canParse(v), {
        message: 'must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587',
      })
      .optional(),
    /** The From of every message; a bare address or `Name <address>`. */
    MAIL_FROM: z
      .string()
      .regex(/^[^<>@\s]+@[^<>@\s]+$|^[^<>]*<[^<>@\s]+@[^<>@\s]+>$/, 'must be an e-mail address or "Name <address>"')
      .optional(),
    /**
     * Alerts (src/alerts): webhook signing secrets are stored encrypted (AES-256-GCM) with a key derived from this
     * (default: from BETTER_AUTH_SECRET; changing it makes stored secrets unreadable: rotate each endpoint's secret).
     */
    WEBHOOK_SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    /**
     * Login crawls (src/crawler/crawl-login*): a project's crawl credentials are stored encrypted (AES-256-GCM) with a
     * key derived from this (default: from BETTER_AUTH_SECRET). To change it, re-seal the stored credentials first:
     * `seo secrets rotate-crawl-key --from <old> --to <new>`.
     */
    CRAWL_SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    /** Attempts of one webhook delivery (the first included), with exponential backoff from ALERT_RETRY_DELAY_MS. */
    ALERT_WEBHOOK_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
    /** First retry delay of a failed webhook delivery or alert e-mail; it doubles with each attempt. */
    ALERT_RETRY_DELAY_MS: z.coerce.number().int().min(10).default(30_000),
    /** How long an endpoint may take to answer one delivery. */
    ALERT_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** Rank alerts are evaluated this long after a project's last keyword check (its run has settled by then). */
    ALERT_RANK_SETTLE_MS: z.coerce.number().int().min(0).default(60_000),
    /**
     * How often each alert worker queues again the alerts PostgreSQL says are owed and due but the queue does not
     * hold (a completed audit's evaluation, a delivery's next attempt: Redis was down, or lost its data); owed work is
     * queued again once it has been due this long. 0 = at start only.
     */
    ALERT_RECONCILE_MS: z.coerce.number().int().min(0).default(30_000),
    /** When the weekly alert digest is sent (cron, UTC): Mondays 08:00 by default. */
    ALERT_DIGEST_CRON: z
      .string()
      .regex(/^\S+( \S+){4,5}$/, 'must be a cron pattern, e.g. "0 8 * * 1"')
      .default('0 8 * * 1'),
    LLM_BASE_URL: z.url().optional(),
    LLM_API_KEY: z.string().min(1).optional(),
    LLM_MODEL: z.string().min(1).optional(),
    LLM_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
    LLM_MAX_TOKENS: z.coerce.number().int().positive().default(800),
    WORKER_CONCURRENCY: z.coerce.number().int().positive().default(2),
    /** Worker threads per audit worker process that parse pages (0: parse in the crawl loop's thread). */
    AUDIT_PARSE_THREADS: z.coerce.number().int().min(0).max(32).default(1),
    /** Bearer token that /metrics requires; unset = /metrics is off (404). At least 16 characters. */
    METRICS_TOKEN: z
      .string()
      .min(16, 'must be at least 16 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .optional(),
    /** Job lock; a worker that dies is detected within about this long and its job restarted. */
    WORKER_LOCK_MS: z.coerce.number().int().min(1_000).default(30_000),
    /** How often an audit worker looks for audits whose queued job was lost (Redis restarted empty, say); 0 = never. */
    AUDIT_SWEEP_INTERVAL_MS: z.coerce.number().int().min(0).default(15_000),
    /**
     * How often each worker makes the BullMQ job schedulers (scheduled audits, daily rank checks) equal to the
     * database again, besides at start: a Redis that restarted empty has its schedules back within this long. 0 = at
     * start only.
     */
    SCHEDULE_RECONCILE_MS: z.coerce.number().int().min(0).default(300_000),
    /**
     * How often a running audit's worker writes its heartbeat; the sweeper leaves an audit alone while the heartbeat
     * is fresher than three of these (its worker is alive, whatever Redis lost).
     */
    AUDIT_HEARTBEAT_MS: z.coerce.number().int().min(100).default(5_000),
    /**
     * How long an audit waits, once its pages are done, for its external link checks before it completes without
     * them: readable (pages, scores, issues), with the external verdicts folded in when they arrive.
     */
    AUDIT_EXTERNAL_READABLE_AFTER_MS: z.coerce.number().int().min(0).default(1_000),
  })
  .transform((env, ctx) => {
    const production = env.NODE_ENV === 'production';
    if (env.SERP_PROVIDER === 'searxng' && !env.SERP_BASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SERP_BASE_URL'],
        message: 'is required for the searxng provider (your instance URL)',
      });
    }
    if ((env.SERP_PROVIDER === 'serpapi' || env.SERP_PROVIDER === 'serper') && !env.SERP_API_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['SERP_API_KEY'],
        message: `is required for the ${env.SERP_PROVIDER} provider`,
      });
    }
    if (env.SERP_PROVIDER === 'dataforseo' && !(env.SERP_LOGIN && env.SERP_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: ['SERP_LOGIN'],
        message: 'SERP_LOGIN and SERP_PASSWORD are required for the dataforseo provider',
      });
    }
    if (production && !env.BETTER_AUTH_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['BETTER_AUTH_SECRET'], message: 'is required in production' });
    }
    const baseUrl = env.PUBLIC_URL ?? `http://${env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST}:${env.PORT}`;
    const quotas = structuredClone(DEFAULT_QUOTAS);
    for (const plan of PLANS) Object.assign(quotas[plan], env.PLAN_QUOTAS?.[plan] ?? {});
    return {
      ...env,
      production,
      baseUrl,
      authSecret: env.BETTER_AUTH_SECRET ?? DEV_SECRET,
      usingDevSecret: !env.BETTER_AUTH_SECRET,
      trustedOrigins: [...new Set([new URL(baseUrl).origin, ...env.TRUSTED_ORIGINS])],
      quotas,
      introspection: env.GRAPHQL_INTROSPECTION ?? !production,
    };
  });

export type AppConfig = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The Chromium that renders pages in browser rendering mode: RENDER_CHROMIUM_PATH, else CHROMIUM_PATH. */
export function rendererChromiumPath(
  config: Partial<Pick<AppConfig, 'CHROMIUM_PATH' | 'RENDER_CHROMIUM_PATH'>>,
): string | undefined {
  return config.RENDER_CHROMIUM_PATH || config.CHROMIUM_PATH || undefined;
}

/** Parses the environment once; a bad variable is fatal with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** Entry points: a bad configuration prints its message (naming the variables) and exits with code 2. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}
