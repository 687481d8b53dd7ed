import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anApiKey, anOrg, type Org } from '../factories.js';
import { startWorker, waitFor } from '../support/worker-process.js';
import { generatedSite } from '../fixtures/sites/generated-site.js';
import { AuditJobRunner } from '../../src/audits/index.js';
import { createConfiguredSafeHttpClient } from '../../src/platform/safe-http/index.js';

let t: TestApp;
let env: Record<string, string>;
let org: Org;
let key: string;
const host = `life-${uniq()}.test`;

beforeAll(async () => {
  const prefix = `life-${uniq()}`;
  env = {
    REDIS_PREFIX: prefix,
    SAFE_HTTP_ALLOW: '127.0.0.1/32',
    SAFE_HTTP_RESOLVE: `${host}=127.0.0.1`,
    WORKER_LOCK_MS: '3000',
    WORKER_CONCURRENCY: '1',
  };
  t = await createTestApp(env);
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  key = await anApiKey(org);
});
afterAll(() => t.close());

const auth = () => ({ authorization: `Bearer ${key}` });

async function newProject(port: number): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
    payload: { url: `http://${host}:${port}/`, name: `p-${uniq()}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json().project.id;
}

const auditRow = async (id: string) =>
  (await t.runtime.pool.query('SELECT status, pages_crawled, attempts, error FROM audit WHERE id = $1', [id]))
    .rows[0] as { status: string; pages_crawled: number; attempts: number; error: string | null } | undefined;

describe('audit lifecycle with real worker processes', () => {
  it(
    'POST queues (202, job id), a second POST returns the active job, the worker completes it, results are ' +
      'readable everywhere',
    async () => {
      const site = generatedSite(12, 0);
      const port = await site.listen();
      const worker = startWorker('audit.worker', env);
      // On failure, the worker's log (each run's attempt and result) and the stored rows say what happened. (They
      // showed all 12 occurrences stored when the second page had 5 of 7: the pagination ordered the ids as text;
      // issue-occurrences.test.ts covers it.)
      let failedAuditId: string | undefined;
      onTestFailed(async () => {
        const audit = failedAuditId ? await auditRow(failedAuditId) : undefined;
        const occurrences = failedAuditId
          ? (
              await t.runtime.pool.query(
                'SELECT code, count(*)::int AS n FROM issue_occurrence WHERE audit_id = $1 GROUP BY code ORDER BY code',
                [failedAuditId],
              )
            ).rows
          : [];
        process.stderr.write(
          `audit ${failedAuditId}: ${JSON.stringify(audit)}\noccurrences: ${JSON.stringify(occurrences)}\n` +
            `worker output:\n${worker.output.join('')}\n`,
        );
      });
      try {
        const projectId = await newProject(port);
        const first = await t.app.inject({
          method: 'POST',
          url: `/api/v1/projects/${projectId}/audit`,
          headers: auth(),
        });
        expect(first.statusCode).toBe(202);
        expect(first.json()).toEqual({
          message: 'Audit queued',
          jobId: expect.any(String),
          auditId: expect.any(String),
        });
        const { jobId, auditId } = first.json();
        failedAuditId = auditId;
        const second = await t.app.inject({
          method: 'POST',
          url: `/api/projects/${projectId}/audit`,
          headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
        });
        expect(second.statusCode).toBe(200);
        expect(second.json()).toMatchObject({
          jobId,
          auditId,
          message: expect.stringMatching(/already (queued|running)/),
        });

        const job = await waitFor('job completed', async () => {
          const r = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${jobId}`, headers: auth() });
          return r.json().job?.state === 'completed' ? r.json().job : null;
        });
        expect(job).toEqual({
          id: jobId,
          state: 'completed',
          progress: { pagesCrawled: 12, pagesQueued: 0, externalLinksChecked: 0, externalLinksFound: 0 },
          auditId,
          error: null,
        });
        const viaB = await t.app.inject({
          method: 'GET',
          url: `/api/jobs/${jobId}`,
          headers: { cookie: org.owner.cookie },
        });
        expect(viaB.json()).toEqual({ job });

        const audit = (
          await t.app.inject({ method: 'GET', url: `/api/v1/projects/${projectId}/audit`, headers: auth() })
        ).json().audit;
        expect(audit).toMatchObject({ id: auditId, status: 'COMPLETED', pagesCrawled: 12 });
        for (const k of [
          'overallScore',
          'metaScore',
          'contentScore',
          'linksScore',
          'technicalScore',
          'performanceScore',
        ]) {
          expect(audit[k], k).toBeGreaterThanOrEqual(0);
          expect(audit[k], k).toBeLessThanOrEqual(100);
        }
        expect(audit.issues.length).toBeGreaterThan(0);
        for (const issue of audit.issues)
          expect(Object.keys(issue).sort()).toEqual([
            'affectedPages',
            'category',
            'chargedElsewhere',
            'code',
            'description',
            'fixes',
            'id',
            'scope',
            'severity',
            'title',
            'wontFixCount',
          ]);
        expect(audit.issues.map((i: { code: string }) => i.code)).toContain('TECH_SITEMAP_MISSING');
        expect(audit.issues.map((i: { code: string }) => i.code)).toContain('TECH_HTTP_PAGE');

        const same = (
          await t.app.inject({
            method: 'GET',
            url: `/api/projects/${projectId}/audit?auditId=${auditId}`,
            headers: { cookie: org.owner.cookie },
          })
        ).json();
        expect(same.audit).toEqual(audit);

        const list = (await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: auth() })).json();
        expect(list.projects.find((p: { id: string }) => p.id === projectId)._count.audits).toBe(1);
        const listB = (
          await t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: org.owner.cookie } })
        ).json();
        expect(listB.projects.find((p: { id: string }) => p.id === projectId).lastAuditScore).toBe(audit.overallScore);
        const detail = (
          await t.app.inject({
            method: 'GET',
            url: `/api/projects/${projectId}`,
            headers: { cookie: org.owner.cookie },
          })
        ).json();
        const { issues: _omit, ...withoutIssues } = audit;
        expect(detail.project.latestAudit).toEqual({
          ...withoutIssues,
          issueCounts: { critical: expect.any(Number), warning: expect.any(Number), notice: expect.any(Number) },
        });

        const technical = (
          await t.app.inject({
            method: 'GET',
            url: `/api/projects/${projectId}/technical`,
            headers: { cookie: org.owner.cookie },
          })
        ).json();
        expect(technical).toEqual({
          technical: {
            site: {
              https: false,
              hsts: false,
              httpVersion: '1.1',
              compression: null,
              robotsTxt: '200',
              sitemap: 'missing',
            },
            coreWebVitals: [
              {
                url: `http://${host}:${port}/`,
                measuredAt: expect.any(String),
                device: 'desktop',
                source: 'HTTP',
                lcpMs: null,
                cls: null,
                inpMs: null,
                tbtMs: null,
                fcpMs: null,
                ttfbMs: expect.any(Number),
                performanceScore: audit.performanceScore,
              },
            ],
          },
        });
        // The same facts judged over GraphQL, each with its reason, and the bands the charts draw.
        const judged = await gql(
          t,
          'query($p: ID!) { technical(projectId: $p) { site { checks { fact passed value reason } } ' +
            'vitalBands { metric good poor unit } } }',
          { p: projectId },
          auth(),
        );
        expect(
          judged.body.data.technical.site.checks.map((c: { fact: string; passed: boolean }) => [c.fact, c.passed]),
        ).toEqual([
          ['HTTPS', false],
          ['HSTS', false],
          ['HTTP_VERSION', false],
          ['COMPRESSION', false],
          ['ROBOTS_TXT', true],
          ['SITEMAP', false],
        ]);
        expect(judged.body.data.technical.site.checks[5].reason).toMatch(/names no sitemap/);
        expect(judged.body.data.technical.vitalBands[0]).toEqual({ metric: 'LCP', good: 2500, poor: 4000, unit: 'ms' });
        const badDays = await t.app.inject({
          method: 'GET',
          url: `/api/projects/${projectId}/technical?days=999`,
          headers: { cookie: org.owner.cookie },
        });
        expect(badDays.statusCode).toBe(400);

        // Occurrences are paginated in GraphQL.
        const g = await gql(
          t,
          'query($p: ID!) { audit(projectId: $p) { issues { code affectedPages occurrences(first: 5) { nodes { ' +
            'url } pageInfo { hasNextPage endCursor } } } } }',
          { p: projectId },
          auth(),
        );
        const http = g.body.data.audit.issues.find((i: { code: string }) => i.code === 'TECH_HTTP_PAGE');
        expect(http.affectedPages).toBe(12);
        expect(http.occurrences.nodes).toHaveLength(5);
        expect(http.occurrences.pageInfo.hasNextPage).toBe(true);
        const next = await gql(
          t,
          'query($p: ID!, $a: String) { audit(projectId: $p) { issues { code occurrences(first: 50, after: $a) ' +
            '{ nodes { url } pageInfo { hasNextPage } } } } }',
          { p: projectId, a: http.occurrences.pageInfo.endCursor },
          auth(),
        );
        const rest = next.body.data.audit.issues.find((i: { code: string }) => i.code === 'TECH_HTTP_PAGE').occurrences;
        expect(rest.nodes).toHaveLength(7);
        expect(rest.pageInfo.hasNextPage).toBe(false);
      } finally {
        await worker.stop();
        await site.close();
      }
    },
    120_000,
  );

  it('kill -9 of the worker mid-crawl: a new worker completes the audit, no page or issue twice', async () => {
    const site = generatedSite(60, 300);
    const port = await site.listen();
    const first = startWorker('audit.worker', env);
    let second: ReturnType<typeof startWorker> | null = null;
    try {
      const projectId = await newProject(port);
      const { auditId } = (
        await t.app.inject({ method: 'POST', url: `/api/v1/projects/${projectId}/audit`, headers: auth() })
      ).json();
      await waitFor('crawl under way', async () => ((await auditRow(auditId))?.pages_crawled ?? 0) >= 5);
      first.child.kill('SIGKILL');
      await first.stop();
      expect((await auditRow(auditId))!.status).toBe('RUNNING');
      second = startWorker('audit.worker', env);
      const done = await waitFor(
        'audit completed by the second worker',
        async () => {
          const row = await auditRow(auditId);
          return row?.status === 'COMPLETED' ? row : null;
        },
        90_000,
      );
      expect(done.pages_crawled).toBe(60);
      expect(done.attempts).toBeGreaterThanOrEqual(2);
      const pages = await t.runtime.pool.query(
        'SELECT count(*)::int AS n, count(DISTINCT url)::int AS d FROM audit_page WHERE audit_id = $1',
        [auditId],
      );
      expect(pages.rows[0]).toEqual({ n: 60, d: 60 });
      const issues = await t.runtime.pool.query(
        'SELECT count(*)::int AS n, count(DISTINCT code)::int AS d FROM audit_issue WHERE audit_id = $1',
        [auditId],
      );
      expect(issues.rows[0].n).toBe(issues.rows[0].d);
      const occ = await t.runtime.pool.query(
        `SELECT count(*)::int AS n FROM issue_occurrence WHERE audit_id = $1 AND code = 'TECH_HTTP_PAGE'`,
        [auditId],
      );
      expect(occ.rows[0].n).toBe(60);
    } finally {
      await first.stop();
      await second?.stop();
      await site.close();
    }
  }, 180_000);

  it('SIGTERM releases a running audit, and deleting the project cancels it and removes everything', async () => {
    const site = generatedSite(200, 300);
    const port = await site.listen();
    const worker = startWorker('audit.worker', env);
    try {
      const projectId = await newProject(port);
      const { auditId, jobId } = (
        await t.app.inject({ method: 'POST', url: `/api/v1/projects/${projectId}/audit`, headers: auth() })
      ).json();
      await waitFor('crawl under way', async () => ((await auditRow(auditId))?.pages_crawled ?? 0) >= 3);
      const code = await worker.stop('SIGTERM');
      expect(code, worker.output.join('')).toBe(0);
      expect((await auditRow(auditId))!.status, worker.output.join('').slice(-3000)).toBe('QUEUED');

      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/projects/${projectId}`,
        headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
      });
      expect(del.json()).toEqual({ success: true });
      expect(await auditRow(auditId)).toBeUndefined();
      const job = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${jobId}`, headers: auth() });
      expect(job.statusCode).toBe(404);
      const left = await t.runtime.pool.query(
        'SELECT (SELECT count(*) FROM audit_page WHERE audit_id = $1)::int + (SELECT count(*) FROM ' +
          'issue_occurrence WHERE audit_id = $1)::int AS n',
        [auditId],
      );
      expect(left.rows[0].n).toBe(0);
    } finally {
      await worker.stop();
      await site.close();
    }
  }, 120_000);
});

describe('audit access rules', () => {
  it('another organization: 404 on audit and job routes; PRO reads, cannot start audits; none yet: 404', async () => {
    const site = generatedSite(1, 0);
    const port = await site.listen();
    try {
      const projectId = await newProject(port);
      const { jobId } = (
        await t.app.inject({ method: 'POST', url: `/api/v1/projects/${projectId}/audit`, headers: auth() })
      ).json();
      const otherOrg = await anOrg(t, { plan: 'ENTERPRISE' });
      const otherKey = await anApiKey(otherOrg);
      for (const [method, url] of [
        ['GET', `/api/v1/projects/${projectId}/audit`],
        ['POST', `/api/v1/projects/${projectId}/audit`],
        ['GET', `/api/v1/jobs/${jobId}`],
      ] as const) {
        const r = await t.app.inject({ method, url, headers: { authorization: `Bearer ${otherKey}` } });
        expect(r.statusCode, `${method} ${url}`).toBe(404);
      }
      const b = await t.app.inject({
        method: 'GET',
        url: `/api/projects/${projectId}/audit`,
        headers: { cookie: otherOrg.owner.cookie },
      });
      expect(b.statusCode).toBe(404);

      const proOrg = await anOrg(t, { plan: 'ENTERPRISE' });
      const proKey = await anApiKey(proOrg);
      const proProject = (
        await gql(
          t,
          'mutation($u: String!) { createProject(input: { url: $u }) { id } }',
          { u: `http://${host}:${port}/x` },
          { cookie: proOrg.owner.cookie },
        )
      ).body.data.createProject.id;
      await t.runtime.pool.query('UPDATE "organization" SET plan = $1 WHERE id = $2', ['PRO', proOrg.id]);
      const none = await t.app.inject({
        method: 'GET',
        url: `/api/v1/projects/${proProject}/audit`,
        headers: { authorization: `Bearer ${proKey}` },
      });
      expect(none.statusCode).toBe(404);
      expect(none.json()).toMatchObject({ code: 'NOT_FOUND', error: expect.stringMatching(/Audit/) });
      const start = await t.app.inject({
        method: 'POST',
        url: `/api/v1/projects/${proProject}/audit`,
        headers: { authorization: `Bearer ${proKey}` },
      });
      expect(start.statusCode).toBe(403);
    } finally {
      await site.close();
    }
  });

  it(
    'two runs of one audit at once (a lock that expired under a live run): the earlier run is superseded and ' +
      'writes nothing more',
    async () => {
      const site = generatedSite(30, 40);
      const port = await site.listen();
      const client = createConfiguredSafeHttpClient(t.config);
      try {
        const projectId = await newProject(port);
        // Queued, and no worker process runs here: both runs below are in this process.
        const { auditId } = (
          await t.app.inject({ method: 'POST', url: `/api/v1/projects/${projectId}/audit`, headers: auth() })
        ).json();
        const runner = () => new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger);
        const first = runner().run(auditId);
        const pagesServed = () =>
          [...site.hits.entries()].filter(([path]) => path !== '/robots.txt').reduce((sum, [, n]) => sum + n, 0);
        await waitFor('the first run to be under way', async () => (pagesServed() >= 8 ? true : null), 20_000, 10);
        const second = runner().run(auditId);
        expect(await Promise.all([first, second])).toEqual(['superseded', 'completed']);

        expect(await auditRow(auditId)).toMatchObject({ status: 'COMPLETED', attempts: 2, pages_crawled: 30 });
        const q = async (sql: string) =>
          (await t.runtime.pool.query(sql, [auditId])).rows[0] as { total: number; distinct: number };
        const pages = await q(
          'SELECT count(*)::int AS total, count(DISTINCT url)::int AS distinct FROM audit_page WHERE audit_id = $1',
        );
        expect(pages).toEqual({ total: 30, distinct: 30 });
        const occurrences = await q(
          `SELECT count(*)::int AS total, count(DISTINCT code || ' ' || url)::int AS distinct FROM ` +
            `issue_occurrence WHERE audit_id = $1`,
        );
        expect(occurrences.total).toBeGreaterThan(0);
        expect(occurrences.total).toBe(occurrences.distinct);
        const issues = await q(
          `SELECT count(*)::int AS total, count(DISTINCT code)::int AS distinct FROM audit_issue WHERE audit_id = $1`,
        );
        expect(issues.total).toBe(issues.distinct);
      } finally {
        await client.close();
        await site.close();
      }
    },
  );
});
