import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniq, type TestApp } from '../support/app.js';
import { anApiKey, anOrg } from '../factories.js';
import { startWorker, waitFor } from '../support/worker-process.js';
import { generatedSite } from '../fixtures/sites/generated-site.js';

/** What a worker process does shows in the API's /metrics (the worker itself serves nothing). */
let t: TestApp;
let env: Record<string, string>;
const host = `metrics-${uniq()}.test`;
const METRICS_TOKEN = `metrics-${uniq()}-${uniq()}`;

beforeAll(async () => {
  env = {
    REDIS_PREFIX: `metrics-${uniq()}`,
    SAFE_HTTP_ALLOW: '127.0.0.1/32',
    SAFE_HTTP_RESOLVE: `${host}=127.0.0.1`,
    METRICS_TOKEN,
    WORKER_CONCURRENCY: '1',
  };
  t = await createTestApp(env);
});
afterAll(() => t.close());

const series = (body: string, name: string) => {
  const m = new RegExp(`^${name.replace(/[{}"+.]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(body);
  return m ? Number(m[1]) : undefined;
};

describe('metrics of worker processes', () => {
  it(
    'pages crawled, the job duration and the audit status of a real worker process (every queue, as npm start ' +
      'runs it) reach /metrics',
    async () => {
      const site = generatedSite(5, 0);
      const port = await site.listen();
      const worker = startWorker('all.worker', env);
      try {
        await waitFor(
          'worker ready',
          async () =>
            /"queues":\["audit","rank","competitor","alert"\].*"msg":"worker ready"/.test(worker.output.join('')),
          60_000,
          100,
        );
        const org = await anOrg(t, { plan: 'ENTERPRISE' });
        const key = await anApiKey(org);
        const created = await t.app.inject({
          method: 'POST',
          url: '/api/projects',
          headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
          payload: { url: `http://${host}:${port}/` },
        });
        const projectId = created.json().project.id as string;
        const started = await t.app.inject({
          method: 'POST',
          url: `/api/v1/projects/${projectId}/audit`,
          headers: { authorization: `Bearer ${key}` },
        });
        expect(started.statusCode).toBe(202);
        const { auditId } = started.json();
        await waitFor(
          'audit completed',
          async () => {
            const { rows } = await t.runtime.pool.query('SELECT status FROM audit WHERE id = $1', [auditId]);
            return rows[0]?.status === 'COMPLETED';
          },
          90_000,
          250,
        );
        const body = await waitFor(
          'worker metrics flushed',
          async () => {
            const b = (
              await t.app.inject({
                method: 'GET',
                url: '/metrics',
                headers: { authorization: `Bearer ${METRICS_TOKEN}` },
              })
            ).body;
            return series(b, 'seo_job_duration_seconds_count{outcome="completed",queue="audit"}') === 1 ? b : null;
          },
          30_000,
          250,
        );
        expect(series(body, 'seo_pages_crawled_total')).toBe(5);
        expect(series(body, 'seo_job_duration_seconds_bucket{outcome="completed",queue="audit",le="+Inf"}')).toBe(1);
        expect(series(body, 'seo_job_duration_seconds_sum{outcome="completed",queue="audit"}')).toBeGreaterThan(0);
        expect(series(body, 'seo_audits{status="COMPLETED"}')).toBeGreaterThanOrEqual(1);
        expect(series(body, 'seo_queue_jobs{queue="audit",state="waiting"}')).toBe(0);
        expect(series(body, 'seo_queue_jobs{queue="audit",state="active"}')).toBe(0);
        // Every queue's depth is served, the competitor queue's included.
        for (const queue of ['rank', 'competitor'])
          expect(series(body, `seo_queue_jobs{queue="${queue}",state="waiting"}`), queue).toBe(0);
        expect(series(body, 'seo_metrics_source_up{source="redis_counters"}')).toBe(1);
      } finally {
        await worker.stop();
        await site.close();
      }
    },
    120_000,
  );
});
