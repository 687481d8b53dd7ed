/**
 * Every link of a page is read, or the page and the audit's counts say how many were not (issue 62), over an audit
 * the job runner really ran. The hub has 10,447 links, the last 47 to missing pages: once, links past a page's
 * 5,000th were not read, and targets past its 500th were kept out of the site checks (a missing page then showed as a
 * failing URL no page links to). A page whose link URLs resolve against a 2,000-character <base> reaches the cap on
 * the characters of the URLs read: its links past it are counted, not read, and every surface says so.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectService } from '../../src/projects/index.js';
import { ClientReportService, clientReportHtml } from '../../src/reports/index.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { auditSiteInProcess } from '../support/in-process-audit.js';
import { anApiKey, anOrg, type Org } from '../factories.js';

const host = `linksread-${uniq()}.test`;
let t: TestApp;
let org: Org;
let projectId: string;
let auditId: string;
let server: http.Server;
let origin: string;

const BLOCKED = 10_400;
const MISSING = 47;
const LONG_LINKS = 4_100;

const doc = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body><main>${body}</main></body></html>`;

function page(path: string): [number, string] | undefined {
  if (path === '/robots.txt') return [200, 'User-agent: *\nDisallow: /blocked/\n'];
  if (path === '/') return [200, doc('Home', '<h1>Home</h1><a href="/hub">Hub</a> <a href="/long">Long</a>')];
  if (path === '/hub')
    return [
      200,
      doc(
        'Hub',
        // 10,400 targets robots.txt keeps out of the crawl, then 47 missing pages: links 10,401 to 10,447.
        Array.from({ length: BLOCKED }, (_, i) => `<a href="/blocked/${i}">${i}</a>`).join('') +
          Array.from({ length: MISSING }, (_, i) => `<a href="/missing/${i}">missing ${i}</a>`).join(''),
      ),
    ];
  if (path === '/long')
    return [
      200,
      doc(
        'Long',
        // Each `x` resolves to a URL of ~2,040 characters: the cap on the characters of the URLs read stops at ~3,900.
        '<a href=x>x</a>'.repeat(LONG_LINKS),
        `<base href="/blocked/${'d'.repeat(1_990)}/">`,
      ),
    ];
  return undefined;
}

beforeAll(async () => {
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  server = http.createServer((req, res) => {
    const found = page(req.url ?? '/');
    res.statusCode = found?.[0] ?? 404;
    res.setHeader('content-type', req.url === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8');
    res.end(found?.[1] ?? doc('Not found', '<p>Nothing here</p>'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  const audited = await auditSiteInProcess(t, org.owner.cookie, `${origin}/`);
  ({ projectId, auditId } = audited);
  expect(audited.outcome).toBe('completed');
}, 120_000);
afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
  await t?.close();
});

const PAGE = `query($p: ID!, $a: ID, $u: String!) { audit(projectId: $p, auditId: $a) { page(url: $u) {
  linkCount linksNotRead inlinkCount inlinks(first: 100) { totalCount nodes { sourceUrl } } } } }`;

interface PageView {
  linkCount: number | null;
  linksNotRead: number;
  inlinkCount: number;
  inlinks: { totalCount: number; nodes: { sourceUrl: string }[] };
}

async function pageView(path: string): Promise<PageView> {
  const { body } = await gql(
    t,
    PAGE,
    { p: projectId, a: auditId, u: `${origin}${path}` },
    { cookie: org.owner.cookie },
  );
  expect(body.errors).toBeUndefined();
  return body.data.audit.page as PageView;
}

/** The links of `path` in the audit's link graph: those read. */
async function linksRead(path: string): Promise<number> {
  const { rows } = await t.runtime.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM audit_link WHERE audit_id = $1 AND source_url = $2',
    [auditId, `${origin}${path}`],
  );
  return rows[0].n;
}

describe('a page with 10,447 links', () => {
  it('reads every one: the page view counts them all, none not read', async () => {
    expect(await pageView('/hub')).toMatchObject({ linkCount: BLOCKED + MISSING, linksNotRead: 0 });
    expect(await linksRead('/hub')).toBe(BLOCKED + MISSING);
  });

  it('reports its 47 missing targets as its broken links, each failing URL with the hub as its inlink', async () => {
    const { body } = await gql(
      t,
      `query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { issues { code
        occurrences(first: 100) { nodes { url evidence } } } } }`,
      { p: projectId, a: auditId },
      { cookie: org.owner.cookie },
    );
    expect(body.errors).toBeUndefined();
    type Issue = { code: string; occurrences: { nodes: { url: string; evidence: Record<string, unknown> }[] } };
    const issues = body.data.audit.issues as Issue[];
    const broken = issues.find((i) => i.code === 'LINKS_INTERNAL_BROKEN')!.occurrences.nodes;
    expect(broken.map((n) => n.url)).toEqual([`${origin}/hub`]);
    expect(broken[0].evidence.count).toBe(MISSING);
    const failing = issues.find((i) => i.code === 'TECH_STATUS_4XX')!.occurrences.nodes;
    expect(failing).toHaveLength(MISSING);
    for (const n of failing) {
      expect(n.url).toMatch(new RegExp(`^${origin}/missing/\\d+$`));
      expect(n.evidence.inlinks, n.url).toBe(1);
    }
    // The page view of a missing page: its one inlink, the hub, in the count and in the list.
    for (const i of [0, MISSING - 1])
      expect(await pageView(`/missing/${i}`)).toMatchObject({
        inlinkCount: 1,
        inlinks: { totalCount: 1, nodes: [{ sourceUrl: `${origin}/hub` }] },
      });
  });
});

describe('a page whose links pass the cap', () => {
  it('says how many were not read: the page view, the URL table and the pages export', async () => {
    const read = await linksRead('/long');
    const notRead = LONG_LINKS - read;
    expect(read).toBeGreaterThan(3_000);
    expect(notRead).toBeGreaterThan(0);
    expect(await pageView('/long')).toMatchObject({ linkCount: LONG_LINKS, linksNotRead: notRead });

    const { body } = await gql(
      t,
      `query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) {
        urlTable(first: 100, columns: ["url", "links", "links_not_read"]) { rows { url values } } } }`,
      { p: projectId, a: auditId },
      { cookie: org.owner.cookie },
    );
    expect(body.errors).toBeUndefined();
    const rows = new Map<string, unknown[]>(
      body.data.audit.urlTable.rows.map((r: { url: string; values: unknown[] }) => [r.url, r.values]),
    );
    expect(rows.get(`${origin}/long`)).toEqual([`${origin}/long`, LONG_LINKS, notRead]);
    expect(rows.get(`${origin}/hub`)).toEqual([`${origin}/hub`, BLOCKED + MISSING, 0]);
    // A missing page is no analysed HTML page: no links counted.
    expect(rows.get(`${origin}/missing/0`)).toEqual([`${origin}/missing/0`, null, 0]);

    const key = await anApiKey(org);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/exports/pages?format=csv`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    const columns = header.split(',');
    const long = lines.find((l) => l.startsWith(`${origin}/long,`))!.split(',');
    expect([long[columns.indexOf('linkCount')], long[columns.indexOf('linksNotRead')]]).toEqual([
      `${LONG_LINKS}`,
      `${notRead}`,
    ]);
  });

  it("says so in the audit's counts on every surface: GraphQL, both REST APIs, the report", async () => {
    const notRead = LONG_LINKS - (await linksRead('/long'));
    const LINKS = 'links { found read notRead pagesOverCap }';
    const { body } = await gql(
      t,
      `query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { counts { ${LINKS} } } }`,
      { p: projectId, a: auditId },
      { cookie: org.owner.cookie },
    );
    expect(body.errors).toBeUndefined();
    const found = 2 + BLOCKED + MISSING + LONG_LINKS;
    const links = { found, read: found - notRead, notRead, pagesOverCap: 1 };
    expect(body.data.audit.counts.links).toEqual(links);

    const key = await anApiKey(org);
    const v1 = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/audit`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(v1.json().audit.counts.links).toEqual(links);
    const api = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${projectId}/audit`,
      headers: { cookie: org.owner.cookie },
    });
    expect(api.json().audit.counts.links).toEqual(links);

    // The report and its PDF: the HTML Chromium prints, from the report the PDF route builds.
    const report = await new ClientReportService(new ProjectService(t.config), null).report(
      t.runtime.orm.em.fork(),
      { organizationId: org.id, plan: 'ENTERPRISE', role: 'owner', via: 'SESSION', channel: 'GRAPHQL' },
      projectId,
      auditId,
    );
    expect(report.audit?.counts?.links).toEqual(links);
    expect(clientReportHtml(report)).toContain(
      `${notRead.toLocaleString('en-US')} links past the per-page cap on 1 page were not checked`,
    );
  });
});
