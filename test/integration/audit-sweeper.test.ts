import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnrecoverableError } from 'bullmq';
import { QUEUES, createQueue, createWorker, type Queue } from '../../src/platform/queues.js';
import { createRedis, type Redis } from '../../src/platform/redis.js';
import { AuditSweeper, DEFAULT_MAX_RUNS, type AuditJobData } from '../../src/audits/index.js';
import { AuditResultsRepository } from '../../src/audits/audit-results.repository.js';
import { createTestApp, uniq, type TestApp, reportQueueError } from '../support/app.js';
import { dropDatabase, migratedDatabase, privateDatabaseUrl } from '../support/private-database.js';
import { anApiKey, anOrg, aProject, type Org } from '../factories.js';

/**
 * The audit sweeper against a real BullMQ queue: audits whose job Redis lost (or whose job ended without the audit
 * learning of it) are queued again under the same job id, or failed with a reason; GET /api/v1/jobs/:id then tells
 * the truth. No worker runs here, so a queued job stays waiting.
 *
 * The sweeper reads every active audit of its database, so this file has a database of its own: on the suite's, its
 * sweeps requeued other files' running audits (their jobs are in other Redis prefixes, so "missing" here), and those
 * audits' runs stopped as cancelled (CI, audit-external-progress.test.ts: "expected 'cancelled' to be 'completed'").
 */

let t: TestApp;
let org: Org;
let key: string;
let redis: Redis;
let queue: Queue<AuditJobData>;
let sweeper: AuditSweeper;
const prefix = `sweep-${uniq()}`;
const GRACE_MS = 5_000;
const HEARTBEAT_GRACE_MS = 3_000;
const databaseUrl = privateDatabaseUrl('sweeper');

beforeAll(async () => {
  await migratedDatabase(databaseUrl);
  t = await createTestApp({ REDIS_PREFIX: prefix, DATABASE_URL: databaseUrl });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  key = await anApiKey(org);
  redis = createRedis(t.config.REDIS_URL, { name: 'sweeper-test' });
  queue = createQueue<AuditJobData>(QUEUES.audit, redis, prefix, reportQueueError);
  sweeper = new AuditSweeper(t.runtime.orm, queue, redis, {
    prefix,
    graceMs: GRACE_MS,
    heartbeatGraceMs: HEARTBEAT_GRACE_MS,
    logger: t.runtime.logger,
  });
});
afterAll(async () => {
  await queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  await redis.quit();
  await t.close();
  await dropDatabase(databaseUrl);
});

const bearer = () => ({ authorization: `Bearer ${key}` });

/** A project with an audit started through the API (its job waits in the queue). */
async function startAudit(): Promise<{ auditId: string; jobId: string }> {
  const project = await aProject({ org });
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/projects/${project.id}/audit`, headers: bearer() });
  expect(res.statusCode).toBe(202);
  return res.json();
}

/** What a worker that started the audit long ago (and then vanished, or lost Redis) leaves in PostgreSQL. */
async function claimedLongAgo(auditId: string, attempts = 1): Promise<void> {
  await t.runtime.pool.query(
    `UPDATE audit SET status = 'RUNNING', phase = 'CRAWLING', attempts = $2, started_at = now() - ` +
      `interval '1 hour', pages_crawled = 12, pages_queued = 30 WHERE id = $1`,
    [auditId, attempts],
  );
}

const row = async (auditId: string) =>
  (
    await t.runtime.pool.query('SELECT status, phase, error, attempts, completed_at FROM audit WHERE id = $1', [
      auditId,
    ])
  ).rows[0] as {
    status: string;
    phase: string | null;
    error: string | null;
    attempts: number;
    completed_at: Date | null;
  };
const jobView = async (jobId: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${jobId}`, headers: bearer() })).json().job;

describe('audit sweeper', () => {
  it('requeues a RUNNING audit whose job was lost, under the same job id, once', async () => {
    const { auditId, jobId } = await startAudit();
    await claimedLongAgo(auditId);
    await queue.remove(jobId); // Redis restarted without its data
    expect(await queue.getJob(jobId)).toBeUndefined();
    expect((await jobView(jobId)).state).toBe('running'); // the lie the finding describes

    const report = await sweeper.sweep();
    expect(report.requeued).toContain(auditId);
    const job = await queue.getJob(jobId);
    expect(job?.data).toEqual({ auditId });
    expect(await job?.getState()).toBe('waiting');
    expect(job?.opts.attempts).toBe(3);
    expect(await row(auditId)).toMatchObject({ status: 'QUEUED', phase: null, attempts: 1 });
    expect((await row(auditId)).error).toMatch(/job was lost/);
    expect(await jobView(jobId)).toMatchObject({ state: 'queued', auditId });

    // Idempotent: a second sweep finds a queued audit with a waiting job and leaves it.
    const again = await sweeper.sweep();
    expect([...again.requeued, ...again.failed, ...again.corrected]).not.toContain(auditId);
    expect(await (await queue.getJob(jobId))?.getState()).toBe('waiting');
  });

  it('fails, with a reason, an audit that lost its job after too many runs', async () => {
    const { auditId, jobId } = await startAudit();
    await claimedLongAgo(auditId, DEFAULT_MAX_RUNS);
    await queue.remove(jobId);
    const report = await sweeper.sweep();
    expect(report.failed).toContain(auditId);
    const r = await row(auditId);
    expect(r).toMatchObject({ status: 'FAILED', phase: null });
    expect(r.error).toMatch(/interrupted 8 times/);
    expect(r.completed_at).not.toBeNull();
    expect(await queue.getJob(jobId)).toBeUndefined();
    expect(await jobView(jobId)).toMatchObject({ state: 'failed', error: r.error });
  });

  it('shows as QUEUED a RUNNING audit whose job waits for a worker (its worker died)', async () => {
    const { auditId, jobId } = await startAudit();
    await claimedLongAgo(auditId);
    const report = await sweeper.sweep();
    expect(report.corrected).toContain(auditId);
    expect(await row(auditId)).toMatchObject({ status: 'QUEUED', attempts: 1 });
    expect(await (await queue.getJob(jobId))?.getState()).toBe('waiting');
  });

  it('leaves alone an audit younger than the grace period, and one whose attempt changed meanwhile', async () => {
    const { auditId, jobId } = await startAudit();
    await queue.remove(jobId);
    await t.runtime.pool.query(
      `UPDATE audit SET status = 'RUNNING', phase = 'CRAWLING', attempts = 1, started_at = now() WHERE id = $1`,
      [auditId],
    );
    const report = await sweeper.sweep();
    expect([...report.requeued, ...report.failed, ...report.corrected]).not.toContain(auditId);
    expect((await row(auditId)).status).toBe('RUNNING');
    // Clean up for the next test: an old claim would be swept.
    await t.runtime.pool.query(
      `UPDATE audit SET status = 'CANCELLED', phase = NULL, completed_at = now() WHERE id = $1`,
      [auditId],
    );
  });

  it('fails an audit whose job failed while PostgreSQL could not record it, with the job’s reason', async () => {
    const { auditId, jobId } = await startAudit();
    // Drain the queue of the earlier tests' jobs, then fail this one as a worker would have.
    const worker = createWorker<AuditJobData>(
      QUEUES.audit,
      async (job) => {
        if (job.id === jobId) throw new UnrecoverableError('robots.txt could not be parsed');
        return 'ignored';
      },
      { redisUrl: t.config.REDIS_URL, prefix, onError: reportQueueError },
    );
    try {
      for (let i = 0; i < 100 && (await (await queue.getJob(jobId))?.getState()) !== 'failed'; i++)
        await new Promise((r) => setTimeout(r, 100));
    } finally {
      await worker.close();
    }
    expect(await (await queue.getJob(jobId))?.getState()).toBe('failed');
    await claimedLongAgo(auditId);
    const report = await sweeper.sweep();
    expect(report.failed).toContain(auditId);
    expect(await row(auditId)).toMatchObject({
      status: 'FAILED',
      error: 'The audit failed: robots.txt could not be parsed',
    });
  });

  it('makes final, without them, a readable audit whose worker died while its external checks went on', async () => {
    const { auditId, jobId } = await startAudit();
    const counts = {
      urlsCrawled: 3,
      htmlPages: 3,
      indexablePages: 3,
      externalLinks: { found: 40, checked: 0, couldNotCheck: 0, pending: 40 },
      resources: { found: 0, checked: 0 },
      labPages: { measured: 0, eligible: 3 },
    };
    // What a worker leaves when it dies after the readable completion: COMPLETED, not final, its heartbeat old.
    await t.runtime.pool.query(
      `UPDATE audit SET status = 'COMPLETED', attempts = 1, started_at = now() - interval '1 hour',
         completed_at = now() - interval '50 minutes', heartbeat_at = now() - interval '50 minutes',
         external_links_final = false, counts = $2::jsonb, overall_score = 80 WHERE id = $1`,
      [auditId, JSON.stringify(counts)],
    );
    await queue.remove(jobId);
    const owed = async () =>
      (await t.runtime.pool.query('SELECT 1 FROM alert_evaluation WHERE audit_id = $1', [auditId])).rowCount;
    expect(await owed()).toBe(0);

    const report = await sweeper.sweep();
    expect(report.finalized).toEqual([auditId]);
    const { rows } = await t.runtime.pool.query(
      'SELECT status, external_links_final AS final, counts FROM audit WHERE id = $1',
      [auditId],
    );
    expect(rows[0]).toMatchObject({ status: 'COMPLETED', final: true });
    expect(rows[0].counts.externalLinks).toMatchObject({ pending: 0, workerStopped: 40 });
    // Its alerts are owed from the same commit; GraphQL says why the 40 have no verdict.
    expect(await owed()).toBe(1);
    const projectId = (await t.runtime.pool.query('SELECT project_id FROM audit WHERE id = $1', [auditId])).rows[0]
      .project_id as string;
    const q = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...bearer(), 'content-type': 'application/json' },
      payload: {
        query:
          'query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { externalLinksFinal ' +
          'counts { externalLinks { pending workerStopped notTried } } } }',
        variables: { p: projectId, a: auditId },
      },
    });
    expect(q.json().data.audit).toEqual({
      externalLinksFinal: true,
      counts: { externalLinks: { pending: 0, workerStopped: 40, notTried: 40 } },
    });
    // Once: a second sweep has nothing to do.
    expect((await sweeper.sweep()).finalized).toEqual([]);
  });

  it('leaves alone a readable audit whose worker still beats', async () => {
    const { auditId } = await startAudit();
    await t.runtime.pool.query(
      `UPDATE audit SET status = 'COMPLETED', attempts = 1, completed_at = now(), heartbeat_at = now(),
         external_links_final = false WHERE id = $1`,
      [auditId],
    );
    expect((await sweeper.sweep()).finalized).not.toContain(auditId);
    const { rows } = await t.runtime.pool.query('SELECT external_links_final AS final FROM audit WHERE id = $1', [
      auditId,
    ]);
    expect(rows[0].final).toBe(false);
  });

  it('sweeps once at a time across processes (a Redis lock)', async () => {
    const other = new AuditSweeper(t.runtime.orm, queue, redis, {
      prefix,
      graceMs: GRACE_MS,
      heartbeatGraceMs: HEARTBEAT_GRACE_MS,
      logger: t.runtime.logger,
    });
    const [a, b] = await Promise.all([sweeper.sweepOnce(2_000), other.sweepOnce(2_000)]);
    expect([a, b].filter((r) => r === null)).toHaveLength(1);
    await redis.del(`${prefix}:audit-sweeper:lock`);
  });
});

describe('audit sweeper and the heartbeat of a running audit', () => {
  const repo = new AuditResultsRepository();
  const heartbeatOf = async (auditId: string) =>
    (await t.runtime.pool.query('SELECT heartbeat_at FROM audit WHERE id = $1', [auditId])).rows[0]
      .heartbeat_at as Date | null;
  /** The audit's worker beat `ageMs` ago (a real write of attempt 1's heartbeat, then aged in place). */
  async function beat(auditId: string, ageMs: number): Promise<void> {
    expect(await repo.writeHeartbeat(t.runtime.orm.em.fork(), { auditId, attempt: 1 })).toBe(true);
    await t.runtime.pool.query(
      `UPDATE audit SET heartbeat_at = heartbeat_at - make_interval(secs => $2::float / 1000) WHERE id = $1`,
      [auditId, ageMs],
    );
  }
  const cancel = (auditId: string) =>
    t.runtime.pool.query(`UPDATE audit SET status = 'CANCELLED', phase = NULL, completed_at = now() WHERE id = $1`, [
      auditId,
    ]);

  it('leaves a RUNNING audit whose heartbeat is fresh alone, its job missing (Redis restarted empty)', async () => {
    const { auditId, jobId } = await startAudit();
    await claimedLongAgo(auditId);
    await beat(auditId, 0);
    await queue.remove(jobId);

    const report = await sweeper.sweep();
    expect([...report.requeued, ...report.failed, ...report.corrected]).not.toContain(auditId);
    expect(await row(auditId)).toMatchObject({ status: 'RUNNING', phase: 'CRAWLING', attempts: 1, error: null });
    expect(await queue.getJob(jobId)).toBeUndefined();

    // Its job waiting (a lock that expired) or failed (stalled too often) changes nothing while the worker beats.
    await queue.add('audit', { auditId }, { jobId });
    const again = await sweeper.sweep();
    expect([...again.requeued, ...again.failed, ...again.corrected]).not.toContain(auditId);
    expect((await row(auditId)).status).toBe('RUNNING');
    await queue.remove(jobId);
    await cancel(auditId);
  });

  it('requeues, as before, a RUNNING audit whose heartbeat went stale (its worker died with the job)', async () => {
    const { auditId, jobId } = await startAudit();
    await claimedLongAgo(auditId);
    await beat(auditId, HEARTBEAT_GRACE_MS + 1_000);
    await queue.remove(jobId);

    const report = await sweeper.sweep();
    expect(report.requeued).toContain(auditId);
    expect(await row(auditId)).toMatchObject({ status: 'QUEUED', attempts: 1 });
    expect(await (await queue.getJob(jobId))?.getState()).toBe('waiting');
    await queue.remove(jobId);
    await cancel(auditId);
  });

  it('takes no heartbeat from a stale worker: not for a later attempt, not for a finished audit', async () => {
    const { auditId, jobId } = await startAudit();
    await queue.remove(jobId);
    await claimedLongAgo(auditId, 2); // attempt 2 claimed the audit; attempt 1's worker still runs
    const em = t.runtime.orm.em.fork();
    expect(await repo.writeHeartbeat(em, { auditId, attempt: 1 })).toBe(false);
    expect(await heartbeatOf(auditId)).toBeNull();
    // So attempt 1 cannot keep attempt 2's audit from the sweeper once attempt 2's worker is gone.
    expect((await sweeper.sweep()).requeued).toContain(auditId);
    await queue.remove(jobId);

    await claimedLongAgo(auditId, 2);
    expect(await repo.writeHeartbeat(em, { auditId, attempt: 2 })).toBe(true);
    const written = await heartbeatOf(auditId);
    expect(Date.now() - written!.getTime()).toBeLessThan(5_000);

    await cancel(auditId);
    expect(await repo.writeHeartbeat(em, { auditId, attempt: 2 })).toBe(false);
    expect(await heartbeatOf(auditId)).toEqual(written);
  });

  it('POST …/audit re-adds the lost job of a QUEUED audit, not a RUNNING one’s (its worker may be alive)', async () => {
    const { auditId, jobId } = await startAudit();
    const projectId = (await t.runtime.pool.query('SELECT project_id FROM audit WHERE id = $1', [auditId])).rows[0]
      .project_id as string;
    const post = () => t.app.inject({ method: 'POST', url: `/api/v1/projects/${projectId}/audit`, headers: bearer() });

    await queue.remove(jobId);
    const queued = await post();
    expect(queued.json()).toMatchObject({ auditId, jobId });
    expect(await (await queue.getJob(jobId))?.getState()).toBe('waiting');

    await claimedLongAgo(auditId);
    await beat(auditId, 0);
    await queue.remove(jobId);
    const running = await post();
    expect(running.json()).toMatchObject({ auditId, jobId });
    expect(await queue.getJob(jobId)).toBeUndefined();
    await cancel(auditId);
  });
});
