import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { QUEUES, createQueue, type Queue } from '../../src/platform/queues.js';
import { createRedis, type Redis } from '../../src/platform/redis.js';
import { createTestApp, gql, setPlan, uniq, type TestApp, reportQueueError } from '../support/app.js';
import { anApiKey, anAudit, anOrg, aProject, type Org } from '../factories.js';
import { startWorker, waitFor } from '../support/worker-process.js';
import { generatedSite } from '../fixtures/sites/generated-site.js';

/**
 * Cancelling audits: a running crawl of a slow local site is cancelled through GraphQL and both REST surfaces (and by
 * deleting its project), with a real worker process; then the access rules of the REST routes.
 */

let t: TestApp;
let env: Record<string, string>;
let org: Org;
let key: string;
let redis: Redis;
let queue: Queue;
const host = `cancel-${uniq()}.test`;

beforeAll(async () => {
  env = {
    REDIS_PREFIX: `cancel-${uniq()}`,
    SAFE_HTTP_ALLOW: '127.0.0.1/32',
    SAFE_HTTP_RESOLVE: `${host}=127.0.0.1`,
    WORKER_LOCK_MS: '5000',
    WORKER_CONCURRENCY: '1',
  };
  t = await createTestApp(env);
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  key = await anApiKey(org);
  redis = createRedis(t.config.REDIS_URL, { name: 'cancel-test' });
  queue = createQueue(QUEUES.audit, redis, env.REDIS_PREFIX, reportQueueError);
});
afterAll(async () => {
  await queue.close();
  await redis.quit();
  await t.close();
});

const bearer = (k = key) => ({ authorization: `Bearer ${k}` });
const session = (u: { cookie: string } = org.owner) => ({ cookie: u.cookie, origin: t.config.baseUrl });

const auditRow = async (id: string) =>
  (
    await t.runtime.pool.query('SELECT status, phase, pages_crawled, error, completed_at FROM audit WHERE id = $1', [
      id,
    ])
  ).rows[0] as
    | { status: string; phase: string | null; pages_crawled: number; error: string | null; completed_at: Date | null }
    | undefined;
const stored = async (auditId: string) =>
  (
    await t.runtime.pool.query(
      'SELECT (SELECT count(*) FROM audit_page WHERE audit_id = $1)::int AS pages, (SELECT count(*) FROM ' +
        'issue_occurrence WHERE audit_id = $1)::int AS occurrences',
      [auditId],
    )
  ).rows[0] as { pages: number; occurrences: number };

describe('cancelling a running audit (real worker process, slow fixture site)', () => {
  let worker: ReturnType<typeof startWorker>;
  beforeAll(() => {
    worker = startWorker('audit.worker', env);
  });
  afterAll(async () => {
    await worker.stop();
  });

  /**
   * Starts an audit of a 400-page site answering each request after 250 ms, waits until the crawl is under way, calls
   * `cancel`, and checks what a user would notice: the audit is CANCELLED at once, the job ends as cancelled (not
   * failed), no request reaches the site later than a second after the cancel's response, and the pages crawled so
   * far stay (or, for a deleted project, everything is gone).
   */
  async function cancelRunningAudit(
    label: string,
    cancel: (projectId: string, auditId: string) => Promise<void>,
    opts: { deleted?: boolean; site?: ReturnType<typeof generatedSite>; ready?: () => boolean; busyWith?: RegExp } = {},
  ) {
    const site = opts.site ?? generatedSite(400, 250);
    const port = await site.listen();
    try {
      const projectId = (await aProject({ org, url: `http://${host}:${port}/` })).id;
      const started = await t.app.inject({
        method: 'POST',
        url: `/api/v1/projects/${projectId}/audit`,
        headers: bearer(),
      });
      expect(started.statusCode, label).toBe(202);
      const { auditId, jobId } = started.json();

      await waitFor(
        `${label}: crawl under way`,
        async () => ((await auditRow(auditId))?.pages_crawled ?? 0) >= 3 && (opts.ready?.() ?? true),
        60_000,
        50,
      );
      // A running audit reports its phase.
      const running = await gql(
        t,
        'query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { status phase } }',
        { p: projectId, a: auditId },
        session(),
      );
      expect(running.body.data.audit, label).toEqual({ status: 'RUNNING', phase: 'CRAWLING' });
      const crawledBefore = (await auditRow(auditId))!.pages_crawled;

      const busy = opts.busyWith
        ? site.arrivals.filter((a) => opts.busyWith!.test(a.path) && a.at > Date.now() - 1500).length
        : null;
      await cancel(projectId, auditId);
      const cancelledAt = Date.now();
      // The stop landed in the phase meant: requests of it were under way just before.
      if (busy !== null) expect(busy, `${label}: requests of the phase before the stop`).toBeGreaterThan(0);
      if (!opts.deleted) {
        const row = (await auditRow(auditId))!;
        expect(row, label).toMatchObject({
          status: 'CANCELLED',
          phase: null,
          error: opts.deleted ? expect.any(String) : 'Cancelled by a user.',
        });
        expect(row.completed_at, label).toBeInstanceOf(Date);
      } else {
        expect(await auditRow(auditId), label).toBeUndefined();
      }

      // The job ends as a job that returned 'cancelled': not failed, not retried.
      const job = await waitFor(
        `${label}: the job to finish`,
        // The state first, then the job: a job read before it completed carries no return value yet.
        async () => ((await queue.getJobState(jobId)) === 'completed' ? queue.getJob(jobId) : null),
        20_000,
        50,
      );
      expect(job.returnvalue, `${label}\n${worker.output.join('').slice(-3000)}`).toEqual({ result: 'cancelled' });
      expect(job.failedReason, label).toBeFalsy();
      expect(job.attemptsMade, label).toBe(1);
      const jobEndMs = (job.finishedOn ?? 0) - cancelledAt;

      // Anything still to come would come now.
      await new Promise((r) => setTimeout(r, 1500));
      const last = Math.max(...site.arrivals.map((a) => a.at));
      const late = site.arrivals.filter((a) => a.at > cancelledAt + 1000);
      if (process.env.CANCEL_TIMING_DEBUG) {
        process.stderr.write(
          `${label}: last request ${last - cancelledAt} ms after the cancel response; job ` +
            `ended ${jobEndMs} ms after it; ${site.arrivals.length} requests\n`,
        );
      }
      expect(late, `${label}: requests more than 1 s after the cancel`).toEqual([]);
      expect(jobEndMs, label).toBeLessThan(3000);

      const kept = await stored(auditId);
      if (opts.deleted) {
        expect(kept, label).toEqual({ pages: 0, occurrences: 0 });
        return;
      }
      // The pages crawled before the cancel are kept, and the audit says how many.
      expect(kept.pages, label).toBeGreaterThanOrEqual(crawledBefore);
      expect(kept.occurrences, label).toBeGreaterThan(0);
      expect((await auditRow(auditId))!.pages_crawled, label).toBe(kept.pages);
      const jobView = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${jobId}`, headers: bearer() });
      expect(jobView.json().job, label).toMatchObject({
        state: 'cancelled',
        auditId,
        error: 'Cancelled by a user.',
        progress: { pagesCrawled: kept.pages, pagesQueued: 0 },
      });
      const explorer = await gql(
        t,
        'query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { status phase pages(first: 100) { ' +
          'totalCount } } }',
        { p: projectId, a: auditId },
        session(),
      );
      expect(explorer.body.data.audit, label).toEqual({
        status: 'CANCELLED',
        phase: null,
        pages: { totalCount: kept.pages },
      });
    } finally {
      await site.close();
    }
  }

  it('through GraphQL (the dashboard session), without naming the audit', async () => {
    await cancelRunningAudit('GraphQL', async (projectId, auditId) => {
      const res = await gql(
        t,
        'mutation($p: ID!) { cancelAudit(projectId: $p) { id status phase error completedAt } }',
        { p: projectId },
        session(),
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.cancelAudit).toEqual({
        id: auditId,
        status: 'CANCELLED',
        phase: null,
        error: 'Cancelled by a user.',
        completedAt: expect.any(String),
      });
    });
  }, 90_000);

  it('through Surface A: POST /api/v1/projects/:projectId/audit/cancel?auditId=', async () => {
    await cancelRunningAudit('Surface A', async (projectId, auditId) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/projects/${projectId}/audit/cancel?auditId=${auditId}`,
        headers: bearer(),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        message: 'Audit cancelled',
        audit: expect.objectContaining({
          id: auditId,
          status: 'CANCELLED',
          pagesCrawled: expect.any(Number),
          overallScore: null,
        }),
      });
    });
  }, 90_000);

  it('through Surface B: POST /api/projects/:id/audit/cancel', async () => {
    await cancelRunningAudit('Surface B', async (projectId, auditId) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/projects/${projectId}/audit/cancel`,
        headers: session(),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        message: 'Audit cancelled',
        audit: expect.objectContaining({ id: auditId, status: 'CANCELLED' }),
      });
    });
  }, 90_000);

  it('by deleting the project: the same stop, and nothing of the audit left', async () => {
    await cancelRunningAudit(
      'delete project',
      async (projectId) => {
        const res = await t.app.inject({ method: 'DELETE', url: `/api/projects/${projectId}`, headers: session() });
        expect(res.json()).toEqual({ success: true });
      },
      { deleted: true },
    );
  }, 90_000);

  it('by deleting the project while resources are checked after the last page: the checks stop too', async () => {
    // 20 quick pages, 6 slow scripts each: the 120 checks (4 at a time, 0.7 s each) run in the request slots after the
    // pages.
    const site = generatedSite(20, 0, { scriptsPerPage: 6, scriptDelayMs: 700 });
    const pagesServed = () =>
      [...site.hits.keys()].filter((path) => path === '/' || path.startsWith('/p/')).length === 20;
    const scriptsAsked = () => site.arrivals.filter((a) => a.path.startsWith('/js/')).length >= 8;
    await cancelRunningAudit(
      'delete in the resource checks',
      async (projectId) => {
        const res = await t.app.inject({ method: 'DELETE', url: `/api/projects/${projectId}`, headers: session() });
        expect(res.json()).toEqual({ success: true });
      },
      { deleted: true, site, ready: () => pagesServed() && scriptsAsked(), busyWith: /^\/js\// },
    );
  }, 90_000);

  it('a completed audit has no phase', async () => {
    const site = generatedSite(3, 0);
    const port = await site.listen();
    try {
      const projectId = (await aProject({ org, url: `http://${host}:${port}/p/1` })).id;
      const { auditId } = (
        await t.app.inject({ method: 'POST', url: `/api/v1/projects/${projectId}/audit`, headers: bearer() })
      ).json();
      await waitFor('audit completed', async () => (await auditRow(auditId))?.status === 'COMPLETED', 60_000, 100);
      const res = await gql(t, 'query($p: ID!) { audit(projectId: $p) { status phase } }', { p: projectId }, session());
      expect(res.body.data.audit).toEqual({ status: 'COMPLETED', phase: null });
    } finally {
      await site.close();
    }
  }, 90_000);
});

describe('cancel routes: access rules and bad input', () => {
  let projectId: string;
  /** A queued audit (no worker runs in this block), as POST .../audit makes it. */
  const queued = async (p = projectId, u = org.owner) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/projects/${p}/audit`, headers: session(u) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { auditId: string; jobId: string };
  };
  const insertAudit = async (p: string, status: 'COMPLETED' | 'FAILED') => {
    const hourAgo = new Date(Date.now() - 3_600_000);
    const audit = await anAudit({
      project: { org, id: p },
      status,
      scores: status === 'COMPLETED' ? { overall: 77 } : null,
      pages: 5,
      createdAt: hourAgo,
      completedAt: hourAgo,
    });
    return audit.id;
  };
  const A = (p: string, query = '', headers: Record<string, string> = bearer(), payload?: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${p}/audit/cancel${query}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const B = (p: string, query = '', headers: Record<string, string> = session(), payload?: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/projects/${p}/audit/cancel${query}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    projectId = (await aProject({ org })).id;
  });

  it('cancels a queued audit and removes its job; cancel again: 404 without auditId, the audit with it', async () => {
    const { auditId, jobId } = await queued();
    expect(await queue.getJob(jobId)).toBeDefined();
    const res = await A(projectId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: 'Audit cancelled',
      audit: {
        id: auditId,
        overallScore: null,
        metaScore: null,
        contentScore: null,
        linksScore: null,
        technicalScore: null,
        performanceScore: null,
        pagesCrawled: 0,
        pagesFailed: 0,
        pagesDiscovered: null,
        truncated: false,
        externalLinksFinal: true,
        externalLinksChecked: 0,
        externalLinksFound: 0,
        status: 'CANCELLED',
        error: 'Cancelled by a user.',
        // Counted and judged when an audit completes: a cancelled one has neither.
        counts: null,
        blockers: [],
      },
    });
    expect(await queue.getJob(jobId)).toBeUndefined();
    const completedAt = (await auditRow(auditId))!.completed_at;

    for (const res of [await A(projectId), await B(projectId)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'No queued or running audit for this project', code: 'NOT_FOUND' });
    }
    const again = await B(projectId, `?auditId=${auditId}`);
    expect(again.statusCode).toBe(200);
    expect(again.json().audit).toMatchObject({ id: auditId, status: 'CANCELLED' });
    expect((await auditRow(auditId))!.completed_at).toEqual(completedAt);
    // A new audit can be started after it.
    const next = await queued();
    expect(next.auditId).not.toBe(auditId);
    expect((await B(projectId)).json().audit.id).toBe(next.auditId);
  });

  it('a completed or failed audit: 400; an audit of another project, or not an id: 404; bad input: 400', async () => {
    const completed = await insertAudit(projectId, 'COMPLETED');
    const failed = await insertAudit(projectId, 'FAILED');
    for (const [id, word] of [
      [completed, 'completed'],
      [failed, 'failed'],
    ]) {
      for (const res of [await A(projectId, `?auditId=${id}`), await B(projectId, `?auditId=${id}`)]) {
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({
          code: 'BAD_USER_INPUT',
          error: expect.stringContaining(`already ${word}`),
        });
      }
    }
    expect((await auditRow(completed))!.status).toBe('COMPLETED');
    const gqlRes = await gql(
      t,
      'mutation($p: ID!, $a: ID) { cancelAudit(projectId: $p, auditId: $a) { id } }',
      { p: projectId, a: completed },
      session(),
    );
    expect(gqlRes.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');

    const otherProject = (await aProject({ org })).id;
    const elsewhere = await queued(otherProject);
    for (const query of [`?auditId=${elsewhere.auditId}`, '?auditId=not-an-id', `?auditId=${newId()}`]) {
      const res = await A(projectId, query);
      expect(res.statusCode, query).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect((await auditRow(elsewhere.auditId))!.status).toBe('QUEUED');
    for (const res of [
      await A(projectId, `?auditId=${'x'.repeat(201)}`),
      await B(projectId, '', session(), { force: true }),
      await A(projectId, '', bearer(), { reason: 'x' }),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('BAD_USER_INPUT');
    }
    expect((await A('not-a-project')).statusCode).toBe(404);
  });

  it("another organization's project or audit: 404, and nothing is cancelled", async () => {
    const { auditId } = await queued();
    const otherOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    const otherKey = await anApiKey(otherOrg);
    const otherProject = (await aProject({ org: otherOrg })).id;
    const responses = [
      await A(projectId, '', bearer(otherKey)),
      await B(projectId, '', session(otherOrg.owner)),
      await A(otherProject, `?auditId=${auditId}`, bearer(otherKey)),
      await B(otherProject, `?auditId=${auditId}`, session(otherOrg.owner)),
    ];
    for (const res of responses) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    const viaGraphql = await gql(
      t,
      'mutation($p: ID!, $a: ID) { cancelAudit(projectId: $p, auditId: $a) { id } }',
      { p: projectId, a: auditId },
      session(otherOrg.owner),
    );
    expect(viaGraphql.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await auditRow(auditId))!.status).toBe('QUEUED');
    expect((await A(projectId)).statusCode).toBe(200);
  });

  it(
    'plans: FREE and PRO keys get 403 on Surface A, PRO sessions 403 on Surface B; the dashboard cancels on ' +
      'every plan; no credentials 401',
    async () => {
      const ownerOrg = await anOrg(t, { plan: 'ENTERPRISE' });
      const ownerKey = await anApiKey(ownerOrg);
      const p = (await aProject({ org: ownerOrg })).id;
      const { auditId } = await queued(p, ownerOrg.owner);
      for (const plan of ['FREE', 'PRO'] as const) {
        await setPlan(t, ownerOrg.id, plan);
        const a = await A(p, '', bearer(ownerKey));
        expect(a.statusCode, plan).toBe(403);
        expect(a.json()).toMatchObject({
          code: 'FORBIDDEN',
          error: expect.stringMatching(plan === 'FREE' ? /Free plan/ : /read-only/),
        });
        const b = await B(p, '', session(ownerOrg.owner));
        expect(b.statusCode, plan).toBe(403);
        const byKey = await gql(t, 'mutation($p: ID!) { cancelAudit(projectId: $p) { id } }', { p }, bearer(ownerKey));
        expect(byKey.body.errors?.[0].extensions?.code, plan).toBe('FORBIDDEN');
      }
      expect((await auditRow(auditId))!.status).toBe('QUEUED');
      // The first-party dashboard (a session on /graphql) may, on the FREE plan too.
      await setPlan(t, ownerOrg.id, 'FREE');
      const dashboard = await gql(
        t,
        'mutation($p: ID!) { cancelAudit(projectId: $p) { id status } }',
        { p },
        session(ownerOrg.owner),
      );
      expect(dashboard.body.data.cancelAudit).toEqual({ id: auditId, status: 'CANCELLED' });

      expect((await A(p, '', {})).statusCode).toBe(401);
      const noSession = await B(p, '', { origin: t.config.baseUrl });
      expect(noSession.statusCode).toBe(401);
      expect(noSession.json().code).toBe('UNAUTHENTICATED');
      // A cookie-authenticated change from an untrusted Origin is refused.
      const evil = await B(projectId, '', { cookie: org.owner.cookie, origin: 'https://evil.example' });
      expect(evil.statusCode).toBe(403);
    },
  );

  it('both OpenAPI documents describe the routes', async () => {
    const a = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const b = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const opA = a.paths['/projects/{projectId}/audit/cancel'].post;
    const opB = b.paths['/projects/{id}/audit/cancel'].post;
    for (const op of [opA, opB]) {
      expect(Object.keys(op.responses).sort()).toEqual([
        '200',
        '400',
        '401',
        '403',
        '404',
        '408',
        '413',
        '415',
        '429',
        '500',
        '503',
      ]);
      expect(op.responses['200'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/AuditCancelled',
      });
      expect(op.parameters).toContainEqual(expect.objectContaining({ name: 'auditId', in: 'query', required: false }));
    }
    expect(a.components.schemas.AuditCancelled.properties.audit).toEqual({ $ref: '#/components/schemas/AuditState' });
  });
});
