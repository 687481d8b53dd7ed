import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anAudit, anOrg, aProject, type Audit, type Org, type Project } from '../factories.js';

/**
 * Rankings joined to audits: a keyword's ranking page with its issues (the ranking URL matched to the crawled one
 * through its www./scheme/trailing-slash variants), an issue's ranking pages and the priority they add, the ranking
 * keywords of affected pages and of the page view; only the latest check of a keyword and the project's latest
 * completed audit count; another organization sees nothing of it; and a whole list is joined in one or two statements.
 * Rankings are written as the rank worker writes them (one row per check, OK or FAILED with its reason).
 */
let t: TestApp;
let org: Org;
let project: Project;
let host: string;
let older: Audit;
let latest: Audit;
let running: Audit;
const kw: Record<string, string> = {};

const at = (path: string, scheme = 'https') => `${scheme}://${host}${path}`;
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
/** The two statements of the ranking-page join (RankingPagesRepository.rankingPageFacts). */
const LATEST_AUDITS_SQL = 'FROM unnest($1::uuid[]) AS w(id)';
const AUDIT_PAGES_SQL = "FROM unnest(string_to_array($3, E'\\n')) AS w(url) JOIN audit_page p ON p.audit_id = $2";

async function rank(keywordId: string, checkedAt: Date, position: number | null | 'FAILED', url?: string) {
  const failed = position === 'FAILED';
  await t.runtime.pool.query(
    `INSERT INTO ranking (id, keyword_id, status, position, url, provider, error, checked_at)
     VALUES ($1, $2, $3, $4, $5, 'serper', $6, $7)`,
    [
      newId(),
      keywordId,
      failed ? 'FAILED' : 'OK',
      failed ? null : position,
      failed || position === null ? null : url,
      failed ? 'serper answered HTTP 429' : null,
      checkedAt,
    ],
  );
}

const ask = (query: string, variables: Record<string, unknown>, cookie = org.owner.cookie) =>
  gql(t, query, variables, { cookie });

/** 20 crawled URLs: the ranking ones, the redirecting http:// twin of /trail, and filler pages. */
const PAGES = [
  { url: '/shoes/' },
  { url: '/trail' },
  { url: '/trail', scheme: 'http', statusCode: 301 },
  { url: '/socks' },
  ...Array.from({ length: 16 }, (_, i) => ({ url: `/p${i}` })),
];

beforeAll(async () => {
  t = await createTestApp();
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  host = `shop-${uniq()}.example.com`;
  project = await aProject({ org, url: `https://${host}/` });
  const added = await ask(
    'mutation($p: ID!, $k: [String!]!) { addKeywords(projectId: $p, input: { keywords: $k }) { id term } }',
    { p: project.id, k: ['running shoes', 'trail shoes', 'wool socks', 'rain boots', 'never checked'] },
  );
  for (const k of added.body.data.addKeywords as { id: string; term: string }[]) kw[k.term] = k.id;
  // running shoes: the results show the www. host without the trailing slash the crawler found.
  await rank(kw['running shoes'], minutesAgo(30), 9, `https://www.${host}/shoes`);
  await rank(kw['running shoes'], minutesAgo(5), 7, `https://www.${host}/shoes#reviews`);
  // trail shoes: ranked over http://, which the site redirects to https://; both were crawled.
  await rank(kw['trail shoes'], minutesAgo(5), 2, at('/trail', 'http'));
  // wool socks: ranked, then the latest check failed — no ranking page is invented from the older one.
  await rank(kw['wool socks'], minutesAgo(30), 3, at('/socks'));
  await rank(kw['wool socks'], minutesAgo(5), 'FAILED');
  // rain boots: checked, not within the depth.
  await rank(kw['rain boots'], minutesAgo(5), null);

  const pages = PAGES.map((p) => ({
    url: at(p.url, p.scheme),
    statusCode: p.statusCode ?? 200,
    finalUrl: p.statusCode ? at(p.url) : undefined,
  }));
  // The same low-cost issue (a missing H1 on the #2 page) and a wider one (descriptions missing on two pages nobody
  // reaches from search), in an older completed audit and in the latest one.
  const cheapAndWide = [
    { code: 'CONTENT_H1_MISSING', occurrences: [at('/trail')], applicablePages: 20 },
    { code: 'META_DESCRIPTION_MISSING', occurrences: [at('/p1'), at('/p2')], applicablePages: 20 },
  ];
  older = await anAudit({ project, pages, issues: cheapAndWide, createdAt: minutesAgo(120) });
  latest = await anAudit({
    project,
    pages,
    createdAt: minutesAgo(60),
    issues: [
      ...cheapAndWide,
      { code: 'META_TITLE_MISSING', occurrences: [at('/shoes/')], applicablePages: 20 },
      { code: 'PERF_LCP', severity: 'CRITICAL', occurrences: [at('/shoes/')], applicablePages: 20 },
      { code: 'LINKS_REDIRECT_CHAIN', occurrences: [at('/trail', 'http')], applicablePages: 20 },
      { code: 'META_TITLE_TOO_SHORT', occurrences: [at('/socks')], applicablePages: 20 },
    ],
  });
  // A newer audit still running: the latest COMPLETED one is what rankings are joined to.
  running = await anAudit({ project, status: 'RUNNING', pages: 1, createdAt: minutesAgo(1) });
  // Lab vitals of the ranking page in the latest audit: 4.2 s on desktop (the keyword's device), 5.1 s on mobile.
  for (const [device, lcp] of [
    ['mobile', 5100],
    ['desktop', 4200],
  ] as const) {
    await t.runtime.pool.query(
      `INSERT INTO technical_snapshot (id, project_id, audit_id, url, measured_at, device, source, lcp_ms)
       VALUES ($1, $2, $3, $4, now(), $5, 'LAB', $6)`,
      [newId(), project.id, latest.id, at('/shoes/'), device, lcp],
    );
  }
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const KEYWORDS = `query($p: ID!) { keywords(projectId: $p) { id term rankingPage { url auditId statusCode indexable
  issueCounts { critical warning notice } issues { code title severity } lcpMs } } }`;

type RankingPage = {
  url: string;
  auditId: string;
  issueCounts: { critical: number; warning: number; notice: number };
  issues: { code: string; title: string; severity: string }[];
  lcpMs: number | null;
};

async function rankingPages(): Promise<Record<string, RankingPage | null>> {
  const res = await ask(KEYWORDS, { p: project.id });
  expect(res.body.errors).toBeUndefined();
  const list = res.body.data.keywords as { term: string; rankingPage: RankingPage | null }[];
  return Object.fromEntries(list.map((k) => [k.term, k.rankingPage]));
}

const ISSUES = `query($p: ID!, $a: ID!) { audit(projectId: $p, auditId: $a) { issues { code priority rankingPages
  occurrences(first: 5) { nodes { url rankingKeywords { keywordId term position device country } } } } } }`;

type IssueRow = {
  code: string;
  priority: number;
  rankingPages: number;
  occurrences: { nodes: { url: string; rankingKeywords: { term: string; position: number }[] }[] };
};

async function issuesOf(auditId: string): Promise<IssueRow[]> {
  const res = await ask(ISSUES, { p: project.id, a: auditId });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.audit.issues as IssueRow[];
}

const byPriority = (issues: IssueRow[]) => [...issues].sort((a, b) => b.priority - a.priority).map((i) => i.code);

describe("a keyword's ranking page", () => {
  it('is the crawled page the latest ranking URL names, with its issues (most severe first) and lab LCP', async () => {
    const pages = await rankingPages();
    expect(pages['running shoes']).toEqual({
      url: at('/shoes/'),
      auditId: latest.id,
      statusCode: 200,
      indexable: true,
      issueCounts: { critical: 2, warning: 0, notice: 0 },
      issues: [
        { code: 'META_TITLE_MISSING', title: 'Missing title', severity: 'CRITICAL' },
        { code: 'PERF_LCP', title: 'Slow Largest Contentful Paint', severity: 'CRITICAL' },
      ],
      lcpMs: 4200,
    });
  });

  it('is the document, not its redirecting http:// twin', async () => {
    const pages = await rankingPages();
    expect(pages['trail shoes']).toMatchObject({
      url: at('/trail'),
      statusCode: 200,
      issueCounts: { critical: 0, warning: 1, notice: 0 },
      issues: [{ code: 'CONTENT_H1_MISSING', severity: 'WARNING' }],
      lcpMs: null,
    });
  });

  it('is null when the latest check failed, found nothing, or never ran', async () => {
    const pages = await rankingPages();
    expect(pages['wool socks']).toBeNull();
    expect(pages['rain boots']).toBeNull();
    expect(pages['never checked']).toBeNull();
  });

  it('is read for the whole list in two statements (no per-keyword lookup)', async () => {
    t.queries.length = 0;
    await rankingPages();
    // The latest completed audit of the project, then that audit's pages under every URL variant of the list.
    expect(t.queries.filter((q) => q.includes(LATEST_AUDITS_SQL))).toHaveLength(1);
    expect(t.queries.filter((q) => q.includes(AUDIT_PAGES_SQL))).toHaveLength(1);
    expect(
      t.queries.filter((q) => q.includes('CROSS JOIN LATERAL (SELECT status, position, url FROM ranking')),
    ).toEqual([]);
  });

  it('asks for no page of a project that has no completed audit', async () => {
    const fresh = await aProject({ org, url: `https://fresh-${uniq()}.example.com/` });
    const added = await ask(
      'mutation($p: ID!, $k: [String!]!) { addKeywords(projectId: $p, input: { keywords: $k }) { id } }',
      { p: fresh.id, k: ['fresh shoes'] },
    );
    await rank(added.body.data.addKeywords[0].id, minutesAgo(5), 4, `https://www.${host}/shoes`);
    await anAudit({ project: fresh, status: 'RUNNING', pages: 1, createdAt: minutesAgo(1) });
    t.queries.length = 0;
    const res = await ask(KEYWORDS, { p: fresh.id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.keywords).toMatchObject([{ term: 'fresh shoes', rankingPage: null }]);
    expect(t.queries.filter((q) => q.includes(LATEST_AUDITS_SQL))).toHaveLength(1);
    expect(t.queries.filter((q) => q.includes(AUDIT_PAGES_SQL))).toEqual([]);
  });
});

describe("an audit's issues and pages", () => {
  it('count the affected pages that rank, and list the keywords of each affected page', async () => {
    const issues = Object.fromEntries((await issuesOf(latest.id)).map((i) => [i.code, i]));
    expect(issues.META_TITLE_MISSING.rankingPages).toBe(1);
    expect(issues.CONTENT_H1_MISSING.rankingPages).toBe(1);
    expect(issues.META_DESCRIPTION_MISSING.rankingPages).toBe(0);
    // The http:// twin redirects to the ranking page: it is not counted as a second one.
    expect(issues.LINKS_REDIRECT_CHAIN.rankingPages).toBe(0);
    // /socks ranked once, but its latest check failed.
    expect(issues.META_TITLE_TOO_SHORT.rankingPages).toBe(0);
    expect(issues.CONTENT_H1_MISSING.occurrences.nodes).toEqual([
      {
        url: at('/trail'),
        rankingKeywords: [
          { keywordId: kw['trail shoes'], term: 'trail shoes', position: 2, device: 'desktop', country: 'us' },
        ],
      },
    ]);
    expect(issues.META_TITLE_MISSING.occurrences.nodes[0].rankingKeywords).toMatchObject([
      { term: 'running shoes', position: 7 },
    ]);
    expect(issues.LINKS_REDIRECT_CHAIN.occurrences.nodes[0].rankingKeywords).toEqual([]);
    expect(issues.META_DESCRIPTION_MISSING.occurrences.nodes.every((n) => n.rankingKeywords.length === 0)).toBe(true);
  });

  it('put a low-cost issue on a #2 ranking page before a wider one on pages that do not rank', async () => {
    // The older audit has the same two issues; rankings are joined to the latest completed audit only.
    const before = await issuesOf(older.id);
    expect(byPriority(before)).toEqual(['META_DESCRIPTION_MISSING', 'CONTENT_H1_MISSING']);
    expect(before.every((i) => i.rankingPages === 0)).toBe(true);
    expect(before.find((i) => i.code === 'CONTENT_H1_MISSING')!.priority).toBeCloseTo(1.5, 10);

    const after = await issuesOf(latest.id);
    const order = byPriority(after);
    expect(order.indexOf('CONTENT_H1_MISSING')).toBeLessThan(order.indexOf('META_DESCRIPTION_MISSING'));
    const priority = Object.fromEntries(after.map((i) => [i.code, i.priority]));
    // 100 × 0.3 × 1/20 = 1.5 points, + 10 × 0.3 (WARNING) × 1 (a top-3 keyword).
    expect(priority.CONTENT_H1_MISSING).toBeCloseTo(4.5, 10);
    expect(priority.META_DESCRIPTION_MISSING).toBeCloseTo(3, 10);
    // 5 points, + 10 × 1 (CRITICAL) × 0.6 (#7).
    expect(priority.META_TITLE_MISSING).toBeCloseTo(11, 10);
    expect(priority.META_TITLE_TOO_SHORT).toBeCloseTo(0.15, 10);
  });

  it('the page view says which keywords the URL ranks for', async () => {
    const PAGE = `query($p: ID!, $a: ID!, $u: String!) { audit(projectId: $p, auditId: $a) { page(url: $u) {
      url rankingKeywords { term position } } } }`;
    const shoes = await ask(PAGE, { p: project.id, a: latest.id, u: at('/shoes/') });
    expect(shoes.body.data.audit.page.rankingKeywords).toEqual([{ term: 'running shoes', position: 7 }]);
    const twin = await ask(PAGE, { p: project.id, a: latest.id, u: at('/trail', 'http') });
    expect(twin.body.data.audit.page.rankingKeywords).toEqual([]);
    const old = await ask(PAGE, { p: project.id, a: older.id, u: at('/shoes/') });
    expect(old.body.data.audit.page.rankingKeywords).toEqual([]);
  });

  it('a newer audit that is still running does not displace the latest completed one', async () => {
    const res = await ask(`query($p: ID!) { audit(projectId: $p) { id status } }`, { p: project.id });
    expect(res.body.data.audit).toEqual({ id: running.id, status: 'RUNNING' });
    expect((await rankingPages())['running shoes']?.auditId).toBe(latest.id);
  });

  it('are joined in three statements for the whole list: ranking keywords, the latest audit, its pages', async () => {
    t.queries.length = 0;
    const issues = await issuesOf(latest.id);
    expect(issues.length).toBe(6);
    expect(t.queries.filter((q) => q.includes(LATEST_AUDITS_SQL))).toHaveLength(1);
    expect(t.queries.filter((q) => q.includes(AUDIT_PAGES_SQL))).toHaveLength(1);
    expect(
      t.queries.filter((q) => q.includes('CROSS JOIN LATERAL (SELECT status, position, url FROM ranking')),
    ).toHaveLength(1);
    expect(t.queries.filter((q) => q.includes('score_breakdown FROM audit'))).toHaveLength(1);
  });
});

describe("one issue's priority", () => {
  it("is the same read alone as in its audit's list (which reads the ranking once for all of its issues)", async () => {
    for (const audit of [latest, older]) {
      const listed = await ask(
        `query($p: ID!, $a: ID!) { audit(projectId: $p, auditId: $a) { issues { id code priority rankingPages } } }`,
        { p: project.id, a: audit.id },
      );
      expect(listed.body.errors).toBeUndefined();
      const issues = listed.body.data.audit.issues as { id: string; priority: number; rankingPages: number }[];
      expect(issues.length).toBeGreaterThan(1);
      for (const issue of issues) {
        const alone = await ask(
          `query($p: ID!, $a: ID!, $i: ID!) { audit(projectId: $p, auditId: $a) { issue(id: $i) {
            id code priority rankingPages } } }`,
          { p: project.id, a: audit.id, i: issue.id },
        );
        expect(alone.body.data.audit.issue).toEqual(issue);
      }
    }
    // The latest audit's list has ranking pages to weigh; the older audit's has none.
    expect((await issuesOf(latest.id)).some((i) => i.rankingPages > 0)).toBe(true);
  });
});

describe('another organization', () => {
  it("never sees this project's keywords, issues or pages (NOT_FOUND); its rankings join nothing here", async () => {
    const other = await anOrg(t, { plan: 'ENTERPRISE' });
    const theirs = await aProject({ org: other, url: `https://other-${uniq()}.example.com/` });
    const added = await ask(
      'mutation($p: ID!, $k: [String!]!) { addKeywords(projectId: $p, input: { keywords: $k }) { id } }',
      { p: theirs.id, k: ['running shoes'] },
      other.owner.cookie,
    );
    const theirKeyword = added.body.data.addKeywords[0].id as string;
    // Their keyword "ranks" with our page: it is still their project's, which has no audit.
    await rank(theirKeyword, minutesAgo(1), 1, at('/shoes/'));

    const keywords = await ask(KEYWORDS, { p: project.id }, other.owner.cookie);
    expect(keywords.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(keywords.body.data).toBeNull();
    const issues = await ask(ISSUES, { p: project.id, a: latest.id }, other.owner.cookie);
    expect(issues.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const page = await ask(
      `query($p: ID!, $a: ID!, $u: String!) { audit(projectId: $p, auditId: $a) { page(url: $u) { rankingKeywords {
        term } } } }`,
      { p: project.id, a: latest.id, u: at('/shoes/') },
      other.owner.cookie,
    );
    expect(page.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(page.body.data).toBeNull();
    const own = await ask(KEYWORDS, { p: theirs.id }, other.owner.cookie);
    expect(own.body.errors).toBeUndefined();
    expect(own.body.data.keywords[0].rankingPage).toBeNull();
    // Our side is unchanged: their keyword is not one of our page's.
    const ours = Object.fromEntries((await issuesOf(latest.id)).map((i) => [i.code, i]));
    expect(ours.META_TITLE_MISSING.occurrences.nodes[0].rankingKeywords).toMatchObject([{ term: 'running shoes' }]);
    expect(ours.META_TITLE_MISSING.occurrences.nodes[0].rankingKeywords).toHaveLength(1);
    expect(ours.META_TITLE_MISSING.occurrences.nodes[0].rankingKeywords[0]).not.toMatchObject({
      keywordId: theirKeyword,
    });
  });
});
