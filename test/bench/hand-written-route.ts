import { createHash } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifySchema, type RouteHandlerMethod } from 'fastify';
import type pg from 'pg';
import type { RateLimiter } from '../../src/identity/rate-limit.js';
import { ProjectV1, SHARED_SCHEMAS, arrayOf, body } from '../../facades/openapi/components.js';
import { auditScheduleOf, nextAuditRunAt, type AuditScheduleFrequency } from '../../src/projects/audit-schedule.js';

/**
 * GET /api/v1/projects written by hand: the baseline the facade is held to. It does the work the facade
 * path does (bearer parse, SHA-256, key lookup joined with the organization, throttled last_used_at write,
 * the Redis rate-limit hit with its headers, the plan gate, the project list) with plain node-postgres
 * and no GraphQL, ORM or hooks in between.
 */

/**
 * The 200 body's JSON Schema, declared as an idiomatic Fastify route would (and as the facade's route is): Fastify
 * then serializes with fast-json-stringify. Without it the baseline paid JSON.stringify with Date.prototype.toJSON,
 * ~22 us per 20-project body against ~7 us, a handicap that had nothing to do with the facade's layers.
 */
export const HAND_WRITTEN_ROUTE_SCHEMA: FastifySchema = { response: { 200: body({ projects: arrayOf(ProjectV1) }) } };

export interface HandWrittenDeps {
  pool: pg.Pool;
  limiter: RateLimiter;
  /** Requests per minute for the organization's Surface A bucket. */
  limit: number;
}

interface KeyRow {
  id: string;
  organization_id: string;
  plan: string;
  last_used_at: Date | null;
}

interface ProjectRow {
  id: string;
  name: string;
  domain: string;
  created_at: Date;
  audit_schedule_frequency: AuditScheduleFrequency;
  audit_schedule_time: string;
  audit_schedule_time_zone: string;
  audit_schedule_day_of_week: number | null;
  audit_schedule_day_of_month: number | null;
}

const BEARER_RE = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const LAST_USED_RESOLUTION_MS = 60_000;
const KEY_SQL =
  `SELECT k.id, k.organization_id, o.plan, k.last_used_at FROM api_key k JOIN "organization" o ON o.id = ` +
  `k.organization_id
  WHERE k.key_hash = $1 AND k.revoked_at IS NULL`;
const PROJECTS_SQL =
  'SELECT id, name, domain, created_at, audit_schedule_frequency, audit_schedule_time, audit_schedule_time_zone, ' +
  'audit_schedule_day_of_week, audit_schedule_day_of_month FROM project WHERE organization_id = $1 ' +
  'ORDER BY created_at, id';
const UNAUTHORIZED = {
  error: 'Invalid or missing API key. Send Authorization: Bearer <API_KEY>.',
  code: 'UNAUTHENTICATED',
};

export interface VerifiedKeyRow {
  id: string;
  organizationId: string;
  plan: string;
}

/** Bearer value -> key row, with the throttled last_used_at write; null when unknown or revoked. */
export async function verifyKey(pool: pg.Pool, key: string): Promise<VerifiedKeyRow | null> {
  if (!key.startsWith('seo_') || key.length > 200) return null;
  const hash = createHash('sha256').update(key).digest('hex');
  const row = (await pool.query<KeyRow>(KEY_SQL, [hash])).rows[0];
  if (!row) return null;
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    void pool.query('UPDATE api_key SET last_used_at = now() WHERE id = $1', [row.id]).catch(() => undefined);
  }
  return { id: row.id, organizationId: row.organization_id, plan: row.plan };
}

const COUNTS_SQL = ['audits:audit', 'keywords:keyword', 'competitors:competitor']
  .map((pair) => {
    const [field, table] = pair.split(':');
    return (
      `SELECT '${field}' AS field, project_id::text AS project_id, count(*)::int AS n FROM ${table} WHERE ` +
      `project_id = ANY($1::uuid[]) GROUP BY project_id`
    );
  })
  .join(' UNION ALL ');

/** A project's audit schedule as Surface A shows it, with its next run from now (the facade's rule, called as is). */
function scheduleOf(p: ProjectRow) {
  const schedule = auditScheduleOf({
    auditScheduleFrequency: p.audit_schedule_frequency,
    auditScheduleTime: p.audit_schedule_time,
    auditScheduleTimeZone: p.audit_schedule_time_zone,
    auditScheduleDayOfWeek: p.audit_schedule_day_of_week,
    auditScheduleDayOfMonth: p.audit_schedule_day_of_month,
    auditScheduleChangedAt: null,
  });
  return { ...schedule, nextRunAt: nextAuditRunAt(schedule, Date.now()) };
}

/**
 * The Surface A body: { projects: [{ id, name, domain, createdAt, _count, auditSchedule }] }, oldest first — with
 * the same statements the facade runs: the list, then one statement for the three counts of the listed ids.
 */
export async function listProjects(pool: pg.Pool, organizationId: string) {
  const { rows } = await pool.query<ProjectRow>(PROJECTS_SQL, [organizationId]);
  const counts = new Map(rows.map((r) => [r.id, { audits: 0, keywords: 0, competitors: 0 }]));
  const result = await pool.query<{ field: 'audits' | 'keywords' | 'competitors'; project_id: string; n: number }>(
    COUNTS_SQL,
    [rows.map((r) => r.id)],
  );
  for (const c of result.rows) counts.get(c.project_id)![c.field] = c.n;
  return {
    projects: rows.map((p) => ({
      id: p.id,
      name: p.name,
      domain: p.domain,
      createdAt: p.created_at,
      _count: counts.get(p.id)!,
      auditSchedule: scheduleOf(p),
    })),
  };
}

export function handWrittenProjectsHandler({ pool, limiter, limit }: HandWrittenDeps): RouteHandlerMethod {
  return async function handWrittenListProjects(request, reply) {
    const key = BEARER_RE.exec(request.headers.authorization ?? '')?.[1];
    const verified = key ? await verifyKey(pool, key) : null;
    if (!verified) return reply.code(401).send(UNAUTHORIZED);

    const rate = await limiter.hit(`org:${verified.organizationId}:A`, limit);
    reply.header('ratelimit-limit', String(rate.limit));
    reply.header('ratelimit-remaining', String(rate.remaining));
    reply.header('ratelimit-reset', String(rate.resetSeconds));
    if (!rate.allowed) {
      reply.header('retry-after', String(rate.resetSeconds));
      return reply.code(429).send({
        error: `Rate limit exceeded: ${rate.limit} requests per minute. Retry in ${rate.resetSeconds}s.`,
        code: 'RATE_LIMITED',
      });
    }
    if (verified.plan === 'FREE') {
      return reply.code(403).send({
        error: 'The Free plan includes the free tools only; upgrade to Pro for API access.',
        code: 'FORBIDDEN',
      });
    }
    return reply.send(await listProjects(pool, verified.organizationId));
  };
}

/** A bare Fastify instance serving only the hand-written route. */
export async function buildHandWrittenServer(deps: HandWrittenDeps): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  // The schema refers to the facade's named schemas (ProjectV1 and what it contains), as the facade's route does.
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  app.get('/api/v1/projects', { schema: HAND_WRITTEN_ROUTE_SCHEMA }, handWrittenProjectsHandler(deps));
  await app.ready();
  return app;
}
