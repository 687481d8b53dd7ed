/**
 * A real audit (the job runner, in this process) of a one-page site linking slow hosts elsewhere: after its last page
 * the crawl waits for the external link checks, and the audit row, GraphQL and the REST job routes say how far they
 * got, as N of M, while the phase is still CRAWLING.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditJobRunner, auditLifecycle as lifecycle } from '../../src/audits/index.js';
import { AuditResultsRepository } from '../../src/audits/audit-results.repository.js';
import { newId } from '../../src/platform/ids.js';
import { createConfiguredSafeHttpClient, type SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { anApiKey, anOrg, aProject, type Org } from '../factories.js';
import { startFixtureSite, type RunningSite } from '../fixtures/sites/fixture-server.js';
import { page } from '../fixtures/sites/page-builder.js';
import { image, textFile } from '../fixtures/sites/shared-assets.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';

/** Each external host on its own loopback address, answering every request after LATENCY_MS. */
const HOSTS = 3;
const TARGETS_PER_HOST = 30;
const LATENCY_MS = 800;
const TOTAL = HOSTS * TARGETS_PER_HOST;

interface Sample {
  at: number;
  phase: string | null;
  status: string;
  pagesQueued: number;
  checked: number;
  found: number;
}

let t: TestApp;
let org: Org;
let key: string;
let client: SafeHttpClient;
let home: RunningSite;
let far: RunningSite[];

beforeAll(async () => {
  const tag = uniq();
  far = await Promise.all(
    Array.from({ length: HOSTS }, (_, h) =>
      startFixtureSite({
        host: `slow-${h}-${tag}.test`,
        listenAddress: `127.0.0.${h + 2}`,
        fallback: { body: 'there', delayMs: LATENCY_MS },
      }),
    ),
  );
  home = await startFixtureSite({ host: `home-${tag}.test` });
  const links = far.flatMap((site) =>
    Array.from({ length: TARGETS_PER_HOST }, (_, k) => `<a href="${site.origin}/doc/${k}">Reference ${k}</a>`),
  );
  home.serve({
    '/robots.txt': textFile('User-agent: *\nAllow: /\n'),
    '/favicon.ico': image(),
    '/': { body: page(home.origin, '/', { bodyExtra: `<p>${links.join(' ')}</p>` }) },
  });
  const resolve = [`${home.host}=127.0.0.1`, ...far.map((s, h) => `${s.host}=127.0.0.${h + 2}`)].join(',');
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.0/8', SAFE_HTTP_RESOLVE: resolve });
  client = createConfiguredSafeHttpClient(t.config, { headersTimeoutMs: 10_000, totalTimeoutMs: 10_000 });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  key = await anApiKey(org);
});
afterAll(async () => {
  await client?.close();
  await Promise.all([home, ...far].filter(Boolean).map((s) => s.close()));
  await t?.close();
});

const readRow = async (auditId: string): Promise<Sample> => {
  const { rows } = await t.runtime.pool.query(
    `SELECT status, phase, pages_queued AS "pagesQueued", external_links_checked AS checked,
       external_links_found AS found FROM audit WHERE id = $1`,
    [auditId],
  );
  return { at: Date.now(), ...(rows[0] as Omit<Sample, 'at'>) };
};

describe('an audit waiting for its external link checks', () => {
  it('writes, and shows in GraphQL and both REST job routes, the checks answered of those found', async () => {
    const { id: projectId } = await aProject({ org, url: `${home.origin}/` });
    const session = { cookie: org.owner.cookie, origin: t.config.baseUrl };
    const started = await gql(
      t,
      'mutation($p: ID!) { startAudit(projectId: $p) { auditId jobId } }',
      { p: projectId },
      session,
    );
    const { auditId, jobId } = started.body.data.startAudit as { auditId: string; jobId: string };
    // Before the run: 0 of 0.
    expect(await readRow(auditId)).toMatchObject({ checked: 0, found: 0 });

    // The wait as a RUNNING audit has it (an audit that became readable first waits the same way, COMPLETED:
    // audit-readable-external.test.ts).
    const runner = new AuditJobRunner(
      t.runtime.orm,
      client,
      { ...t.config, AUDIT_EXTERNAL_READABLE_AFTER_MS: 600_000 },
      t.runtime.logger,
    );
    let done = false;
    const run = runner.run(auditId).finally(() => {
      done = true;
    });
    const samples: Sample[] = [];
    let shown: { graphql: unknown; v1: unknown; session: unknown } | null = null;
    while (!done) {
      const sample = await readRow(auditId);
      samples.push(sample);
      // Mid-wait, once: what the APIs say (the row may move on between the reads; each is checked on its own).
      if (!shown && sample.found > 0 && sample.checked > 0 && sample.checked < sample.found) {
        const [q, v1, api] = await Promise.all([
          gql(
            t,
            'query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { status phase pagesQueued ' +
              'externalLinksChecked externalLinksFound } }',
            { p: projectId, a: auditId },
            session,
          ),
          t.app.inject({ method: 'GET', url: `/api/v1/jobs/${jobId}`, headers: { authorization: `Bearer ${key}` } }),
          t.app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers: { cookie: org.owner.cookie } }),
        ]);
        shown = { graphql: q.body.data?.audit ?? q.body, v1: v1.json(), session: api.json() };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await run).toBe('completed');

    // Samples of the running audit (the last read may land after its completion).
    const waiting = samples.filter((s) => s.found > 0 && s.status === 'RUNNING');
    const summary = waiting.map((s) => `${s.phase}:${s.checked}/${s.found}`).join(' ');
    // Written only after the last page, while the crawl is still the phase: no page left, every target found.
    for (const s of waiting) {
      expect(s, summary).toMatchObject({ status: 'RUNNING', pagesQueued: 0, found: TOTAL });
      expect(s.checked, summary).toBeLessThanOrEqual(TOTAL);
    }
    expect(waiting.filter((s) => s.phase === 'CRAWLING').length, summary).toBeGreaterThan(0);
    // The figure moves: at least two distinct values below M while the checks go on (about 4 s, written each second),
    // and never back.
    const during = [...new Set(waiting.filter((s) => s.checked < TOTAL).map((s) => s.checked))];
    expect(during.length, summary).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < waiting.length; i++)
      expect(waiting[i].checked, summary).toBeGreaterThanOrEqual(waiting[i - 1].checked);

    expect(shown, summary).not.toBeNull();
    const {
      graphql,
      v1,
      session: viaSession,
    } = shown as {
      graphql: {
        status: string;
        phase: string;
        pagesQueued: number;
        externalLinksChecked: number;
        externalLinksFound: number;
      };
      v1: { job: { state: string; progress: Record<string, number> } };
      session: { job: { state: string; progress: Record<string, number> } };
    };
    expect(graphql).toMatchObject({ status: 'RUNNING', phase: 'CRAWLING', pagesQueued: 0, externalLinksFound: TOTAL });
    expect(graphql.externalLinksChecked).toBeGreaterThan(0);
    for (const job of [v1.job, viaSession.job]) {
      expect(job.state).toBe('running');
      expect(job.progress).toMatchObject({ pagesCrawled: 1, pagesQueued: 0, externalLinksFound: TOTAL });
      expect(job.progress.externalLinksChecked).toBeGreaterThan(0);
      expect(job.progress.externalLinksChecked).toBeLessThanOrEqual(TOTAL);
    }

    // The figures the wait ended with stay on the row; every target was asked, each once; the completed audit
    // counts them all.
    expect(await readRow(auditId)).toMatchObject({ status: 'COMPLETED', checked: TOTAL, found: TOTAL });
    expect(far.reduce((n, s) => n + s.requests.length, 0)).toBe(TOTAL);
    const { rows } = await t.runtime.pool.query(`SELECT counts->'externalLinks' AS e FROM audit WHERE id = $1`, [
      auditId,
    ]);
    expect(rows[0].e).toMatchObject({ found: TOTAL, checked: TOTAL });
  }, 60_000);

  it('starts each new attempt at 0 of 0', async () => {
    const { id: projectId } = await aProject({ org });
    const auditId = newId();
    await lifecycle.create(t.runtime.orm.em, { id: auditId, projectId, maxPages: 10, createdAt: new Date() });
    const first = await lifecycle.claim(t.runtime.orm.em, auditId);
    // The first attempt got as far as 7 of 9 before its worker died.
    await new AuditResultsRepository().writeProgress(t.runtime.orm.em, first!, {
      pagesCrawled: 3,
      pagesQueued: 0,
      externalLinks: { checked: 7, found: 9 },
    });
    expect(await readRow(auditId)).toMatchObject({ checked: 7, found: 9 });
    // A page progress write (no external figures) keeps them.
    await new AuditResultsRepository().writeProgress(t.runtime.orm.em, first!, { pagesCrawled: 3, pagesQueued: 0 });
    expect(await readRow(auditId)).toMatchObject({ checked: 7, found: 9 });
    await lifecycle.claim(t.runtime.orm.em, auditId);
    expect(await readRow(auditId)).toMatchObject({ status: 'RUNNING', checked: 0, found: 0 });
  });
});
