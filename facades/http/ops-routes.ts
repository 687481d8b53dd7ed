import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import type { DomainApi } from '../../schema/domain-runtime.js';
import type { HttpMetrics } from './http-metrics.js';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../src/platform/errors.js';
import { restError, sendRefusal } from './error-translators.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time. */
function bearerMatches(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return !!match && timingSafeEqual(digest(match[1]), digest(token));
}

/**
 * Operations endpoints of an API process:
 * - `/health` (alias `/healthz`): liveness, the process answers; no dependency is consulted.
 * - `/ready` (alias `/readyz`): PostgreSQL, Redis and the migrations; 503 naming the failed check otherwise.
 * - `/metrics`: off (404) unless METRICS_TOKEN is set, then only with `Authorization: Bearer <token>` (401
 *   otherwise). HTTP and process metrics are this process's; queue, audit, page, SERP, LLM and job metrics are
 *   the whole deployment's, read from BullMQ, PostgreSQL and Redis at scrape time (cluster-metrics.ts).
 * `http` is filled by the app's MetricsLogController (see buildServer).
 */
export function mountOps(
  app: FastifyInstance,
  runtime: Pick<DomainApi, 'config' | 'readiness' | 'createClusterMetrics'>,
  http: HttpMetrics,
): void {
  const liveness = async () => ({ status: 'ok' });
  app.get('/health', liveness);
  app.get('/healthz', liveness);

  const readiness = async (_request: FastifyRequest, reply: FastifyReply) => {
    const { ready, checks } = await runtime.readiness();
    const failed = Object.entries(checks)
      .filter(([, c]) => !c.ok)
      .map(([name, c]) => `${name}: ${(c as { error: string }).error}`);
    if (ready) return reply.send({ status: 'ok', checks: { postgres: true, redis: true, migrations: true } });
    const details = Object.entries(checks)
      .filter(([, c]) => !c.ok)
      .map(([name, c]) => ({ path: name, message: (c as { error: string }).error }));
    // The REST refusal, plus the readiness fields (`status`, `checks`) probes read.
    const refusal = restError(
      {
        code: 'UNAVAILABLE',
        message: `Not ready: ${failed.join('; ')}`,
        retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
      },
      String(reply.request.id),
    );
    return reply
      .code(refusal.status)
      .headers(refusal.headers)
      .send({
        status: 'unavailable',
        ...refusal.body,
        checks: { postgres: checks.postgres.ok, redis: checks.redis.ok, migrations: checks.migrations.ok },
        details,
      });
  };
  app.get('/ready', readiness);
  app.get('/readyz', readiness);

  const token = runtime.config.METRICS_TOKEN;
  if (!token) return; // /metrics is off: the not-found handler answers 404 in the API's shape.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  http.register(registry);
  const cluster = runtime.createClusterMetrics();
  app.addHook('onClose', async () => cluster.close());
  app.get('/metrics', async (request, reply) => {
    if (!bearerMatches(request, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendRefusal(reply, {
        code: 'UNAUTHENTICATED',
        message: 'Metrics need Authorization: Bearer <METRICS_TOKEN>.',
      });
    }
    const [own, shared] = await Promise.all([registry.metrics(), cluster.render()]);
    return reply.header('content-type', registry.contentType).send(`${own}${own.endsWith('\n') ? '' : '\n'}${shared}`);
  });
}
