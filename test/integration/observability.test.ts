import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, parse } from 'graphql';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anApiKey, anOrg, aProject } from '../factories.js';
import { SharedMetrics } from '../../src/platform/shared-metrics.js';
import { createRedis } from '../../src/platform/redis.js';

const METRICS_TOKEN = `metrics-${uniq()}-${uniq()}`;
const scrape = { authorization: `Bearer ${METRICS_TOKEN}` };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'trace', METRICS_TOKEN });
});
afterAll(() => t.close());

describe('logs, health and metrics', () => {
  it('a log capture of authenticated traffic shows no key and no cookie value', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const key = await anApiKey(org);
    await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: `Bearer ${key}` } });
    await t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: org.owner.cookie } });
    await t.app.inject({
      method: 'GET',
      url: '/api/v1/projects',
      headers: { authorization: 'Bearer seo_wrongwrongwrong' },
    });
    const all = t.logs.join('');
    expect(t.logs.length).toBeGreaterThan(5);
    const cookieValue = org.owner.cookie.split('=')[1];
    expect(all).not.toContain(key);
    expect(all).not.toContain(cookieValue);
    expect(all).not.toContain(decodeURIComponent(cookieValue).split('.')[0]);
    expect(all).not.toContain('seo_wrongwrongwrong');
    expect(all).toContain('"reqId"');
  });

  it('/health(z), /ready(z) and /metrics answer', async () => {
    for (const url of ['/health', '/healthz'])
      expect((await t.app.inject({ method: 'GET', url })).json()).toEqual({ status: 'ok' });
    for (const url of ['/ready', '/readyz']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok', checks: { postgres: true, redis: true, migrations: true } });
    }
    await t.app.inject({ method: 'GET', url: '/readyz' }); // the series below counts /readyz once more than the loop
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: scrape });
    expect(metrics.body).toMatch(/http_requests_total\{method="GET",route="\/readyz",status="200"\} 2/);
    // Series are cached per route and status after the first request: later requests still count.
    await t.app.inject({ method: 'GET', url: '/readyz' });
    await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id' } });
    const again = (await t.app.inject({ method: 'GET', url: '/metrics', headers: scrape })).body;
    expect(again).toMatch(/http_requests_total\{method="GET",route="\/readyz",status="200"\} 3/);
    expect(again).toMatch(/http_requests_total\{method="GET",route="\/healthz",status="200"\} 2/);
    expect(again).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/readyz"\} 3/);
  });

  it('/metrics counts refusals and unknown routes too, each status of a route as its own series', async () => {
    const count = async (pattern: RegExp) =>
      Number(pattern.exec((await t.app.inject({ method: 'GET', url: '/metrics', headers: scrape })).body)?.[1] ?? 0);
    const unauthorized = /http_requests_total\{method="GET",route="\/api\/v1\/projects",status="401"\} (\d+)/;
    const unmatched = /http_requests_total\{method="GET",route="unmatched",status="404"\} (\d+)/;
    const durations = /http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/projects"\} (\d+)/;
    const before = [await count(unauthorized), await count(unmatched), await count(durations)];
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/projects' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: 'Bearer seo_nope' } }))
        .statusCode,
    ).toBe(401);
    // Under /api: other unknown paths are pages of the web app (its router shows its 404).
    expect((await t.app.inject({ method: 'GET', url: '/api/no/such/route' })).statusCode).toBe(404);
    expect([await count(unauthorized), await count(unmatched), await count(durations)]).toEqual([
      before[0] + 2,
      before[1] + 1,
      before[2] + 2,
    ]);
  });
});

describe('/metrics access and platform-wide series', () => {
  it('is off (404) without METRICS_TOKEN; with it, a missing or wrong bearer is 401 in the API shape', async () => {
    const off = await createTestApp();
    try {
      const res = await off.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Route GET /metrics not found', code: 'NOT_FOUND' });
    } finally {
      await off.close();
    }
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-wrong-token' },
      { authorization: METRICS_TOKEN },
      { authorization: `Basic ${METRICS_TOKEN}` },
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        error: 'Metrics need Authorization: Bearer <METRICS_TOKEN>.',
        code: 'UNAUTHENTICATED',
      });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.headers['x-request-id']).toBeTruthy();
    }
    const ok = await t.app.inject({ method: 'GET', url: '/metrics', headers: scrape });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('shows queue depths, audits by status and the counters other processes add to Redis', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const project = await aProject({ org });
    const started = await gql(
      t,
      'mutation($p: ID!) { startAudit(projectId: $p) { jobId } }',
      { p: project.id },
      { cookie: org.owner.cookie },
    );
    expect(started.body.errors).toBeUndefined();
    const body = (await t.app.inject({ method: 'GET', url: '/metrics', headers: scrape })).body;
    // No worker runs here: the job waits in the audit queue of this app's prefix.
    expect(body).toMatch(/^seo_queue_jobs\{queue="audit",state="waiting"\} 1$/m);
    for (const state of ['active', 'delayed', 'failed'])
      expect(body).toMatch(new RegExp(`^seo_queue_jobs\\{queue="audit",state="${state}"\\} 0$`, 'm'));
    expect(body).toMatch(/^seo_queue_jobs\{queue="rank",state="waiting"\} \d+$/m);
    expect(Number(/^seo_audits\{status="QUEUED"\} (\d+)$/m.exec(body)?.[1])).toBeGreaterThanOrEqual(1);
    expect(body).toMatch(/^seo_audits\{status="FAILED"\} \d+$/m);
    expect(body).toMatch(/^seo_metrics_source_up\{source="postgres"\} 1$/m);
    expect(body).toMatch(/^seo_pages_crawled_total 0$/m);

    // Two other processes (two worker processes, say) add to the same counters; one scrape shows the sums.
    const redisA = createRedis(t.config.REDIS_URL);
    const redisB = createRedis(t.config.REDIS_URL);
    try {
      const a = new SharedMetrics(redisA, t.config.REDIS_PREFIX);
      const b = new SharedMetrics(redisB, t.config.REDIS_PREFIX);
      a.inc('seo_pages_crawled_total', {}, 7);
      b.inc('seo_pages_crawled_total', {}, 5);
      a.inc('seo_serp_requests_total', { provider: 'serper' }, 3);
      b.inc('seo_serp_errors_total', { provider: 'serper', reason: 'http_429' });
      a.observeJob('audit', 'completed', 0.3);
      b.observeJob('audit', 'completed', 42);
      b.observeJob('rank', 'failed', 2);
      await Promise.all([a.flush(), b.flush()]);
      const after = (await t.app.inject({ method: 'GET', url: '/metrics', headers: scrape })).body;
      expect(after).toMatch(/^seo_pages_crawled_total 12$/m);
      expect(after).toMatch(/^seo_serp_requests_total\{provider="serper"\} 3$/m);
      expect(after).toMatch(/^seo_serp_errors_total\{provider="serper",reason="http_429"\} 1$/m);
      expect(after).toMatch(/^seo_job_duration_seconds_bucket\{outcome="completed",queue="audit",le="0.5"\} 1$/m);
      expect(after).toMatch(/^seo_job_duration_seconds_bucket\{outcome="completed",queue="audit",le="60"\} 2$/m);
      expect(after).toMatch(/^seo_job_duration_seconds_bucket\{outcome="completed",queue="audit",le="\+Inf"\} 2$/m);
      expect(after).toMatch(/^seo_job_duration_seconds_sum\{outcome="completed",queue="audit"\} 42.3$/m);
      expect(after).toMatch(/^seo_job_duration_seconds_count\{outcome="failed",queue="rank"\} 1$/m);
      expect(after).toMatch(/^# TYPE seo_job_duration_seconds histogram$/m);
    } finally {
      await redisA.quit();
      await redisB.quit();
    }
  });

  it('/ready answers 503 naming the failed check, in the API error shape; /health stays 200', async () => {
    const pool = t.runtime.pool;
    const original = pool.query.bind(pool);
    (pool as { query: unknown }).query = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    try {
      const res = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({
        status: 'unavailable',
        error:
          'Not ready: postgres: connect ECONNREFUSED 127.0.0.1:5432; ' +
          'migrations: not checked: PostgreSQL is unavailable',
        code: 'UNAVAILABLE',
        checks: { postgres: false, redis: true, migrations: false },
        details: [
          { path: 'postgres', message: 'connect ECONNREFUSED 127.0.0.1:5432' },
          { path: 'migrations', message: 'not checked: PostgreSQL is unavailable' },
        ],
      });
      expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      // Migrations this build knows but the database lacks make the process unready too.
      (pool as { query: unknown }).query = (sql: string, ...rest: unknown[]) =>
        /mikro_orm_migrations/.test(sql)
          ? Promise.resolve({ rows: [{ name: '20261121-0001-identity-and-projects' }] })
          : original(sql, ...(rest as []));
      const pending = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(pending.statusCode).toBe(503);
      expect(pending.json().checks).toEqual({ postgres: true, redis: true, migrations: false });
      expect(pending.json().error).toMatch(
        /^Not ready: migrations: \d+ pending: 20261121-0002-audits, .*\(run `seo migrate`\)$/,
      );
    } finally {
      (pool as { query: unknown }).query = original;
    }
    expect((await t.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
  });
});

describe('query count', () => {
  /**
   * A key's first use writes its lastUsedAt fire-and-forget. Until that write lands, a request reads no lastUsedAt
   * and writes again: one statement more in whatever is being counted (seen under parallel load).
   */
  const lastUsedAtWritten = async (organizationId: string) => {
    for (let i = 0; i < 100; i++) {
      const { rows } = await t.runtime.pool.query('SELECT last_used_at FROM api_key WHERE organization_id = $1', [
        organizationId,
      ]);
      if (rows.every((r: { last_used_at: Date | null }) => r.last_used_at)) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the warm-up request never wrote lastUsedAt');
  };

  it('listing 20 projects costs the same number of SQL statements as listing 1 (no per-row lookups)', async () => {
    const count = async (n: number) => {
      const org = await anOrg(t, { plan: 'ENTERPRISE' });
      for (let i = 0; i < n; i++) await aProject({ org });
      const key = await anApiKey(org);
      await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: `Bearer ${key}` } });
      await lastUsedAtWritten(org.id);
      t.queries.length = 0;
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/projects',
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.json().projects).toHaveLength(n);
      return t.queries.filter((q) => /\b(select|insert|update|delete)\b/i.test(q)).length;
    };
    const one = await count(1);
    const twenty = await count(20);
    expect(twenty).toBe(one);
    expect(twenty).toBeLessThanOrEqual(6);
  });

  it('a list selecting the counters loads them with the list, in one statement, whatever the selection', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await aProject({ org })).id);
    await t.runtime.pool.query(
      `INSERT INTO keyword (id, project_id, term, term_key, country, language, device)
       VALUES (gen_random_uuid(), $1, 'seo tools', 'seo tools', 'us', 'en', 'desktop'), ` +
        `(gen_random_uuid(), $1, 'crawler', 'crawler', 'us', 'en', 'desktop')`,
      [ids[1]],
    );
    const key = await anApiKey(org);
    const run = async (query: string) => {
      await gql(t, query, {}, { authorization: `Bearer ${key}` });
      await lastUsedAtWritten(org.id);
      t.queries.length = 0;
      const res = await gql(t, query, {}, { authorization: `Bearer ${key}` });
      expect(res.body.errors).toBeUndefined();
      const statements = t.queries.filter((q) => /\b(select|insert|update|delete)\b/i.test(q));
      return {
        projects: res.body.data.projects as { id: string; c?: { keywords: number }; counts?: { keywords: number } }[],
        statements,
      };
    };
    const plain = await run('{ projects { id } }');
    expect(plain.statements.some((q) => /keyword/.test(q))).toBe(false);
    for (const query of [
      '{ projects { id counts { keywords } } }',
      '{ projects { id c: counts { keywords } } }',
      'query { projects { ...P } } fragment P on Project { id counts { keywords } }',
    ]) {
      const listed = await run(query);
      expect(listed.statements).toHaveLength(plain.statements.length + 1);
      expect(listed.projects.map((p) => (p.c ?? p.counts)!.keywords)).toEqual([0, 2, 0]);
      // graphql-js (the /graphql route's executor) gets the same counters from the list resolver, in one statement.
      const ctx = t.runtime.createContext({
        principal: await t.runtime.authenticate({ bearer: key }, 'SURFACE_A'),
        requestId: 'test',
      });
      t.queries.length = 0;
      const executed = await execute({ schema: t.runtime.schema, document: parse(query), contextValue: ctx });
      expect(executed.errors).toBeUndefined();
      const rows = (executed.data as { projects: { c?: { keywords: number }; counts?: { keywords: number } }[] })
        .projects;
      expect(rows.map((p) => (p.c ?? p.counts)!.keywords)).toEqual([0, 2, 0]);
      expect(t.queries.filter((q) => /keyword/.test(q))).toHaveLength(1);
    }
    const single = await gql(
      t,
      'query($id: ID!) { project(id: $id) { counts { keywords } } }',
      { id: ids[1] },
      { authorization: `Bearer ${key}` },
    );
    expect(single.body.data.project.counts.keywords).toBe(2);
    const created = await gql(
      t,
      'mutation { createProject(input: { url: "https://counted.example.com" }) { id counts { audits keywords ' +
        'competitors } } }',
      {},
      { authorization: `Bearer ${key}` },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createProject.counts).toEqual({ audits: 0, keywords: 0, competitors: 0 });
    const renamed = await gql(
      t,
      'mutation($id: ID!) { updateProject(id: $id, input: { name: "Renamed" }) { name counts { keywords } } }',
      { id: ids[1] },
      { authorization: `Bearer ${key}` },
    );
    expect(renamed.body.errors).toBeUndefined();
    expect(renamed.body.data.updateProject).toEqual({ name: 'Renamed', counts: { keywords: 2 } });
  });
});
