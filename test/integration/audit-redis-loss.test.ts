import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { dropDatabase, migratedDatabase, privateDatabaseUrl } from '../support/private-database.js';
import { QUEUES, createQueue, type Queue } from '../../src/platform/queues.js';
import { createRedis, type Redis } from '../../src/platform/redis.js';
import type { AuditJobData } from '../../src/audits/index.js';
import { deliveryJobId, type AlertJobData } from '../../src/alerts/index.js';
import { deleteRedisPrefix } from '../support/redis-keys.js';
import {
  createApiKey,
  createProject,
  createTestApp,
  gql,
  reportQueueError,
  signUp,
  uniq,
  type TestApp,
  type TestUser,
} from '../support/app.js';
import { startWorker, waitFor } from '../support/worker-process.js';
import { generatedSite } from '../fixtures/sites/generated-site.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { anAudit, type Project } from '../factories.js';

/**
 * Redis loses its data (every key of the platform's prefix gone, as after a restart without persistence) while a real
 * audit worker process crawls: the worker's heartbeat in PostgreSQL keeps its sweeper from starting the audit again,
 * so the audit completes once, each page fetched once. A worker killed after the loss still has its audit recovered
 * (its heartbeat goes stale). The alerts of an audit that completes while Redis is down, and a webhook retry that
 * Redis loses, are late, not lost, and sent once (issue 47). The sweeper and the alert reconciler are on here, so
 * these tests use a database of their own: on the shared test database they would adopt other files' audits.
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
  databaseUrl = privateDatabaseUrl('redis_loss');
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

/** A webhook receiver on 127.0.0.1 that answers 500 to the first `failFirst` requests and 200 after. */
async function startReceiver(failFirst = 0) {
  const received: { headers: IncomingHttpHeaders; body: string; answered: number; at: number }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answered = received.length < failFirst ? 500 : 200;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered, at: Date.now() });
      res.writeHead(answered).end(answered === 200 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('alerts when Redis goes away (issue 47)', () => {
  const RECONCILE_MS = 500;
  const RETRY_DELAY_MS = 1_500;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let worker: ReturnType<typeof startWorker>;
  let alerts: Queue<AlertJobData>;

  beforeAll(async () => {
    const direct = new URL(t.config.REDIS_URL);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 6379) });
    const proxied = new URL(t.config.REDIS_URL);
    proxied.host = `127.0.0.1:${proxy.port}`;
    // Every queue of the platform in one process (seo worker), its Redis behind a proxy the test can cut.
    worker = startWorker('all.worker', {
      ...env,
      REDIS_URL: proxied.toString(),
      REDIS_COMMAND_TIMEOUT_MS: '1000',
      REDIS_CONNECT_TIMEOUT_MS: '2000',
      ALERT_RECONCILE_MS: String(RECONCILE_MS),
      ALERT_RETRY_DELAY_MS: String(RETRY_DELAY_MS),
      ALERT_WEBHOOK_ATTEMPTS: '3',
    });
    alerts = createQueue<AlertJobData>(QUEUES.alert, redis, prefix, reportQueueError);
    await waitFor('the worker ready', async () => worker.output.join('').includes('"msg":"worker ready"'), 60_000);
  }, 90_000);
  afterAll(async () => {
    await worker?.stop();
    await alerts?.close();
    await proxy?.close();
  });

  const graphql = async (query: string, variables: Record<string, unknown>) => {
    const { body } = await gql(t, query, variables, { cookie: user.cookie });
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data as Record<string, any>;
  };
  /** A SCORE_DROP rule (1 point) sending to a webhook endpoint at `url`, and a completed audit scoring 100 before. */
  const watch = async (projectId: string, url: string) => {
    await graphql('mutation($p: ID!, $i: AlertRuleInput!) { createAlertRule(projectId: $p, input: $i) { id } }', {
      p: projectId,
      i: { kind: 'SCORE_DROP', category: 'OVERALL', points: 1, channels: ['WEBHOOK'] },
    });
    const created = await graphql(
      `mutation($p: ID!, $i: CreateWebhookEndpointInput!) {
        createWebhookEndpoint(projectId: $p, input: $i) { endpoint { id } } }`,
      { p: projectId, i: { url } },
    );
    return created.createWebhookEndpoint.endpoint.id as string;
  };
  const project = (id: string, url: string): Project => ({
    id,
    url,
    domain: new URL(url).host,
    org: { t, id: user.organizationId, plan: 'ENTERPRISE', owner: user },
  });
  const deliveryLog = async (endpointId: string) =>
    (
      await graphql(
        `query($e: ID!) { webhookDeliveries(endpointId: $e) { totalCount
          nodes { eventId attempt succeeded statusCode status reason nextAttemptAt } } }`,
        { e: endpointId },
      )
    ).webhookDeliveries;
  const eventsOf = async (projectId: string) =>
    (await t.runtime.pool.query('SELECT id FROM alert_event WHERE project_id = $1', [projectId])).rows;

  it('an audit completed while Redis is down: its alert evaluated once, its webhook sent once, late', async () => {
    const site = generatedSite(30, 100);
    const port = await site.listen();
    const receiver = await startReceiver();
    onTestFailed(() => {
      process.stderr.write(`worker output:\n${worker.output.join('').slice(-8000)}\n`);
    });
    try {
      const { auditId, projectId } = await startAudit(port);
      const endpointId = await watch(projectId, receiver.url);
      await anAudit({
        project: project(projectId, `http://127.0.0.1:${port}/`),
        scores: { overall: 100 },
        createdAt: new Date(Date.now() - 3_600_000),
      });
      // The site's own count of requests: the audit row's page count is written in batches, late enough on a fast
      // machine that the 30-page crawl had completed (Redis still up) by the time it read 3.
      await waitFor('the crawl under way', async () => pageHits(site).length >= 3, 60_000, 20);
      proxy.setMode('down');
      const completed = await waitFor(
        'the audit completed with Redis down',
        async () => {
          const r = await auditRow(auditId);
          return r.status === 'COMPLETED' || r.status === 'FAILED' ? r : null;
        },
        60_000,
        100,
      );
      expect(completed.status).toBe('COMPLETED');
      // The worker could not queue the evaluation: the alert queue was unreachable when the audit completed.
      await waitFor('the refused trigger logged', async () =>
        worker.output.join('').includes('"msg":"audit completed:'),
      );
      // Redis stays away a while (several reconciler rounds): nothing can be sent meanwhile.
      await new Promise((r) => setTimeout(r, 4 * RECONCILE_MS));
      expect(receiver.received).toHaveLength(0);
      proxy.setMode('up');

      await waitFor('the webhook, after Redis came back', async () => receiver.received.length >= 1, 30_000);
      // More rounds of the reconciler and of the queue: nothing is evaluated or sent twice.
      await new Promise((r) => setTimeout(r, 6 * RECONCILE_MS));
      expect(receiver.received).toHaveLength(1);
      const payload = JSON.parse(receiver.received[0].body);
      expect(payload).toMatchObject({ type: 'alert.score_drop', alert: { details: { auditId, before: 100 } } });
      expect(await eventsOf(projectId)).toHaveLength(1);
      const log = await deliveryLog(endpointId);
      expect(log.nodes).toEqual([
        expect.objectContaining({
          attempt: 1,
          succeeded: true,
          status: 'DELIVERED',
          reason: null,
          nextAttemptAt: null,
        }),
      ]);
      const evaluation = await t.runtime.pool.query('SELECT state FROM alert_evaluation WHERE audit_id = $1', [
        auditId,
      ]);
      expect(evaluation.rows).toEqual([{ state: 'DONE' }]);
    } finally {
      proxy.setMode('up');
      await receiver.close();
      await site.close();
    }
  }, 120_000);

  it('a webhook retry that Redis loses (its keys deleted between attempts) still happens, late and once', async () => {
    const receiver = await startReceiver(1);
    onTestFailed(() => {
      process.stderr.write(`worker output:\n${worker.output.join('').slice(-8000)}\n`);
    });
    try {
      const created = await createProject(t, user);
      const endpointId = await watch(created.id, receiver.url);
      const p = project(created.id, created.url);
      await anAudit({ project: p, scores: { overall: 90 }, createdAt: new Date(Date.now() - 3_600_000) });
      const head = await anAudit({ project: p, scores: { overall: 40 } });
      // What the audit worker queues when an audit completes.
      await alerts.add(
        'evaluate-audit',
        { kind: 'evaluate-audit', auditId: head.id },
        { jobId: `evaluate-audit-${head.id}` },
      );

      // Attempt 1 is answered 500 and logged; its retry (attempt 2's own job) waits in Redis, delayed. The queue's
      // delayed count alone would not say so: the weekly digest's next run is a delayed job of the same queue.
      const retryJobId = await waitFor(
        'attempt 1 logged and its retry waiting in Redis',
        async () => {
          if (receiver.received.length !== 1) return null;
          const delivery = await t.runtime.pool.query<{ id: string }>(
            'SELECT id FROM alert_delivery WHERE endpoint_id = $1 AND attempts = 1',
            [endpointId],
          );
          if (delivery.rowCount !== 1) return null;
          const jobId = deliveryJobId(delivery.rows[0].id, 2);
          return (await (await alerts.getJob(jobId))?.getState()) === 'delayed' ? jobId : null;
        },
        15_000,
        25,
      );
      // Then Redis loses every key (the reconciler queues the retry again only once it is due, 1.5 s after attempt 1).
      expect(await deleteRedisPrefix(redis, prefix)).toBeGreaterThan(0);
      expect(await alerts.getJob(retryJobId)).toBeUndefined();

      await waitFor('attempt 2, after the loss', async () => receiver.received.length >= 2, 30_000);
      await new Promise((r) => setTimeout(r, RETRY_DELAY_MS + 6 * RECONCILE_MS));
      expect(receiver.received.map((r) => [r.headers['x-delivery-attempt'], r.answered])).toEqual([
        ['1', 500],
        ['2', 200],
      ]);
      expect(new Set(receiver.received.map((r) => r.headers['x-event-id'])).size).toBe(1);
      expect(await eventsOf(created.id)).toHaveLength(1);
      const log = await deliveryLog(endpointId);
      expect(log.nodes.map((d: any) => [d.attempt, d.succeeded, d.status])).toEqual([
        [2, true, 'DELIVERED'],
        [1, false, 'DELIVERED'],
      ]);
    } finally {
      await receiver.close();
    }
  }, 90_000);
});
