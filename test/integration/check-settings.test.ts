/**
 * Per-project check settings (issue 28 item 6): Project.checkSettings, setCheckSetting / resetCheckSetting (write
 * access, tenant isolation, clear refusals) and what an audit does with them: a disabled check is not reported and
 * costs nothing; an overridden severity is the issue's and is costed as that severity. The expected scores are
 * computed here from the formula docs/scores.md documents, from the costs of the same site audited without settings.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditJobRunner } from '../../src/audits/index.js';
import { CHECK_CATALOG } from '../../src/seo/checks/index.js';
import { createConfiguredSafeHttpClient, type SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anApiKey, anOrg, aProject, type Org } from '../factories.js';

let t: TestApp;
let org: Org;
let client: SafeHttpClient;
let server: http.Server;
let port = 0;
const host = `check-settings-${uniq()}.test`;

/** Four pages linked in a ring; pages 0 and 2 have a meta description, 1 and 3 have none. */
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
        ? `<meta name="description" content="Page ${n} of the check settings fixture site, described at a length ` +
          `that passes the description checks.">`
        : '';
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Check settings fixture, page number ` +
        `${n}</title>${description}<meta name="viewport" content="width=device-width, initial-scale=1"></head>` +
        `<body><h1>Page ${n}</h1><p>Some text of page ${n}.</p><a href="${n === 3 ? '/' : `/p/${n + 1}`}">` +
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

const SETTINGS = `query($id: ID!) { project(id: $id) { checkSettings {
  code severity defaultSeverity enabled overridden banded } } }`;
const SET = `mutation($p: ID!, $i: CheckSettingInput!) { setCheckSetting(projectId: $p, input: $i) {
  code severity defaultSeverity enabled overridden } }`;
const RESET =
  'mutation($p: ID!, $c: String!) { resetCheckSetting(projectId: $p, code: $c) { code enabled overridden } }';

describe('check settings through GraphQL', () => {
  it('lists every catalog check; sets, reads back and resets an override', async () => {
    const { id } = await aProject({ org });
    const before = await gql(t, SETTINGS, { id }, { cookie: org.owner.cookie });
    const list = before.body.data.project.checkSettings as { code: string; overridden: boolean }[];
    expect(list.map((c) => c.code)).toEqual(CHECK_CATALOG.map((c) => c.code));
    expect(list.every((c) => !c.overridden)).toBe(true);

    const set = await gql(
      t,
      SET,
      { p: id, i: { code: 'META_TITLE_TOO_LONG', severity: 'NOTICE' } },
      { cookie: org.owner.cookie },
    );
    expect(set.body.data.setCheckSetting).toEqual({
      code: 'META_TITLE_TOO_LONG',
      severity: 'NOTICE',
      defaultSeverity: 'WARNING',
      enabled: true,
      overridden: true,
    });
    const off = await gql(t, SET, { p: id, i: { code: 'PERF_LCP', enabled: false } }, { cookie: org.owner.cookie });
    expect(off.body.data.setCheckSetting).toMatchObject({ enabled: false, overridden: true });
    const after = await gql(t, SETTINGS, { id }, { cookie: org.owner.cookie });
    const overridden = after.body.data.project.checkSettings.filter((c: { overridden: boolean }) => c.overridden);
    expect(overridden.map((c: { code: string }) => c.code)).toEqual(['META_TITLE_TOO_LONG', 'PERF_LCP']);

    // Setting the catalog's own values, or resetting, leaves no row behind.
    await gql(t, SET, { p: id, i: { code: 'META_TITLE_TOO_LONG', severity: 'WARNING' } }, { cookie: org.owner.cookie });
    const reset = await gql(t, RESET, { p: id, c: 'PERF_LCP' }, { cookie: org.owner.cookie });
    expect(reset.body.data.resetCheckSetting).toEqual({ code: 'PERF_LCP', enabled: true, overridden: false });
    const { rows } = await t.runtime.pool.query(
      'SELECT count(*)::int AS n FROM project_check_setting WHERE project_id = $1',
      [id],
    );
    expect(rows[0].n).toBe(0);
  });

  it('refuses an unknown code and a banded severity with BAD_USER_INPUT and a clear message', async () => {
    const { id } = await aProject({ org });
    const unknown = await gql(
      t,
      SET,
      { p: id, i: { code: 'NOT_A_CHECK', enabled: false } },
      { cookie: org.owner.cookie },
    );
    expect(unknown.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(unknown.body.errors?.[0].message).toMatch(/Unknown check code "NOT_A_CHECK"/);
    const banded = await gql(
      t,
      SET,
      { p: id, i: { code: 'PERF_CLS', severity: 'NOTICE' } },
      { cookie: org.owner.cookie },
    );
    expect(banded.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(banded.body.errors?.[0].message).toMatch(/banded check.*cannot be overridden/);
    const resetUnknown = await gql(t, RESET, { p: id, c: 'NOPE' }, { cookie: org.owner.cookie });
    expect(resetUnknown.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const badEnum = await gql(
      t,
      SET,
      { p: id, i: { code: 'META_TITLE_TOO_LONG', severity: 'HUGE' } },
      { cookie: org.owner.cookie },
    );
    expect(badEnum.body.errors?.length).toBeGreaterThan(0);
    expect(badEnum.status).toBeLessThan(500);
  });

  it("another organization's project is NOT_FOUND; anonymous UNAUTHENTICATED; a read-only key FORBIDDEN", async () => {
    const { id } = await aProject({ org });
    const otherOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    const set = await gql(
      t,
      SET,
      { p: id, i: { code: 'META_TITLE_TOO_LONG', enabled: false } },
      { cookie: otherOrg.owner.cookie },
    );
    expect(set.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const reset = await gql(t, RESET, { p: id, c: 'META_TITLE_TOO_LONG' }, { cookie: otherOrg.owner.cookie });
    expect(reset.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const read = await gql(t, SETTINGS, { id }, { cookie: otherOrg.owner.cookie });
    expect(read.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const anonymous = await gql(t, SET, { p: id, i: { code: 'META_TITLE_TOO_LONG', enabled: false } });
    expect(anonymous.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const proOrg = await anOrg(t, { plan: 'PRO' });
    const proProject = await aProject({ org: proOrg });
    const key = await anApiKey(proOrg);
    const viaKey = await gql(
      t,
      SET,
      { p: proProject.id, i: { code: 'META_TITLE_TOO_LONG', enabled: false } },
      { authorization: `Bearer ${key}` },
    );
    expect(viaKey.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const { rows } = await t.runtime.pool.query(
      'SELECT count(*)::int AS n FROM project_check_setting WHERE project_id = ANY($1)',
      [[id, proProject.id]],
    );
    expect(rows[0].n).toBe(0);
  });
});

interface Cost {
  code: string;
  category: string;
  severity: string;
  scope: string;
  affectedPages: number;
  points: number;
}
interface Breakdown {
  health: number;
  htmlPages: number;
  costs: Cost[];
  blockers: string[];
  overrides?: { code: string; enabled: boolean; severity: string | null }[];
}

async function runAudit(projectId: string) {
  const started = await gql(
    t,
    'mutation($p: ID!) { startAudit(projectId: $p) { auditId } }',
    { p: projectId },
    { cookie: org.owner.cookie, origin: t.config.baseUrl },
  );
  const auditId = started.body.data.startAudit.auditId as string;
  const runner = new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger);
  expect(await runner.run(auditId)).toBe('completed');
  const audit = (
    await t.runtime.pool.query(
      `SELECT overall_score, meta_score, content_score, links_score, technical_score, performance_score,
         score_breakdown FROM audit WHERE id = $1`,
      [auditId],
    )
  ).rows[0];
  const issues = (
    await t.runtime.pool.query('SELECT code, severity, affected_pages FROM audit_issue WHERE audit_id = $1', [auditId])
  ).rows as { code: string; severity: string; affected_pages: number }[];
  const occurrences = (
    await t.runtime.pool.query('SELECT DISTINCT code FROM issue_occurrence WHERE audit_id = $1', [auditId])
  ).rows.map((r: { code: string }) => r.code);
  return { auditId, audit, breakdown: audit.score_breakdown as Breakdown, issues, occurrences };
}

// The formula as docs/scores.md documents it (written out here, not imported).
const PAGE_WEIGHT: Record<string, number> = { CRITICAL: 1, WARNING: 0.3, NOTICE: 0.03 };
const CATEGORY_WEIGHT: Record<string, number> = { META: 20, CONTENT: 20, LINKS: 20, TECHNICAL: 25, PERFORMANCE: 15 };
const round = (x: number) => Math.round(x + 1e-9);

describe('an audit with check settings', () => {
  it('drops a disabled check and uses an overridden severity for the issue and the score', async () => {
    const url = `http://${host}:${port}/`;
    const { id } = await aProject({ org, url: url });
    const base = await runAudit(id);
    // The site as it is: over http every page shows TECH_HTTP_PAGE ("No HTTPS", a WARNING charged once for the site,
    // never in health); pages 1 and 3 lack a description.
    const http = base.issues.find((i) => i.code === 'TECH_HTTP_PAGE');
    const description = base.issues.find((i) => i.code === 'META_DESCRIPTION_MISSING');
    expect(http).toMatchObject({ severity: 'WARNING', affected_pages: 4 });
    expect(description).toMatchObject({ severity: 'WARNING', affected_pages: 2 });
    expect(base.breakdown.htmlPages).toBe(4);
    expect(base.breakdown.health).toBe(100);
    expect(base.issues.filter((i) => i.severity === 'CRITICAL').map((i) => i.code)).toEqual([]);
    expect(base.breakdown.blockers).toEqual([]);
    expect(base.breakdown.overrides).toBeUndefined();

    await gql(t, SET, { p: id, i: { code: 'TECH_HTTP_PAGE', enabled: false } }, { cookie: org.owner.cookie });
    await gql(
      t,
      SET,
      { p: id, i: { code: 'META_DESCRIPTION_MISSING', severity: 'CRITICAL' } },
      { cookie: org.owner.cookie },
    );
    const next = await runAudit(id);

    // The disabled check: no issue, no occurrence, no cost.
    expect(next.issues.map((i) => i.code)).not.toContain('TECH_HTTP_PAGE');
    expect(next.occurrences).not.toContain('TECH_HTTP_PAGE');
    expect(next.breakdown.costs.map((c) => c.code)).not.toContain('TECH_HTTP_PAGE');
    // The overridden severity: the issue's, and its cost is 100 × 1.0 × 2 / 4 = 50.
    expect(next.issues.find((i) => i.code === 'META_DESCRIPTION_MISSING')).toMatchObject({
      severity: 'CRITICAL',
      affected_pages: 2,
    });
    const cost = next.breakdown.costs.find((c) => c.code === 'META_DESCRIPTION_MISSING')!;
    expect(cost).toMatchObject({ severity: 'CRITICAL', points: 50 });
    expect(next.breakdown.overrides).toEqual([
      { code: 'META_DESCRIPTION_MISSING', enabled: true, severity: 'CRITICAL' },
      { code: 'TECH_HTTP_PAGE', enabled: false, severity: null },
    ]);

    // Expected scores from the first audit's costs: without TECH_HTTP_PAGE, META_DESCRIPTION_MISSING repriced.
    const costs = base.breakdown.costs
      .filter((c) => c.code !== 'TECH_HTTP_PAGE')
      .map((c) => (c.code === 'META_DESCRIPTION_MISSING' ? { ...c, points: (100 * PAGE_WEIGHT.CRITICAL * 2) / 4 } : c));
    const category = (name: string) =>
      Math.max(0, round(100 - costs.filter((c) => c.category === name).reduce((s, c) => s + c.points, 0)));
    const scores = Object.fromEntries(Object.keys(CATEGORY_WEIGHT).map((c) => [c, category(c)]));
    // Health: the pages with a CRITICAL issue are now the two without a description.
    const health = (100 * (4 - 2)) / 4;
    const categories = Object.entries(CATEGORY_WEIGHT).reduce((s, [c, w]) => s + w * scores[c], 0) / 100;
    const overall = round(0.5 * health + 0.5 * categories);
    expect(next.breakdown.health).toBe(50);
    expect({
      overall: next.audit.overall_score,
      meta: next.audit.meta_score,
      content: next.audit.content_score,
      links: next.audit.links_score,
      technical: next.audit.technical_score,
      performance: next.audit.performance_score,
    }).toEqual({
      overall,
      meta: scores.META,
      content: scores.CONTENT,
      links: scores.LINKS,
      technical: scores.TECHNICAL,
      performance: scores.PERFORMANCE,
    });
    // The settings moved the score: the description raised to CRITICAL takes half the pages out of health (50%),
    // far more than disabling "No HTTPS" (a site fact, never in health) gives back.
    expect(next.audit.overall_score).toBeLessThan(base.audit.overall_score);

    // A later change leaves the past audit's record alone.
    await gql(t, RESET, { p: id, c: 'TECH_HTTP_PAGE' }, { cookie: org.owner.cookie });
    const again = await t.runtime.pool.query('SELECT score_breakdown FROM audit WHERE id = $1', [next.auditId]);
    expect(again.rows[0].score_breakdown.overrides).toHaveLength(2);
  });
});

/**
 * A site edited between two audits, served from a route table the test rewrites: what the comparison says became of
 * each issue, and what it says of the scores when only the settings changed (docs/scores.md, calibration row 19).
 */
describe('the comparison of two audits of an edited site', () => {
  let edited: http.Server;
  let routes: Record<string, string> = {};
  let origin = '';
  const doc = (title: string | null, body: string, head = '') =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8">${title === null ? '' : `<title>${title}</title>`}` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">${head}</head><body>${body}</body></html>`;
  const described = (what: string) =>
    `<meta name="description" content="${what}: a page of the edited fixture site, described at a length that ` +
    `passes the description checks.">`;
  const text = (n: string) =>
    `<h1>Page ${n}</h1><p>${`Words about the page ${n} of the edited site, long enough to read. `.repeat(12)}</p>` +
    '<a href="/">Home</a>';
  const home = doc(
    'Home of the edited fixture site',
    `<h1>Home</h1><p>${'A home page with enough words on it to pass. '.repeat(12)}</p>` +
      '<a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a> <a href="/d">D</a>',
    described('Home'),
  );
  /** Before: /a has a short title; /b, /c and /d lack a description. */
  const BEFORE = {
    '/': home,
    '/a': doc('Page A', text('A'), described('Page A')),
    '/b': doc('Page B of the edited fixture site', text('B')),
    '/c': doc('Page C of the edited fixture site', text('C')),
    '/d': doc('Page D of the edited fixture site', text('D')),
  };
  /** After: /a lost its title, /b is deleted (404), /c got a noindex, /d got its description. */
  const AFTER = {
    '/': home,
    '/a': doc(null, text('A'), described('Page A')),
    '/c': doc('Page C of the edited fixture site', text('C'), '<meta name="robots" content="noindex">'),
    '/d': doc('Page D of the edited fixture site', text('D'), described('Page D')),
  };
  const COMPARISON = `query($p: ID!) { auditComparison(projectId: $p) {
    settingsChanged settingChanges { code change }
    scores { category before after comparableBefore comparableAfter delta }
    totals { newIssues fixedIssues goneIssues notCheckedIssues newlyCheckedIssues persistingIssues changedUrls }
    codes { code newUrls fixedUrls goneUrls notCheckedUrls newlyCheckedUrls persistingUrls }
    NEW: issues(change: NEW, first: 100) { totalCount nodes { code url } }
    FIXED: issues(change: FIXED, first: 100) { totalCount nodes { code url } }
    GONE: issues(change: GONE, first: 100) { totalCount nodes { code url } }
    NOT_CHECKED: issues(change: NOT_CHECKED, first: 100) { totalCount nodes { code url } }
    NEWLY_CHECKED: issues(change: NEWLY_CHECKED, first: 100) { totalCount nodes { code url } }
    PERSISTING: issues(change: PERSISTING, first: 100) { totalCount nodes { code url } }
    pages(first: 100) { totalCount nodes { url changes } }
  } }`;
  const TABS = ['NEW', 'FIXED', 'GONE', 'NOT_CHECKED', 'NEWLY_CHECKED', 'PERSISTING'] as const;
  const TOTAL = {
    NEW: 'newIssues',
    FIXED: 'fixedIssues',
    GONE: 'goneIssues',
    NOT_CHECKED: 'notCheckedIssues',
    NEWLY_CHECKED: 'newlyCheckedIssues',
    PERSISTING: 'persistingIssues',
  } as const;
  const URLS = {
    NEW: 'newUrls',
    FIXED: 'fixedUrls',
    GONE: 'goneUrls',
    NOT_CHECKED: 'notCheckedUrls',
    NEWLY_CHECKED: 'newlyCheckedUrls',
    PERSISTING: 'persistingUrls',
  } as const;
  type Node = { code: string; url: string };

  async function compare(projectId: string) {
    const res = await gql(t, COMPARISON, { p: projectId }, { cookie: org.owner.cookie });
    expect(res.body.errors).toBeUndefined();
    const c = res.body.data.auditComparison;
    // Every tab's count is its rows, and the per-code counts add up to it; changed URLs are one row each.
    for (const tab of TABS) {
      expect(c[tab].nodes).toHaveLength(c.totals[TOTAL[tab]]);
      expect(c[tab].totalCount).toBe(c.totals[TOTAL[tab]]);
      expect(c.codes.reduce((n: number, r: Record<string, number>) => n + r[URLS[tab]], 0)).toBe(c.totals[TOTAL[tab]]);
    }
    expect(c.pages.nodes).toHaveLength(c.totals.changedUrls);
    expect(new Set(c.pages.nodes.map((p: { url: string }) => p.url)).size).toBe(c.pages.nodes.length);
    const at = (tab: (typeof TABS)[number], path: string) =>
      (c[tab].nodes as Node[]).filter((n) => n.url === `${origin}${path}`).map((n) => n.code);
    return { c, at };
  }

  beforeAll(async () => {
    edited = http.createServer((req, res) => {
      if (req.url === '/robots.txt') return res.end('User-agent: *\nAllow: /\n');
      const body = routes[req.url ?? ''];
      if (body === undefined) return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(body);
    });
    const editedPort = await new Promise<number>((r) =>
      edited.listen(0, '127.0.0.1', () => r((edited.address() as { port: number }).port)),
    );
    origin = `http://${host}:${editedPort}`;
  });
  afterAll(() => new Promise((r) => edited.close(r)));

  it('sorts what vanished into fixed, gone with its page and not checked; new is new; counts equal rows', async () => {
    const { id } = await aProject({ org, url: `${origin}/` });
    routes = BEFORE;
    await runAudit(id);
    routes = AFTER;
    await gql(t, SET, { p: id, i: { code: 'META_OPEN_GRAPH_MISSING', enabled: false } }, { cookie: org.owner.cookie });
    await runAudit(id);
    const { c, at } = await compare(id);

    expect(c.settingsChanged).toBe(true);
    expect(c.settingChanges).toEqual([{ code: 'META_OPEN_GRAPH_MISSING', change: 'DISABLED' }]);
    // The title removed: missing is new on /a, and its "too short" is not fixed: it no longer applies.
    expect(at('NEW', '/a')).toContain('META_TITLE_MISSING');
    expect(at('NOT_CHECKED', '/a')).toContain('META_TITLE_TOO_SHORT');
    expect(at('FIXED', '/a')).toEqual([]);
    // The description added to /d: fixed, on a page still crawled and indexable.
    expect(at('FIXED', '/d')).toEqual(['META_DESCRIPTION_MISSING']);
    // The page deleted and the page that got a noindex: their issues went with them, none is "fixed".
    expect(at('GONE', '/b')).toContain('META_DESCRIPTION_MISSING');
    // /c: what the noindex took out of the checks (thin content is not judged on a page kept out of search) is gone;
    // its description is still missing, and still reported.
    expect(at('GONE', '/c').length).toBeGreaterThan(0);
    expect(at('PERSISTING', '/c')).toContain('META_DESCRIPTION_MISSING');
    expect([...at('FIXED', '/b'), ...at('FIXED', '/c')]).toEqual([]);
    // The check switched off: not checked on every page it fired on, never fixed.
    const og = (tab: (typeof TABS)[number]) =>
      (c[tab].nodes as Node[])
        .filter((n) => n.code === 'META_OPEN_GRAPH_MISSING')
        .map((n) => n.url.slice(origin.length));
    expect(og('NOT_CHECKED').sort()).toEqual(['/', '/a', '/b', '/c', '/d']);
    expect([...og('FIXED'), ...og('GONE'), ...og('NEW'), ...og('PERSISTING')]).toEqual([]);
    // What is fixed is /d's description, and nothing else.
    expect(c.FIXED.nodes).toEqual([{ code: 'META_DESCRIPTION_MISSING', url: `${origin}/d` }]);
    // Changed URLs: /b now 404, /c no longer indexable, each one row.
    const changed = new Map(c.pages.nodes.map((p: { url: string; changes: string[] }) => [p.url, p.changes]));
    expect(changed.get(`${origin}/b`)).toEqual(['STATUS_CHANGED', 'INDEXABILITY_CHANGED']);
    expect(changed.get(`${origin}/c`)).toEqual(['INDEXABILITY_CHANGED']);
  });

  it('row 19: a check switched off on an unchanged site: same overall on both, "not checked", 0 fixed', async () => {
    const { id } = await aProject({ org, url: `${origin}/?row=19` });
    routes = { ...BEFORE, '/?row=19': BEFORE['/'] };
    const first = await runAudit(id);
    await gql(t, SET, { p: id, i: { code: 'META_OPEN_GRAPH_MISSING', enabled: false } }, { cookie: org.owner.cookie });
    const second = await runAudit(id);
    // The stored scores differ (the second audit did not charge the check)...
    expect(second.breakdown.costs.map((x) => x.code)).not.toContain('META_OPEN_GRAPH_MISSING');
    expect(first.breakdown.costs.map((x) => x.code)).toContain('META_OPEN_GRAPH_MISSING');
    const { c } = await compare(id);
    // ...but under the checks both ran, the overall is the same on both: no change, no "better".
    const overall = c.scores[0];
    expect(overall).toMatchObject({ category: 'OVERALL', comparableBefore: overall.after, delta: 0 });
    expect(c.scores.every((s: { delta: number | null }) => s.delta === 0)).toBe(true);
    expect(c.totals).toMatchObject({ newIssues: 0, fixedIssues: 0, goneIssues: 0, newlyCheckedIssues: 0 });
    expect(c.totals.notCheckedIssues).toBeGreaterThan(0);
    expect(new Set((c.NOT_CHECKED.nodes as Node[]).map((n) => n.code))).toEqual(new Set(['META_OPEN_GRAPH_MISSING']));
    // The dashboard withholds the change, and the history marks the second audit.
    const project = await gql(
      t,
      `query($id: ID!) { project(id: $id) { scoreChange scoreChangeWithheld }
        audits(projectId: $id, first: 2) { nodes { settingChanges { code change } } } }`,
      { id },
      { cookie: org.owner.cookie },
    );
    expect(project.body.data.project).toEqual({ scoreChange: null, scoreChangeWithheld: true });
    expect(project.body.data.audits.nodes.map((a: { settingChanges: unknown }) => a.settingChanges)).toEqual([
      [{ code: 'META_OPEN_GRAPH_MISSING', change: 'DISABLED' }],
      null,
    ]);
  });
});
