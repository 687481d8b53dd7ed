import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparisonAlertFacts } from '../../src/comparison/index.js';
import { ComparisonRepository } from '../../src/comparison/comparison.repository.js';
import { anApiKey, anAudit, anOrg, aProject, type Org, type Project } from '../factories.js';
import { createTestApp, gql, type TestApp } from '../support/app.js';

/**
 * The audit comparison over two audits with planted changes: issues new, fixed, gone with their page (removed, 404),
 * not checked (a check switched off) and persisting per code and per URL,
 * score deltas, URLs added, removed, and changed in status (200 -> 404) or indexability (-> noindex); the defaults
 * (latest and the one before), keyset pages, bad input, tenancy, and the two REST surfaces with their CSV.
 */
let t: TestApp;
let org: Org;
let project: Project;
let baseId: string;
let headId: string;
let olderId: string;
let runningId: string;
const S = 'https://compare.example.test';
const u = (path: string) => `${S}${path}`;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  project = await aProject({ org, url: S });
  const now = Date.now();
  olderId = (await anAudit({ project, pages: [{ url: u('/') }], createdAt: new Date(now - 3 * DAY) })).id;
  baseId = (
    await anAudit({
      project,
      createdAt: new Date(now - 2 * DAY),
      scores: { overall: 80, meta: 70, content: 60, links: 90, technical: 85, performance: 95 },
      pages: [
        { url: u('/'), title: 'Home' },
        { url: u('/a'), title: 'A' },
        { url: u('/b'), title: 'B' },
        { url: u('/c'), title: 'C' },
        { url: u('/old'), title: 'Old' },
      ],
      issues: [
        { code: 'META_TITLE_MISSING', occurrences: [u('/a'), u('/b')] },
        { code: 'META_DESCRIPTION_MISSING', occurrences: [u('/c')] },
        { code: 'LINKS_INTERNAL_BROKEN', occurrences: [u('/a'), u('/old')] },
      ],
    })
  ).id;
  headId = (
    await anAudit({
      project,
      createdAt: new Date(now - DAY),
      scores: { overall: 71, meta: 72, content: 50, links: 100, technical: 85, performance: null },
      pages: [
        { url: u('/'), title: 'Home' },
        { url: u('/a'), title: 'A' },
        { url: u('/b'), statusCode: 404, title: null },
        { url: u('/c'), title: 'C', indexable: false },
        { url: u('/new'), title: null },
      ],
      issues: [
        { code: 'META_TITLE_MISSING', occurrences: [u('/a'), u('/new')] },
        { code: 'META_DESCRIPTION_MISSING', occurrences: [u('/c')] },
        { code: 'CONTENT_THIN', occurrences: [u('/c'), u('/new'), u('/a')] },
      ],
    })
  ).id;
  // The project's running audit is newer, but only completed audits are compared.
  runningId = (await anAudit({ project, status: 'RUNNING', createdAt: new Date(now) })).id;
});
afterAll(() => t.close());

const COMPARE = `query($p: ID!, $b: ID, $h: ID) { auditComparison(projectId: $p, base: $b, head: $h) {
  projectId base { id } head { id }
  scores { category before after delta }
  settingsChanged settingChanges { code change description }
  totals { newIssues fixedIssues goneIssues notCheckedIssues newlyCheckedIssues persistingIssues changedUrls
    added removed statusChanged indexabilityChanged }
  codes { code title severity category newUrls fixedUrls goneUrls notCheckedUrls newlyCheckedUrls persistingUrls }
  newOnes: issues(change: NEW) { totalCount nodes { code url change } }
  fixed: issues(change: FIXED) { totalCount nodes { code url } }
  gone: issues(change: GONE) { totalCount nodes { code url } }
  notChecked: issues(change: NOT_CHECKED) { totalCount nodes { code url } }
  persisting: issues(change: PERSISTING) { totalCount nodes { code url } }
  pages { totalCount nodes { url changes before { statusCode indexable title } after { statusCode indexable } } }
  c: url(url: "${S}/c") { changes before { indexable } after { indexable } issues { code change severity } }
  nowhere: url(url: "${S}/never") { url }
} }`;

const ask = (query: string, variables: Record<string, unknown>, cookie = org.owner.cookie): Promise<any> =>
  gql(t, query, variables, { cookie }).then((r) => r.body);

describe('auditComparison', () => {
  it('finds the planted new, fixed, gone and persisting issues, score deltas and page changes', async () => {
    const body = await ask(COMPARE, { p: project.id });
    expect(body.errors).toBeUndefined();
    const c = body.data.auditComparison;
    // Defaults: the latest completed audit against the completed one before it (the running one is ignored).
    expect(c.base.id).toBe(baseId);
    expect(c.head.id).toBe(headId);
    expect(c.scores).toEqual([
      { category: 'OVERALL', before: 80, after: 71, delta: -9 },
      { category: 'META', before: 70, after: 72, delta: 2 },
      { category: 'CONTENT', before: 60, after: 50, delta: -10 },
      { category: 'LINKS', before: 90, after: 100, delta: 10 },
      { category: 'TECHNICAL', before: 85, after: 85, delta: 0 },
      { category: 'PERFORMANCE', before: 95, after: null, delta: null },
    ]);
    expect(c.newOnes.nodes).toEqual([
      { code: 'CONTENT_THIN', url: u('/a'), change: 'NEW' },
      { code: 'CONTENT_THIN', url: u('/c'), change: 'NEW' },
      { code: 'CONTENT_THIN', url: u('/new'), change: 'NEW' },
      { code: 'META_TITLE_MISSING', url: u('/new'), change: 'NEW' },
    ]);
    expect(c.settingsChanged).toBe(false);
    expect(c.settingChanges).toEqual([]);
    // Fixed: the page is still crawled, answers and is indexable, and the condition is gone.
    expect(c.fixed.nodes).toEqual([{ code: 'LINKS_INTERNAL_BROKEN', url: u('/a') }]);
    // Gone with its page: /old is no longer crawled, /b answers 404. Neither is "fixed".
    expect(c.gone.nodes).toEqual([
      { code: 'LINKS_INTERNAL_BROKEN', url: u('/old') },
      { code: 'META_TITLE_MISSING', url: u('/b') },
    ]);
    expect(c.notChecked).toEqual({ totalCount: 0, nodes: [] });
    expect(c.persisting.nodes).toEqual([
      { code: 'META_DESCRIPTION_MISSING', url: u('/c') },
      { code: 'META_TITLE_MISSING', url: u('/a') },
    ]);
    expect([c.newOnes.totalCount, c.fixed.totalCount, c.gone.totalCount, c.persisting.totalCount]).toEqual([
      4, 1, 2, 2,
    ]);
    expect(c.totals).toEqual({
      newIssues: 4,
      fixedIssues: 1,
      goneIssues: 2,
      notCheckedIssues: 0,
      newlyCheckedIssues: 0,
      persistingIssues: 2,
      // /b changed status and indexability: one URL, one row.
      changedUrls: 4,
      added: 1,
      removed: 1,
      statusChanged: 1,
      indexabilityChanged: 2,
    });
    // Most severe first (META_TITLE_MISSING is critical), then the most new URLs.
    expect(c.codes[0]).toMatchObject({
      code: 'META_TITLE_MISSING',
      severity: 'CRITICAL',
      newUrls: 1,
      fixedUrls: 0,
      goneUrls: 1,
      persistingUrls: 1,
    });
    const byCode = new Map(c.codes.map((r: { code: string }) => [r.code, r]));
    expect(byCode.get('LINKS_INTERNAL_BROKEN')).toMatchObject({
      newUrls: 0,
      fixedUrls: 1,
      goneUrls: 1,
      persistingUrls: 0,
    });
    expect(byCode.get('CONTENT_THIN')).toMatchObject({ newUrls: 3, fixedUrls: 0, title: expect.any(String) });
    expect(c.pages.totalCount).toBe(4);
    expect(c.pages.nodes.length).toBe(c.totals.changedUrls);
    expect(c.pages.nodes).toEqual([
      {
        url: u('/b'),
        changes: ['STATUS_CHANGED', 'INDEXABILITY_CHANGED'],
        before: { statusCode: 200, indexable: true, title: 'B' },
        after: { statusCode: 404, indexable: false },
      },
      {
        url: u('/c'),
        changes: ['INDEXABILITY_CHANGED'],
        before: { statusCode: 200, indexable: true, title: 'C' },
        after: { statusCode: 200, indexable: false },
      },
      { url: u('/new'), changes: ['ADDED'], before: null, after: { statusCode: 200, indexable: true } },
      { url: u('/old'), changes: ['REMOVED'], before: { statusCode: 200, indexable: true, title: 'Old' }, after: null },
    ]);
    expect(c.c).toEqual({
      changes: ['INDEXABILITY_CHANGED'],
      before: { indexable: true },
      after: { indexable: false },
      issues: [
        { code: 'CONTENT_THIN', change: 'NEW', severity: expect.any(String) },
        { code: 'META_DESCRIPTION_MISSING', change: 'PERSISTING', severity: expect.any(String) },
      ],
    });
    expect(c.nowhere).toBeNull();
  });

  it('compares named audits either way round, and a head with the audit before it', async () => {
    const reversed = (await ask(COMPARE, { p: project.id, b: headId, h: baseId })).data.auditComparison;
    // Back in time: /new was not crawled then (its issues are gone with it); /a and /c lost CONTENT_THIN.
    expect(reversed.totals).toMatchObject({
      newIssues: 3,
      fixedIssues: 2,
      goneIssues: 2,
      persistingIssues: 2,
      added: 1,
      removed: 1,
    });
    const headOnly = (await ask(COMPARE, { p: project.id, h: baseId })).data.auditComparison;
    expect([headOnly.base.id, headOnly.head.id]).toEqual([olderId, baseId]);
  });

  it('walks a change in keyset pages, and refuses a cursor of another list', async () => {
    const PAGE = `query($p: ID!, $after: String, $change: IssueChange!, $code: String) {
      auditComparison(projectId: $p) { issues(change: $change, code: $code, first: 1, after: $after) {
        totalCount pageInfo { hasNextPage endCursor } nodes { code url } } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const body = await ask(PAGE, { p: project.id, after, change: 'NEW' });
      const page: { pageInfo: { hasNextPage: boolean; endCursor: string }; nodes: { code: string; url: string }[] } =
        body.data.auditComparison.issues;
      seen.push(...page.nodes.map((n) => `${n.code} ${n.url}`));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual([
      `CONTENT_THIN ${u('/a')}`,
      `CONTENT_THIN ${u('/c')}`,
      `CONTENT_THIN ${u('/new')}`,
      `META_TITLE_MISSING ${u('/new')}`,
    ]);
    const oneCode = await ask(PAGE, { p: project.id, after: null, change: 'NEW', code: 'META_TITLE_MISSING' });
    expect(oneCode.data.auditComparison.issues).toMatchObject({ totalCount: 1, nodes: [{ url: u('/new') }] });
    const foreign = await ask(PAGE, { p: project.id, after, change: 'FIXED' });
    expect(foreign.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const garbage = await ask(PAGE, { p: project.id, after: '!!', change: 'NEW' });
    expect(garbage.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('says what is wrong with the audits named', async () => {
    const codeOf = async (vars: Record<string, unknown>) =>
      (
        await ask(
          'query($p: ID!, $b: ID, $h: ID) { auditComparison(projectId: $p, base: $b, head: $h) { projectId } }',
          vars,
        )
      ).errors?.[0];
    expect(await codeOf({ p: project.id, b: baseId, h: baseId })).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT' },
      message: expect.stringContaining('same audit'),
    });
    expect(await codeOf({ p: project.id, h: runningId })).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT' },
      message: expect.stringContaining('RUNNING'),
    });
    expect((await codeOf({ p: project.id, b: 'not-a-uuid' }))?.extensions.code).toBe('NOT_FOUND');
    // The oldest completed audit has nothing before it.
    expect((await codeOf({ p: project.id, h: olderId }))?.extensions.code).toBe('NOT_FOUND');
    const lone = await aProject({ org });
    await anAudit({ project: lone });
    expect((await codeOf({ p: lone.id }))?.extensions.code).toBe('NOT_FOUND');
  });

  it("is NOT_FOUND for another organization's project and audits", async () => {
    const other = await anOrg(t, { plan: 'ENTERPRISE' });
    const theirs = await ask(COMPARE, { p: project.id }, other.owner.cookie);
    expect(theirs.errors[0].extensions.code).toBe('NOT_FOUND');
    const mine = await aProject({ org: other });
    const named = await ask(COMPARE, { p: mine.id, b: baseId, h: headId }, other.owner.cookie);
    expect(named.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('gives the alert facts of a completed audit: new issues with examples and regressed pages', async () => {
    const facts = await comparisonAlertFacts(t.runtime.orm.em.fork(), { base: baseId, head: headId });
    expect(facts.newIssues).toEqual([
      {
        code: 'META_TITLE_MISSING',
        title: expect.any(String),
        severity: 'CRITICAL',
        urls: 1,
        exampleUrls: [u('/new')],
      },
      {
        code: 'CONTENT_THIN',
        title: expect.any(String),
        severity: expect.any(String),
        urls: 3,
        exampleUrls: [u('/a'), u('/c'), u('/new')],
      },
    ]);
    expect(facts.pageRegressions).toEqual([
      { url: u('/b'), before: { statusCode: 200, indexable: true }, after: { statusCode: 404, indexable: false } },
      { url: u('/c'), before: { statusCode: 200, indexable: true }, after: { statusCode: 200, indexable: false } },
    ]);
    const limited = await comparisonAlertFacts(
      t.runtime.orm.em.fork(),
      { base: baseId, head: headId },
      { examples: 1, regressions: 1 },
    );
    expect(limited.newIssues[1].exampleUrls).toEqual([u('/a')]);
    expect(limited.pageRegressions.map((r) => r.url)).toEqual([u('/b')]);
    const nothing = await comparisonAlertFacts(t.runtime.orm.em.fork(), { base: headId, head: headId });
    expect(nothing).toEqual({
      newIssues: [],
      pageRegressions: [],
      settingChanges: [],
      beforeWontFix: { base: null, head: null },
    });
  });
});

describe('audits scored with different check settings', () => {
  const breakdown = (overrides: { code: string; enabled: boolean; severity: string | null }[]) =>
    JSON.stringify({
      health: 100,
      htmlPages: 2,
      pagesWithCritical: 0,
      checksApplied: 1,
      checksPassed: 0,
      labPerformance: null,
      costs: [],
      cappedFrom: null,
      blockers: [],
      ...(overrides.length ? { overrides } : {}),
    });
  const scored = (id: string, overrides: { code: string; enabled: boolean; severity: string | null }[]) =>
    t.runtime.pool.query('UPDATE audit SET score_breakdown = $2::jsonb WHERE id = $1', [id, breakdown(overrides)]);
  const off = (code: string) => ({ code, enabled: false, severity: null });

  it(
    'a check switched off is "not checked", never fixed; switched on again, "newly checked", never new; the ' +
      'deltas, the dashboard change and a score-drop alert are withheld; the history marks the audit',
    async () => {
      const p = await aProject({ org, url: `${S}/settings/` });
      const now = Date.now();
      const pages = [{ url: u('/settings/') }, { url: u('/settings/a') }];
      const http = { code: 'TECH_HTTP_PAGE', occurrences: [u('/settings/'), u('/settings/a')] };
      const title = { code: 'META_TITLE_MISSING', occurrences: [u('/settings/a')] };
      const audit = (minutesAgo: number, overall: number, issues: (typeof http)[]) =>
        anAudit({ project: p, pages, issues, scores: { overall }, createdAt: new Date(now - minutesAgo * 60_000) });
      // Over http, scored with every check; then TECH_HTTP_PAGE switched off (the site did not change); then on.
      const first = await audit(30, 23, [http, title]);
      const second = await audit(20, 84, [title]);
      const third = await audit(10, 23, [http, title]);
      await scored(first.id, []);
      await scored(second.id, [off('TECH_HTTP_PAGE')]);
      await scored(third.id, []);

      const body = await ask(COMPARE, { p: p.id, b: first.id, h: second.id });
      expect(body.errors).toBeUndefined();
      const c = body.data.auditComparison;
      expect(c.settingsChanged).toBe(true);
      expect(c.settingChanges).toEqual([
        {
          code: 'TECH_HTTP_PAGE',
          change: 'DISABLED',
          description: expect.stringMatching(/TECH_HTTP_PAGE\) disabled$/),
        },
      ]);
      expect(c.scores[0]).toEqual({ category: 'OVERALL', before: 23, after: 84, delta: null });
      // TECH_HTTP_PAGE is a site fact: one row for the site (at its first URL), not one per page.
      expect(c.totals).toMatchObject({ fixedIssues: 0, goneIssues: 0, notCheckedIssues: 1, persistingIssues: 1 });
      expect(c.notChecked.nodes).toEqual([{ code: 'TECH_HTTP_PAGE', url: u('/settings/') }]);
      expect(c.fixed.nodes).toEqual([]);

      const back = (await ask(COMPARE, { p: p.id, b: second.id, h: third.id })).data.auditComparison;
      expect(back.totals).toMatchObject({ newIssues: 0, newlyCheckedIssues: 1, persistingIssues: 1 });
      expect(back.settingChanges).toEqual([expect.objectContaining({ code: 'TECH_HTTP_PAGE', change: 'ENABLED' })]);
      const facts = await comparisonAlertFacts(t.runtime.orm.em.fork(), { base: second.id, head: third.id });
      expect(facts.newIssues).toEqual([]);
      expect(facts.settingChanges).toEqual([expect.objectContaining({ code: 'TECH_HTTP_PAGE', change: 'ENABLED' })]);

      // The dashboard: no "▲61" for a settings change (and no "▼61" when it is undone).
      const project = await ask(
        `query($id: ID!) { project(id: $id) { scoreChange scoreChangeWithheld } audits(projectId: $id, first: 10) {
          nodes { id checkSettings { code enabled severity } settingChanges { code change } } } }`,
        { id: p.id },
      );
      expect(project.data.project).toEqual({ scoreChange: null, scoreChangeWithheld: true });
      const history = new Map(project.data.audits.nodes.map((a: { id: string }) => [a.id, a]));
      expect(history.get(first.id)).toMatchObject({ checkSettings: [], settingChanges: null });
      expect(history.get(second.id)).toMatchObject({
        checkSettings: [{ code: 'TECH_HTTP_PAGE', enabled: false, severity: null }],
        settingChanges: [{ code: 'TECH_HTTP_PAGE', change: 'DISABLED' }],
      });
      expect(history.get(third.id)).toMatchObject({ settingChanges: [{ code: 'TECH_HTTP_PAGE', change: 'ENABLED' }] });

      // Scored alike again: the change shows.
      const fourth = await audit(5, 25, [http]);
      await scored(fourth.id, []);
      const again = await ask('query($id: ID!) { project(id: $id) { scoreChange scoreChangeWithheld } }', { id: p.id });
      expect(again.data.project).toEqual({ scoreChange: 2, scoreChangeWithheld: false });
    },
  );
});

describe('the stored digest of a pair', () => {
  const q = <T>(sql: string, params: unknown[]) => t.runtime.pool.query(sql, params).then((r) => r.rows as T[]);
  const stored = (pair: { base: string; head: string }) =>
    q<{ issues: number; pages: number }>(
      `SELECT (SELECT count(*)::int FROM comparison_issue_change WHERE base_id = $1 AND head_id = $2) AS issues,
              (SELECT count(*)::int FROM comparison_page_change WHERE base_id = $1 AND head_id = $2) AS pages
       FROM comparison_digest WHERE base_id = $1 AND head_id = $2`,
      [pair.base, pair.head],
    );

  it('is computed once by concurrent first reads, reused after, and goes with either audit', async () => {
    const now = Date.now();
    const pages = [{ url: u('/') }, { url: u('/x') }];
    const a = await anAudit({ project, pages, createdAt: new Date(now - 5 * DAY), issues: [] });
    const b = await anAudit({
      project,
      pages: [{ url: u('/'), statusCode: 500, indexable: true }, { url: u('/y') }],
      createdAt: new Date(now - 4 * DAY),
      issues: [{ code: 'META_TITLE_MISSING', occurrences: [u('/'), u('/y')] }],
    });
    const pair = { base: a.id, head: b.id };
    const repo = new ComparisonRepository();
    const reads = await Promise.all(Array.from({ length: 6 }, () => repo.codeChanges(t.runtime.orm.em.fork(), pair)));
    for (const rows of reads)
      expect(rows).toEqual([
        expect.objectContaining({
          code: 'META_TITLE_MISSING',
          newUrls: 2,
          fixedUrls: 0,
          goneUrls: 0,
          persistingUrls: 0,
        }),
      ]);
    // One digest: 2 new occurrences, 3 changed URLs (/ changed status, /x removed, /y added).
    expect(await stored(pair)).toEqual([{ issues: 2, pages: 3 }]);
    expect(await repo.pageChangeTotals(t.runtime.orm.em.fork(), pair)).toEqual({
      changedUrls: 3,
      added: 1,
      removed: 1,
      statusChanged: 1,
      indexabilityChanged: 0,
    });
    await q('DELETE FROM audit WHERE id = $1', [b.id]);
    expect(await stored(pair)).toEqual([]);
    await q('DELETE FROM audit WHERE id = $1', [a.id]);
  });

  it('is NOT_FOUND, never a crash, when its audits are deleted while it is read (their project deleted)', async () => {
    const now = Date.now();
    const pages = [{ url: u('/') }];
    const a = await anAudit({ project, pages, createdAt: new Date(now - 5 * DAY), issues: [] });
    const b = await anAudit({ project, pages, createdAt: new Date(now - 4 * DAY), issues: [] });
    const pair = { base: a.id, head: b.id };
    // The fuzz drill's race: the digest is there when checked, gone (cascade) when its totals are read.
    class DeletedMeanwhile extends ComparisonRepository {
      override async ensureDigest(db: Parameters<ComparisonRepository['ensureDigest']>[0], p: typeof pair) {
        await super.ensureDigest(db, p);
        await q('DELETE FROM audit WHERE id = $1', [b.id]);
      }
    }
    const racing = new DeletedMeanwhile().pageChangeTotals(t.runtime.orm.em.fork(), pair);
    await expect(racing).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Audit not found' });
    // Deleted before the digest is made: the same answer.
    await expect(new ComparisonRepository().codeChanges(t.runtime.orm.em.fork(), pair)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await stored(pair)).toEqual([]);
    await q('DELETE FROM audit WHERE id = $1', [a.id]);
  });

  it('is never stored for an audit that is not completed', async () => {
    const repo = new ComparisonRepository();
    await expect(repo.codeChanges(t.runtime.orm.em.fork(), { base: headId, head: runningId })).rejects.toThrow(
      /not both completed/,
    );
    expect(await stored({ base: headId, head: runningId })).toEqual([]);
  });
});

describe('GET …/audit/compare', () => {
  it('answers on Surface A with an API key, and Surface B with the session, in JSON and CSV', async () => {
    const key = await anApiKey(org);
    const a = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${project.id}/audit/compare?base=${baseId}&head=${headId}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(a.statusCode).toBe(200);
    const comparison = a.json().comparison;
    expect(comparison.base.id).toBe(baseId);
    expect(comparison.totals).toMatchObject({ newIssues: 4, fixedIssues: 1, goneIssues: 2, persistingIssues: 2 });
    expect(comparison.settingsChanged).toBe(false);
    expect(comparison.scores[0]).toEqual({
      category: 'OVERALL',
      before: 80,
      after: 71,
      comparableBefore: 80,
      comparableAfter: 71,
      delta: -9,
    });
    expect(comparison.codes.length).toBe(4);
    // Each code says whether it is a site fact (compared once for the site): none of the planted ones is.
    expect(comparison.codes.map((r: { siteFact: unknown }) => r.siteFact)).toEqual([false, false, false, false]);

    const b = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${project.id}/audit/compare`,
      headers: { cookie: org.owner.cookie },
    });
    expect(b.statusCode).toBe(200);
    expect(b.json().comparison.head.id).toBe(headId);

    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${project.id}/audit/compare?format=csv`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('change,code,title,severity,category,url');
    // 4 new, 1 fixed, 2 gone and 2 persisting occurrences, one row each.
    expect(lines.length).toBe(1 + 9);
    expect(lines.filter((l) => l.startsWith('NEW,')).length).toBe(4);
    expect(lines).toContain(`GONE,META_TITLE_MISSING,Missing title,CRITICAL,META,${u('/b')}`);
    expect(lines.filter((l) => l.startsWith('FIXED,'))).toEqual([expect.stringContaining(u('/a'))]);

    const pagesCsv = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${project.id}/audit/compare?format=csv&rows=pages`,
      headers: { cookie: org.owner.cookie },
    });
    expect(pagesCsv.statusCode).toBe(200);
    const pageLines = pagesCsv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(pageLines[0]).toBe('url,changes,statusBefore,statusAfter,indexableBefore,indexableAfter');
    expect(pageLines).toContain(`${u('/b')},STATUS_CHANGED INDEXABILITY_CHANGED,200,404,true,false`);
  });

  it('refuses bad input with the documented errors', async () => {
    const key = await anApiKey(org);
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${project.id}/audit/compare?base=${baseId}&head=${baseId}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'BAD_USER_INPUT', error: expect.stringContaining('same audit') });
    const format = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${project.id}/audit/compare?format=xml`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(format.statusCode).toBe(400);
    expect(format.json().code).toBe('BAD_USER_INPUT');
    const running = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${project.id}/audit/compare?head=${runningId}&format=csv`,
      headers: { authorization: `Bearer ${key}` },
    });
    // The first CSV piece is asked for before any byte is sent: the refusal keeps its status.
    expect(running.statusCode).toBe(400);
    expect(running.headers['content-type']).toContain('application/json');
    const other = await anOrg(t, { plan: 'ENTERPRISE' });
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${project.id}/audit/compare`,
      headers: { cookie: other.owner.cookie },
    });
    expect(theirs.statusCode).toBe(404);
  });
});
