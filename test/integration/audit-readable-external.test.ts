/**
 * Readable before slow external checks: a real audit (the job runner, in this process) of a small site whose links to
 * another host answer slowly. The audit completes as soon as its pages are done (its pages, scores and issues
 * readable, the external verdicts said pending on GraphQL and REST), is left out of comparisons and owes no alert yet;
 * when the checks end, their verdicts fold in once (the broken external link becomes an issue, the scores move, the
 * issue ids read before stay), and the audit is final, its alerts owed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditJobRunner } from '../../src/audits/index.js';
import { createConfiguredSafeHttpClient, type SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { anApiKey, anOrg, aProject, type Org } from '../factories.js';
import { startFixtureSite, type RunningSite } from '../fixtures/sites/fixture-server.js';
import { page } from '../fixtures/sites/page-builder.js';
import { image, textFile } from '../fixtures/sites/shared-assets.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';

/** The other host answers every request after this long: 24 targets, 6 at a time, take about 4 s. */
const LATENCY_MS = 1_000;
const TARGETS = 24;

let t: TestApp;
let org: Org;
let key: string;
let client: SafeHttpClient;
let home: RunningSite;
let far: RunningSite;

beforeAll(async () => {
  const tag = uniq();
  far = await startFixtureSite({
    host: `far-${tag}.test`,
    listenAddress: '127.0.0.2',
    fallback: { body: 'there', delayMs: LATENCY_MS },
  });
  // One target is gone: a broken external link, known only once its slow answer arrives.
  far.serve({ '/gone': { status: 404, body: 'gone', delayMs: LATENCY_MS } });
  home = await startFixtureSite({ host: `home-${tag}.test` });
  const links = [
    ...Array.from({ length: TARGETS - 1 }, (_, k) => `<a href="${far.origin}/doc/${k}">Reference ${k}</a>`),
    `<a href="${far.origin}/gone">Gone</a>`,
  ];
  home.serve({
    '/robots.txt': textFile('User-agent: *\nAllow: /\n'),
    '/favicon.ico': image(),
    '/': { body: page(home.origin, '/', { bodyExtra: `<p>${links.join(' ')}</p><a href="/b">B</a>` }) },
    '/b': { body: page(home.origin, '/b', { bodyExtra: `<a href="${far.origin}/gone">Gone</a>` }) },
  });
  const resolve = [`${home.host}=127.0.0.1`, `${far.host}=127.0.0.2`].join(',');
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.0/8', SAFE_HTTP_RESOLVE: resolve });
  client = createConfiguredSafeHttpClient(t.config, { headersTimeoutMs: 10_000, totalTimeoutMs: 10_000 });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  key = await anApiKey(org);
});
afterAll(async () => {
  await client?.close();
  await Promise.all([home, far].filter(Boolean).map((s) => s.close()));
  await t?.close();
});

const AUDIT_FIELDS =
  'status externalLinksFinal externalLinksChecked externalLinksFound overallScore linksScore ' +
  'counts { externalLinks { found checked pending notTried } } issues { id code affectedPages }';

interface Seen {
  status: string;
  externalLinksFinal: boolean;
  externalLinksChecked: number;
  externalLinksFound: number;
  overallScore: number | null;
  linksScore: number | null;
  counts: { externalLinks: { found: number; checked: number; pending: number; notTried: number } } | null;
  issues: { id: string; code: string; affectedPages: number }[];
}

async function startAudit(projectId: string): Promise<string> {
  const started = await gql(
    t,
    'mutation($p: ID!) { startAudit(projectId: $p) { auditId } }',
    { p: projectId },
    { cookie: org.owner.cookie, origin: t.config.baseUrl },
  );
  return started.body.data.startAudit.auditId as string;
}

const readAudit = async (projectId: string, auditId: string): Promise<Seen> =>
  (
    await gql(
      t,
      `query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { ${AUDIT_FIELDS} } }`,
      { p: projectId, a: auditId },
      { cookie: org.owner.cookie, origin: t.config.baseUrl },
    )
  ).body.data.audit as Seen;

/** The worker's job runner, readable once its pages are done and `ms` more have passed without the external checks. */
const runnerReadableAfter = (ms: number) =>
  new AuditJobRunner(t.runtime.orm, client, { ...t.config, AUDIT_EXTERNAL_READABLE_AFTER_MS: ms }, t.runtime.logger);

const alertsOwed = async (auditId: string): Promise<number> =>
  (await t.runtime.pool.query('SELECT 1 FROM alert_evaluation WHERE audit_id = $1', [auditId])).rowCount ?? 0;

describe('an audit whose external links answer slowly', () => {
  it('is readable when its pages are done, and final once the external verdicts fold in', async () => {
    const { id: projectId } = await aProject({ org, url: `${home.origin}/` });
    // A first audit that waits for everything (the checks' cache is per project: the second audit asks again only
    // because the cache is emptied below).
    const waiting = runnerReadableAfter(600_000);
    const first = await startAudit(projectId);
    expect(await waiting.run(first)).toBe('completed');
    const firstSeen = await readAudit(projectId, first);
    expect(firstSeen).toMatchObject({ status: 'COMPLETED', externalLinksFinal: true });
    expect(firstSeen.issues.map((i) => i.code)).toContain('LINKS_EXTERNAL_BROKEN');
    await t.runtime.pool.query('DELETE FROM external_link_check WHERE project_id = $1', [projectId]);

    const auditId = await startAudit(projectId);
    const runner = runnerReadableAfter(0);
    let done = false;
    const run = runner.run(auditId).finally(() => (done = true));
    let readable: Seen | null = null;
    let comparison: { status: number; body: unknown } | null = null;
    let owedWhileReadable: number | null = null;
    let defaultPair: unknown = null;
    let startedAgain: string | null = null;
    while (!done) {
      const seen = await readAudit(projectId, auditId);
      if (seen.status === 'COMPLETED' && !seen.externalLinksFinal && !readable) {
        readable = seen;
        owedWhileReadable = await alertsOwed(auditId);
        // Its worker is still busy with it: starting the project's audit again gives this one, no second audit.
        startedAgain = await startAudit(projectId);
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/v1/projects/${projectId}/audit/compare?base=${first}&head=${auditId}`,
          headers: { authorization: `Bearer ${key}` },
        });
        comparison = { status: res.statusCode, body: res.json() };
        const pair = await gql(
          t,
          'query($p: ID!) { auditComparison(projectId: $p) { head { id } base { id } } }',
          { p: projectId },
          { cookie: org.owner.cookie, origin: t.config.baseUrl },
        );
        defaultPair = pair.body.errors?.[0]?.extensions?.code ?? pair.body.data?.auditComparison;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await run).toBe('completed');

    // Readable: completed with its pages and scores, its external verdicts pending and said so.
    expect(readable).not.toBeNull();
    const r = readable!;
    expect(r.overallScore).not.toBeNull();
    expect(r.counts!.externalLinks.found).toBe(TARGETS);
    expect(r.counts!.externalLinks.pending).toBeGreaterThan(0);
    expect(r.issues.map((i) => i.code)).not.toContain('LINKS_EXTERNAL_BROKEN');
    expect(startedAgain).toBe(auditId);
    // Kept out of alerts and comparisons until final.
    expect(owedWhileReadable).toBe(0);
    expect(comparison!.status).toBe(400);
    expect(JSON.stringify(comparison!.body)).toMatch(/still checking its external links/);
    // The default pair is two final audits: the readable one is not one of them, and one final audit is no pair.
    expect(defaultPair).toBe('NOT_FOUND');

    // Final: the broken external link folded in, once, and said on the counts; the ids read before still hold.
    const final = await readAudit(projectId, auditId);
    expect(final).toMatchObject({ status: 'COMPLETED', externalLinksFinal: true });
    expect(final.counts!.externalLinks).toMatchObject({ found: TARGETS, checked: TARGETS, pending: 0, notTried: 0 });
    const broken = final.issues.find((i) => i.code === 'LINKS_EXTERNAL_BROKEN');
    expect(broken?.affectedPages).toBe(2);
    expect(final.linksScore!).toBeLessThan(r.linksScore!);
    for (const issue of r.issues) expect(final.issues.find((i) => i.code === issue.code)?.id).toBe(issue.id);
    // The same verdicts as the audit that waited for everything.
    expect(final.issues.map((i) => [i.code, i.affectedPages])).toEqual(
      firstSeen.issues.map((i) => [i.code, i.affectedPages]),
    );
    expect(final.overallScore).toBe(firstSeen.overallScore);
    expect(await alertsOwed(auditId)).toBe(1);
    // The pages' stored counts follow: both pages carry the broken link.
    const { rows } = await t.runtime.pool.query(
      `SELECT url, issue_code_set FROM audit_page WHERE audit_id = $1 AND kind = 'HTML' ORDER BY url`,
      [auditId],
    );
    for (const row of rows) expect(row.issue_code_set, row.url).toContain('LINKS_EXTERNAL_BROKEN');
    // Now final, the pair compares.
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/audit/compare?base=${first}&head=${auditId}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.statusCode).toBe(200);
  });

  it('is made final without them when its worker shuts down while they go on, and says so', async () => {
    // Another organization: the site is already a project of the first.
    org = await anOrg(t, { plan: 'ENTERPRISE' });
    const { id: projectId } = await aProject({ org, url: `${home.origin}/` });
    const auditId = await startAudit(projectId);
    const runner = runnerReadableAfter(0);
    let stopping = false;
    const started = Date.now();
    const run = runner.run(auditId, { interrupted: () => stopping });
    let readableAt: number;
    for (;;) {
      const seen = await readAudit(projectId, auditId);
      if (seen.status === 'COMPLETED' && !seen.externalLinksFinal) {
        readableAt = Date.now();
        stopping = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await run).toBe('completed');
    const stoppedIn = Date.now() - readableAt;
    const final = await readAudit(projectId, auditId);
    expect(final).toMatchObject({ status: 'COMPLETED', externalLinksFinal: true });
    const e = (
      await gql(
        t,
        'query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { ' +
          'counts { externalLinks { pending workerStopped } } } }',
        { p: projectId, a: auditId },
        { cookie: org.owner.cookie, origin: t.config.baseUrl },
      )
    ).body.data.audit.counts.externalLinks as { pending: number; workerStopped: number };
    expect(e.pending).toBe(0);
    expect(e.workerStopped).toBeGreaterThan(0);
    // No verdict was made up for the links that did not answer: the broken one is not reported.
    expect(final.issues.map((i) => i.code)).not.toContain('LINKS_EXTERNAL_BROKEN');
    expect(await alertsOwed(auditId)).toBe(1);
    // The shutdown did not wait for the slow host's answers (24 at 1 s, 6 at a time: about 4 s).
    expect(stoppedIn, `readable after ${readableAt - started} ms`).toBeLessThan(3_000);
  });
});
