/**
 * "Won't fix" (docs/scores.md): markWontFix / undoWontFix / Project.wontFixes, the flags on an issue's occurrences
 * and counts, and the score: a marked occurrence is left out of the costs of the project's latest audit, kept on the
 * next audit while the URL is unchanged and dropped once it changed. Real crawls of a local site, real PostgreSQL.
 * The expected costs are written out from the formula docs/scores.md documents.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertFactsReader } from '../../src/alerts/index.js';
import { AuditJobRunner } from '../../src/audits/index.js';
import { segmentMarksKey } from '../../src/audits/segment-rule.js';
import { VITAL_BANDS } from '../../src/technical/index.js';
import { createConfiguredSafeHttpClient, type SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anApiKey, anOrg, aProject, type Org } from '../factories.js';

let t: TestApp;
let org: Org;
let client: SafeHttpClient;
let server: http.Server;
let port = 0;
const host = `wont-fix-${uniq()}.test`;
/** Page 1's text: the test changes it to change the page (its content hash). */
let page1Text = 'Some text of page 1.';

/** Four pages linked in a ring; pages 1 and 3 have no meta description (META_DESCRIPTION_MISSING, a WARNING). */
beforeAll(async () => {
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  client = createConfiguredSafeHttpClient(t.config);
  server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return res.end('User-agent: *\nAllow: /\n');
    const n = req.url === '/' ? 0 : Number(/^\/p\/(\d)$/.exec(req.url ?? '')?.[1] ?? -1);
    if (n < 0 || n > 3) return res.writeHead(404).end('not found');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    const description =
      n % 2 === 0
        ? `<meta name="description" content="Page ${n} of the won't fix fixture site, described at a length ` +
          `that passes the description checks.">`
        : '';
    const text = n === 1 ? page1Text : `Some text of page ${n}.`;
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Won't fix fixture, page number ` +
        `${n}</title>${description}<meta name="viewport" content="width=device-width, initial-scale=1"></head>` +
        `<body><h1>Page ${n}</h1><p>${text}</p><a href="${n === 3 ? '/' : `/p/${n + 1}`}">` +
        `Next page of the ring</a></body></html>`,
    );
  });
  port = await new Promise<number>((r) =>
    server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)),
  );
});
afterAll(async () => {
  await client.close();
  await new Promise((r) => server.close(r));
  await t.close();
});

const CODE = 'META_DESCRIPTION_MISSING';
const MARK = `mutation($p: ID!, $i: MarkWontFixInput!) { markWontFix(projectId: $p, input: $i) {
  id code title url reason markedByName markedAt } }`;
const UNDO = 'mutation($p: ID!, $id: ID!) { undoWontFix(projectId: $p, id: $id) { id url } }';
const LIST = 'query($id: ID!) { project(id: $id) { wontFixes { id code url reason markedByName markedAt } } }';
const AUDIT = `query($p: ID!, $id: ID!) { audit(projectId: $p, auditId: $id) {
  overallScore metaScore
  scoreBreakdown { wontFixExcluded health costs { code affectedPages points } }
  issues { code affectedPages wontFixCount
    occurrences(first: 10) { nodes { url wontFix { id reason markedByName markedAt } } } } } }`;

interface Cost {
  code: string;
  affectedPages: number;
  points: number;
}
interface AuditView {
  overallScore: number;
  metaScore: number;
  scoreBreakdown: { wontFixExcluded: number; health: number; costs: Cost[] };
  issues: {
    code: string;
    affectedPages: number;
    wontFixCount: number;
    occurrences: { nodes: { url: string; wontFix: { id: string; reason: string; markedByName: string } | null }[] };
  }[];
}

const owner = () => ({ cookie: org.owner.cookie, origin: t.config.baseUrl });

async function runAudit(projectId: string, headers: Record<string, string> = owner()): Promise<string> {
  const started = await gql(
    t,
    'mutation($p: ID!) { startAudit(projectId: $p) { auditId } }',
    { p: projectId },
    headers,
  );
  const auditId = started.body.data.startAudit.auditId as string;
  const runner = new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger);
  expect(await runner.run(auditId)).toBe('completed');
  return auditId;
}

async function auditView(p: string, id: string, headers: Record<string, string> = owner()): Promise<AuditView> {
  const res = await gql(t, AUDIT, { p, id }, headers);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.audit as AuditView;
}

const costOf = (a: AuditView, code: string) => a.scoreBreakdown.costs.find((c) => c.code === code);
const issueOf = (a: AuditView, code: string) => a.issues.find((i) => i.code === code)!;
const issueOfSegment = <T extends { code: string }>(issues: T[], code: string): T =>
  issues.find((i) => i.code === code)!;

describe("won't fix", () => {
  it('leaves a marked occurrence out of the score, keeps it while unchanged, drops it once changed', async () => {
    page1Text = 'Some text of page 1.';
    const base = `http://${host}:${port}`;
    const { id: projectId } = await aProject({ org, url: `${base}/` });
    const first = await runAudit(projectId);
    const before = await auditView(projectId, first);
    expect(costOf(before, CODE)).toMatchObject({ affectedPages: 2 });
    expect(costOf(before, CODE)!.points).toBeCloseTo(100 * 0.3 * (2 / 4), 6);
    expect(before.scoreBreakdown.wontFixExcluded).toBe(0);

    const marked = await gql(
      t,
      MARK,
      { p: projectId, i: { auditId: first, code: CODE, url: `${base}/p/1`, reason: '  Legacy page, retired soon  ' } },
      owner(),
    );
    expect(marked.body.errors).toBeUndefined();
    expect(marked.body.data.markWontFix).toMatchObject({
      code: CODE,
      url: `${base}/p/1`,
      reason: 'Legacy page, retired soon',
      markedByName: expect.any(String),
    });
    const markingId = marked.body.data.markWontFix.id as string;

    // The same audit, rescored: one of the two pages is left out; META gains back what it cost.
    const after = await auditView(projectId, first);
    expect(after.scoreBreakdown.wontFixExcluded).toBe(1);
    expect(costOf(after, CODE)).toMatchObject({ affectedPages: 1 });
    expect(costOf(after, CODE)!.points).toBeCloseTo(100 * 0.3 * (1 / 4), 6);
    expect(after.metaScore).toBeGreaterThan(before.metaScore);
    const metaCostsBefore = before.scoreBreakdown.costs.filter((c) => c.code.startsWith('META_'));
    const metaLost = metaCostsBefore.reduce((s, c) => s + c.points, 0);
    expect(after.metaScore).toBe(Math.round(100 - (metaLost - 7.5) + 1e-9));
    // Still listed, flagged, and counted on the issue.
    const issue = issueOf(after, CODE);
    expect(issue.affectedPages).toBe(2);
    expect(issue.wontFixCount).toBe(1);
    const flagged = issue.occurrences.nodes.find((o) => o.url === `${base}/p/1`)!;
    expect(flagged.wontFix).toMatchObject({ id: markingId, reason: 'Legacy page, retired soon' });
    expect(issue.occurrences.nodes.find((o) => o.url === `${base}/p/3`)!.wontFix).toBeNull();

    // The next audit of the unchanged site keeps the marking and scores without it from the start.
    const second = await runAudit(projectId);
    const kept = await auditView(projectId, second);
    expect(kept.scoreBreakdown.wontFixExcluded).toBe(1);
    expect(costOf(kept, CODE)).toMatchObject({ affectedPages: 1 });
    expect(kept.overallScore).toBe(after.overallScore);
    expect(issueOf(kept, CODE).wontFixCount).toBe(1);
    // The first audit is no longer the latest: it keeps what it was given.
    expect((await auditView(projectId, first)).overallScore).toBe(after.overallScore);

    // Page 1's text changes: the next audit finds the issue there again and drops the marking.
    page1Text = 'Different text on page 1 now.';
    const third = await runAudit(projectId);
    const changed = await auditView(projectId, third);
    expect(changed.scoreBreakdown.wontFixExcluded).toBe(0);
    expect(costOf(changed, CODE)).toMatchObject({ affectedPages: 2 });
    expect(issueOf(changed, CODE).wontFixCount).toBe(0);
    expect(issueOf(changed, CODE).occurrences.nodes.every((o) => o.wontFix === null)).toBe(true);
    const list = await gql(t, LIST, { id: projectId }, owner());
    expect(list.body.data.project.wontFixes).toEqual([]);
  });

  it('is undone: the occurrence counts again in the latest audit', async () => {
    org = await anOrg(t, { plan: 'ENTERPRISE' });
    page1Text = 'Some text of page 1.';
    const base = `http://${host}:${port}`;
    const { id: projectId } = await aProject({ org, url: `${base}/` });
    const auditId = await runAudit(projectId);
    const before = await auditView(projectId, auditId);
    const marked = await gql(
      t,
      MARK,
      { p: projectId, i: { auditId, code: CODE, url: `${base}/p/3`, reason: 'Print version' } },
      owner(),
    );
    const id = marked.body.data.markWontFix.id as string;
    expect((await auditView(projectId, auditId)).scoreBreakdown.wontFixExcluded).toBe(1);
    const undone = await gql(t, UNDO, { p: projectId, id }, owner());
    expect(undone.body.data.undoWontFix).toEqual({ id, url: `${base}/p/3` });
    const again = await auditView(projectId, auditId);
    expect(again.scoreBreakdown.wontFixExcluded).toBe(0);
    expect(again.overallScore).toBe(before.overallScore);
    expect(again.metaScore).toBe(before.metaScore);
    expect(costOf(again, CODE)).toEqual(costOf(before, CODE));
    // Undone once: a second undo finds nothing.
    const twice = await gql(t, UNDO, { p: projectId, id }, owner());
    expect(twice.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('is seen by a teammate; another organization gets NOT_FOUND; bad input is refused clearly', async () => {
    org = await anOrg(t, { plan: 'ENTERPRISE' });
    page1Text = 'Some text of page 1.';
    const base = `http://${host}:${port}`;
    const { id: projectId } = await aProject({ org, url: `${base}/` });
    const auditId = await runAudit(projectId);
    const marked = await gql(
      t,
      MARK,
      { p: projectId, i: { auditId, code: CODE, url: `${base}/p/1`, reason: 'Kept on purpose' } },
      owner(),
    );
    const markingId = marked.body.data.markWontFix.id as string;
    const { rows } = await t.runtime.pool.query('SELECT name FROM "user" WHERE id = $1', [org.owner.userId]);

    // A teammate (member of the organization, active in it) sees who marked what and why.
    const mate = await anOrg(t, { plan: 'ENTERPRISE' });
    await t.runtime.pool.query(
      `INSERT INTO "member" (id, "organizationId", "userId", role, "createdAt") VALUES ($1, $2, $3, 'member', now())`,
      [randomUUID(), org.id, mate.owner.userId],
    );
    await t.runtime.pool.query('UPDATE "session" SET "activeOrganizationId" = $1 WHERE "userId" = $2', [
      org.id,
      mate.owner.userId,
    ]);
    const mateHeaders = { cookie: mate.owner.cookie, origin: t.config.baseUrl };
    const seen = await gql(t, LIST, { id: projectId }, mateHeaders);
    expect(seen.body.data.project.wontFixes).toEqual([
      expect.objectContaining({ id: markingId, reason: 'Kept on purpose', markedByName: rows[0].name }),
    ]);
    const view = await auditView(projectId, auditId, mateHeaders);
    expect(issueOf(view, CODE).occurrences.nodes.find((o) => o.url === `${base}/p/1`)!.wontFix).toMatchObject({
      reason: 'Kept on purpose',
      markedByName: rows[0].name,
    });

    // REST: the audit's issues say how many of their occurrences are marked.
    const key = await anApiKey(org);
    const rest = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/audit?auditId=${auditId}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(rest.statusCode).toBe(200);
    const restIssues = rest.json().audit.issues as { code: string; wontFixCount: number }[];
    expect(restIssues.find((i) => i.code === CODE)?.wontFixCount).toBe(1);
    expect(restIssues.filter((i) => i.code !== CODE).every((i) => i.wontFixCount === 0)).toBe(true);

    // Another organization: the project and the marking do not exist for it.
    const stranger = await anOrg(t, { plan: 'ENTERPRISE' });
    const strangerHeaders = { cookie: stranger.owner.cookie, origin: t.config.baseUrl };
    const input = { auditId, code: CODE, url: `${base}/p/3`, reason: 'Not mine' };
    for (const res of [
      await gql(t, MARK, { p: projectId, i: input }, strangerHeaders),
      await gql(t, UNDO, { p: projectId, id: markingId }, strangerHeaders),
      await gql(t, LIST, { id: projectId }, strangerHeaders),
    ]) {
      expect(res.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    }
    // A marking id of this project, named with another of the owner's projects, is not found either.
    const { id: otherProject } = await aProject({ org, url: `http://other-${uniq()}.test/` });
    const crossed = await gql(t, UNDO, { p: otherProject, id: markingId }, owner());
    expect(crossed.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');

    // Bad input: a clear BAD_USER_INPUT or NOT_FOUND, nothing stored.
    const refused = async (i: Record<string, unknown>) => {
      const res = await gql(t, MARK, { p: projectId, i: { ...input, ...i } }, owner());
      expect(res.body.data).toBeNull();
      return (res.body.errors ?? [])[0] as { message: string; extensions: { code: string } };
    };
    expect(await refused({ reason: '   ' })).toMatchObject({
      message: 'A reason is required',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(await refused({ reason: 'x'.repeat(501) })).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(await refused({ code: 'NOT_A_CODE' })).toMatchObject({
      message: 'Unknown check code',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(await refused({ url: `${base}/p/2` })).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    expect(await refused({ auditId: 'nope' })).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    const count = await t.runtime.pool.query('SELECT count(*)::int AS n FROM wont_fix WHERE project_id = $1', [
      projectId,
    ]);
    expect(count.rows[0].n).toBe(1);
    const undone = await gql(t, UNDO, { p: projectId, id: 'not-a-uuid' }, owner());
    expect(undone.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});

describe("won't fix is not progress", () => {
  const COMPARE = `query($p: ID!, $b: ID, $h: ID) { auditComparison(projectId: $p, base: $b, head: $h) {
    wontFixMarked settingsChanged scores { category before after comparableBefore comparableAfter delta } } }`;
  interface ScoreRow {
    category: string;
    before: number;
    after: number;
    comparableBefore: number;
    comparableAfter: number;
    delta: number;
  }

  it('the comparison and the alerts compare both audits as scored before markings', async () => {
    page1Text = 'Some text of page 1.';
    const base = `http://${host}:${port}`;
    // Another organization: a URL is one project per organization, and the first test tracks this one.
    const other = await anOrg(t, { plan: 'ENTERPRISE' });
    const as = { cookie: other.owner.cookie, origin: t.config.baseUrl };
    const { id: projectId } = await aProject({ org: other, url: `${base}/` });
    const first = await runAudit(projectId, as);
    const second = await runAudit(projectId, as);
    const unmarked = await auditView(projectId, second, as);
    const compare = async () => {
      const res = await gql(t, COMPARE, { p: projectId, b: first, h: second }, as);
      expect(res.body.errors).toBeUndefined();
      return res.body.data.auditComparison as { wontFixMarked: boolean; scores: ScoreRow[] };
    };
    const alike = await compare();
    expect(alike.wontFixMarked).toBe(false);
    expect(alike.scores.find((s) => s.category === 'META')).toMatchObject({ delta: 0 });

    // Marked on the latest audit: its own META score rises, the site did not change.
    const marked = await gql(
      t,
      MARK,
      { p: projectId, i: { auditId: second, code: CODE, url: `${base}/p/1`, reason: 'Accepted' } },
      as,
    );
    expect(marked.body.errors).toBeUndefined();
    const rescored = await auditView(projectId, second, as);
    expect(rescored.metaScore).toBeGreaterThan(unmarked.metaScore);
    const compared = await compare();
    expect(compared.wontFixMarked).toBe(true);
    const meta = compared.scores.find((s) => s.category === 'META')!;
    expect(meta).toMatchObject({
      before: unmarked.metaScore,
      after: rescored.metaScore,
      comparableBefore: unmarked.metaScore,
      comparableAfter: unmarked.metaScore,
      delta: 0,
    });
    expect(compared.scores.find((s) => s.category === 'OVERALL')).toMatchObject({ delta: 0 });

    // The alerts of the latest audit read the same: no drop, no rise, and they say so.
    const facts = await new AlertFactsReader(VITAL_BANDS).auditFacts(t.runtime.orm.em.fork(), second);
    expect(facts).toMatchObject({ scoresBeforeWontFix: true });
    expect(facts!.scores.after).toEqual(facts!.scores.before);
    expect(facts!.scores.after.meta).toBe(unmarked.metaScore);
  });
});

describe("won't fix in a segment's scores", () => {
  const SEGMENTS = `query($p: ID!, $id: ID!) { audit(projectId: $p, auditId: $id) {
    segments { segment { name } htmlPages scores { overall meta } health issueCounts { warning } } } }`;
  const COMPARE = `query($p: ID!, $b: ID, $h: ID) { auditComparison(projectId: $p, base: $b, head: $h) {
    segments { base { scores { meta } } head { scores { meta } } overallDelta } } }`;
  interface SegmentView {
    segment: { name: string };
    htmlPages: number;
    scores: { overall: number; meta: number };
    issueCounts: { warning: number };
  }
  const pagesSegment = async (p: string, id: string): Promise<SegmentView> => {
    const res = await gql(t, SEGMENTS, { p, id }, owner());
    expect(res.body.errors).toBeUndefined();
    return (res.body.data.audit.segments as SegmentView[]).find((s) => s.segment.name === 'Ring pages')!;
  };

  it("a marked URL in the segment raises its score as it raises the audit's; the comparison does not", async () => {
    org = await anOrg(t, { plan: 'ENTERPRISE' });
    page1Text = 'Some text of page 1.';
    const base = `http://${host}:${port}`;
    const { id: projectId } = await aProject({ org, url: `${base}/` });
    const made = await gql(
      t,
      'mutation($p: ID!, $i: SegmentInput!) { createSegment(projectId: $p, input: $i) { id } }',
      { p: projectId, i: { name: 'Ring pages', kind: 'PATH', pattern: '/p/' } },
      owner(),
    );
    expect(made.body.errors).toBeUndefined();
    const first = await runAudit(projectId);
    const second = await runAudit(projectId);
    const before = await pagesSegment(projectId, second);
    // /p/1, /p/2, /p/3; pages 1 and 3 lack a description: 2 of 3 pages.
    expect(before.htmlPages).toBe(3);
    const auditBefore = await auditView(projectId, second);

    const marked = await gql(
      t,
      MARK,
      { p: projectId, i: { auditId: second, code: CODE, url: `${base}/p/1`, reason: 'Legacy page' } },
      owner(),
    );
    expect(marked.body.errors).toBeUndefined();
    const auditAfter = await auditView(projectId, second);
    expect(auditAfter.metaScore).toBeGreaterThan(auditBefore.metaScore);
    const after = await pagesSegment(projectId, second);
    // META_DESCRIPTION_MISSING (WARNING, weight 0.3) now costs 100 × 0.3 × 1/3 there instead of 2/3: 10 points.
    expect(after.scores.meta).toBe(before.scores.meta + 10);
    expect(after.scores.overall).toBeGreaterThan(before.scores.overall);
    // The issue is still found there: the counts do not change.
    expect(after.issueCounts).toEqual(before.issueCounts);
    // The first audit's own score was given no marking: nor is its segment's.
    expect((await pagesSegment(projectId, first)).scores).toEqual(before.scores);

    // Two audits compare as scored before markings: the segment's delta is no rise.
    const compared = await gql(t, COMPARE, { p: projectId, b: first, h: second }, owner());
    expect(compared.body.errors).toBeUndefined();
    const [segment] = compared.body.data.auditComparison.segments as {
      base: { scores: { meta: number } };
      head: { scores: { meta: number } };
      overallDelta: number;
    }[];
    expect(segment.head.scores.meta).toBe(before.scores.meta);
    expect(segment.overallDelta).toBe(0);
  });

  it('keeps the summary (under the markings) and the issues list of a segment (under none) side by side', async () => {
    org = await anOrg(t, { plan: 'ENTERPRISE' });
    page1Text = 'Some text of page 1.';
    const base = `http://${host}:${port}`;
    const { id: projectId } = await aProject({ org, url: `${base}/` });
    const made = await gql(
      t,
      'mutation($p: ID!, $i: SegmentInput!) { createSegment(projectId: $p, input: $i) { id } }',
      { p: projectId, i: { name: 'Ring pages', kind: 'PATH', pattern: '/p/' } },
      owner(),
    );
    expect(made.body.errors).toBeUndefined();
    const segmentId = made.body.data.createSegment.id as string;
    const auditId = await runAudit(projectId);
    const mark = async (url: string) => {
      const res = await gql(t, MARK, { p: projectId, i: { auditId, code: CODE, url, reason: 'Legacy page' } }, owner());
      expect(res.body.errors).toBeUndefined();
    };
    await mark(`${base}/p/1`);
    const ISSUES = `query($p: ID!, $id: ID!, $s: ID) { audit(projectId: $p, auditId: $id) {
      issues(segment: $s) { code affectedPages segmentOccurrences } } }`;
    const issuesIn = async () => {
      const res = await gql(t, ISSUES, { p: projectId, id: auditId, s: segmentId }, owner());
      expect(res.body.errors).toBeUndefined();
      return res.body.data.audit.issues as { code: string; affectedPages: number; segmentOccurrences: number }[];
    };
    const kept = async () =>
      (
        await t.runtime.pool.query<{ marks_key: string }>(
          'SELECT marks_key FROM audit_segment_facts WHERE audit_id = $1 AND segment_id = $2 ORDER BY marks_key',
          [auditId, segmentId],
        )
      ).rows.map((r) => r.marks_key);
    const unmarked = segmentMarksKey({ codes: [], urls: [] });

    // The summary counts under the marking, the issues list under none: two rows.
    expect((await pagesSegment(projectId, auditId)).htmlPages).toBe(3);
    expect(issueOfSegment(await issuesIn(), CODE)).toMatchObject({ affectedPages: 2, segmentOccurrences: 2 });
    const rows = await kept();
    expect(rows).toHaveLength(2);
    expect(rows).toContain(unmarked);
    // Planted values show: each read takes its own kept row, in any order, however often.
    await t.runtime.pool.query(
      `UPDATE audit_segment_facts SET facts = jsonb_set(facts, '{htmlPages}', '99')
       WHERE audit_id = $1 AND segment_id = $2`,
      [auditId, segmentId],
    );
    await t.runtime.pool.query(
      `UPDATE audit_segment_facts SET facts = jsonb_set(facts, '{checks}', (SELECT jsonb_agg(CASE WHEN c->>'code' = $3
         THEN jsonb_set(c, '{occurrences}', '77') ELSE c END) FROM jsonb_array_elements(facts->'checks') c))
       WHERE audit_id = $1 AND segment_id = $2 AND marks_key = $4`,
      [auditId, segmentId, CODE, unmarked],
    );
    for (let round = 0; round < 2; round++) {
      expect((await pagesSegment(projectId, auditId)).htmlPages).toBe(99);
      expect(issueOfSegment(await issuesIn(), CODE).segmentOccurrences).toBe(77);
    }
    expect(await kept()).toEqual(rows);

    // Another marking: the summary counts again and drops the row of the markings no longer applied.
    await mark(`${base}/p/3`);
    expect((await pagesSegment(projectId, auditId)).htmlPages).toBe(3);
    const now = await kept();
    expect(now).toHaveLength(2);
    expect(now).toContain(unmarked);
    expect(now).not.toEqual(rows);
    expect(issueOfSegment(await issuesIn(), CODE).segmentOccurrences).toBe(77);
  });
});
