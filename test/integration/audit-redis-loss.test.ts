import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { dropDatabase, migratedDatabase } from '../support/private-database.js';
import { QUEUES, createQueue, type Queue } from '../../src/platform/queues.js';
import { createRedis, type Redis } from '../../src/platform/redis.js';
import type { AuditJobData } from '../../src/audits/index.js';
import { TEST_DATABASE_URL } from '../test-database.js';
import { deleteRedisPrefix } from '../support/redis-keys.js';
import {
  createApiKey,
  createProject,
  createTestApp,
  reportQueueError,
  signUp,
  uniq,
  type TestApp,
  type TestUser,
} from '../support/app.js';
import { startWorker, waitFor } from '../support/worker-process.js';
import { generatedSite } from '../fixtures/sites/generated-site.js';

/**
 * Redis loses its data (every key of the platform's prefix gone, as after a restart without persistence) while a real
 * audit worker process crawls: the worker's heartbeat in PostgreSQL keeps its sweeper from starting the audit again,
 * so the audit completes once, each page fetched once. A worker killed after the loss still has its audit recovered
 * (its heartbeat goes stale). The sweeper is on here, so these tests use a database of their own: a sweeper on the
 * shared test database would adopt other files' audits.
 */

const PAGES = 100;
const PAGE_DELAY_MS = 250;
const SWEEP_MS = 500;
const LOCK_MS = 2_000;

let t: TestApp;
let env: Record<string, string>;
let user: TestUser;
let key: string;
let redis: Redis;
let queue: Queue<AuditJobData>;
let databaseUrl: string;
const prefix = `rloss-${uniq()}`;

beforeAll(async () => {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/seo_redis_loss_${uniq()}`;
  databaseUrl = url.toString();
  await migratedDatabase(databaseUrl);
  env = {
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: prefix,
    SAFE_HTTP_ALLOW: '127.0.0.1/32',
    WORKER_LOCK_MS: String(LOCK_MS),
    WORKER_CONCURRENCY: '1',
    AUDIT_HEARTBEAT_MS: '300',
    AUDIT_SWEEP_INTERVAL_MS: String(SWEEP_MS),
    AUDIT_PARSE_THREADS: '0',
  };
  t = await createTestApp(env);
  user = await signUp(t, { plan: 'ENTERPRISE' });
  key = await createApiKey(t, user);
  redis = createRedis(t.config.REDIS_URL, { name: `${prefix}-test` });
  queue = createQueue<AuditJobData>(QUEUES.audit, redis, prefix, reportQueueError);
}, 120_000);

afterAll(async () => {
  await queue?.close();
  await redis?.quit();
  await t?.close();
  await dropDatabase(databaseUrl);
});

interface Row {
  status: string;
  attempts: number;
  pages_crawled: number;
  error: string | null;
  started_at: Date | null;
  heartbeat_at: Date | null;
}
const auditRow = async (id: string) =>
  (
    await t.runtime.pool.query(
      'SELECT status, attempts, pages_crawled, error, started_at, heartbeat_at FROM audit WHERE id = $1',
      [id],
    )
  ).rows[0] as Row;

/** Requests the site served per path, robots.txt and sitemaps aside. */
const pageHits = (site: ReturnType<typeof generatedSite>) =>
  [...site.hits.entries()].filter(([path]) => path === '/' || path.startsWith('/p/'));

async function startAudit(port: number): Promise<{ auditId: string; jobId: string; projectId: string }> {
  const project = await createProject(t, user, `http://127.0.0.1:${port}/`);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/projects/${project.id}/audit`,
    headers: { authorization: `Bearer ${key}` },
  });
  expect(res.statusCode).toBe(202);
  return { ...(res.json() as { auditId: string; jobId: string }), projectId: project.id };
}

/** The crawl is under way and older than the sweeper's grace: a sweeper that did not trust the heartbeat would act. */
async function runningPastGrace(auditId: string): Promise<Row> {
  return waitFor(
    'crawl under way past the sweeper grace',
    async () => {
      const r = await auditRow(auditId);
      return r.status === 'RUNNING' &&
        r.pages_crawled >= 5 &&
        r.started_at &&
        Date.now() - r.started_at.getTime() > LOCK_MS + 200
        ? r
        : null;
    },
    60_000,
    100,
  );
}

describe('an audit whose worker is alive when Redis loses its data', () => {
  let worker: ReturnType<typeof startWorker>;
  beforeAll(() => {
    worker = startWorker('audit.worker', env);
  });
  afterAll(async () => {
    await worker.stop('SIGKILL');
  });

  it('completes once: one attempt, each page fetched once, no job queued again by anyone', async () => {
    const site = generatedSite(PAGES, PAGE_DELAY_MS);
    const port = await site.listen();
    onTestFailed(() => {
      process.stderr.write(`worker output:\n${worker.output.join('').slice(-6000)}\n`);
    });
    try {
      const { auditId, jobId, projectId } = await startAudit(port);
      const before = await runningPastGrace(auditId);
      expect(before.heartbeat_at, 'the worker beats').not.toBeNull();
      expect(Date.now() - before.heartbeat_at!.getTime()).toBeLessThan(900);

      const lostAt = Date.now();
      expect(await deleteRedisPrefix(redis, prefix)).toBeGreaterThan(0);
      expect(await queue.getJob(jobId)).toBeUndefined();
      // Starting the project's audit again returns the running one without adding its job back.
      const again = await t.app.inject({
        method: 'POST',
        url: `/api/v1/projects/${projectId}/audit`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(again.json()).toMatchObject({ auditId, jobId });

      const done = await waitFor(
        'audit completed',
        async () => {
          const r = await auditRow(auditId);
          return r.status === 'COMPLETED' || r.status === 'FAILED' ? r : null;
        },
        60_000,
        100,
      );
      // The loss came well before the end: several sweeps ran while the job was missing.
      expect(Date.now() - lostAt).toBeGreaterThan(3 * SWEEP_MS);
      // A few more sweeps after the end: nothing starts the audit again.
      await new Promise((r) => setTimeout(r, 4 * SWEEP_MS));
      expect(await auditRow(auditId)).toMatchObject({
        status: 'COMPLETED',
        attempts: 1,
        pages_crawled: PAGES,
        error: null,
      });
      expect(done.attempts).toBe(1);
      const hits = pageHits(site);
      expect(hits).toHaveLength(PAGES);
      expect(hits.filter(([, n]) => n !== 1)).toEqual([]);
      const stored = await t.runtime.pool.query(
        'SELECT count(*)::int AS n, count(DISTINCT url)::int AS d FROM audit_page WHERE audit_id = $1',
        [auditId],
      );
      expect(stored.rows[0]).toEqual({ n: PAGES, d: PAGES });
      expect(await queue.getJob(jobId)).toBeUndefined();

      const log = worker.output.join('');
      expect(log).toMatch(new RegExp(`"auditId":"${auditId}","result":"completed".*"msg":"audit finished"`));
      expect(log).toContain('the queue lost a running audit job; PostgreSQL keeps the audit');
      expect(log).not.toContain('audit sweeper repaired audits');
      expect(log).not.toContain('audit attempt failed');
      expect(log).not.toMatch(/"level":(50|60)/);
    } finally {
      await site.close();
    }
  }, 90_000);

  it('a worker killed after the loss: its heartbeat goes stale and the sweeper has the audit run again', async () => {
    const site = generatedSite(40, 150);
    const port = await site.listen();
    let second: ReturnType<typeof startWorker> | null = null;
    onTestFailed(() => {
      process.stderr.write(`second worker output:\n${second?.output.join('').slice(-6000)}\n`);
    });
    try {
      const { auditId } = await startAudit(port);
      await runningPastGrace(auditId);
      await deleteRedisPrefix(redis, prefix);
      worker.child.kill('SIGKILL');
      await worker.stop();
      second = startWorker('audit.worker', env);
      const done = await waitFor(
        'audit completed by the second worker',
        async () => {
          const r = await auditRow(auditId);
          return r.status === 'COMPLETED' || r.status === 'FAILED' ? r : null;
        },
        60_000,
        200,
      );
      expect(done).toMatchObject({ status: 'COMPLETED', attempts: 2, pages_crawled: 40 });
      expect(second.output.join('')).toContain('audit sweeper repaired audits');
      const stored = await t.runtime.pool.query(
        'SELECT count(*)::int AS n, count(DISTINCT url)::int AS d FROM audit_page WHERE audit_id = $1',
        [auditId],
      );
      expect(stored.rows[0]).toEqual({ n: 40, d: 40 });
    } finally {
      await second?.stop('SIGKILL');
      await site.close();
    }
  }, 90_000);
});
