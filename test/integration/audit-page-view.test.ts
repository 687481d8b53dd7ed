/**
 * The page view (Audit.page) and the link graph it reads, over an audit the job runner really ran against a small
 * site: redirects recorded as REDIRECT rows with their target and the document under its own URL, a 404 and a PDF
 * listed apart from the HTML pages, inlinks with anchor text and rel, outlinks in keyset pages, bad input and tenancy.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientReportHtml } from '../../src/reports/report-html.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { auditSiteInProcess } from '../support/in-process-audit.js';
import { anApiKey, anOrg, type Org } from '../factories.js';

const host = `pageview-${uniq()}.test`;
let t: TestApp;
let org: Org;
let projectId: string;
let auditId: string;
let server: http.Server;
let origin: string;

const doc = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body>${body}</body></html>`;

function site(req: http.IncomingMessage, res: http.ServerResponse) {
  const path = req.url ?? '/';
  const html = (body: string) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(body);
  };
  if (path === '/robots.txt') return res.end('User-agent: *\nDisallow: /private/\n');
  if (path === '/moved') {
    res.statusCode = 301;
    res.setHeader('location', '/target');
    return res.end();
  }
  if (path === '/missing') {
    res.statusCode = 404;
    return html(doc('Not found', '<p>Nothing here</p>'));
  }
  if (path === '/guide.pdf') {
    res.setHeader('content-type', 'application/pdf');
    return res.end('%PDF-1.4 not really');
  }
  if (path === '/')
    return html(
      doc(
        'Home of the page view fixture site',
        '<h1>Home</h1><a href="/about">About us</a> <a href="/moved" rel="nofollow">Moved page</a> ' +
          '<a href="/missing">A broken link</a> <a href="/guide.pdf">The guide</a> ' +
          Array.from({ length: 5 }, (_, i) => `<a href="/about?ref=${i}">About ${i}</a>`).join(' '),
      ),
    );
  if (path === '/about')
    return html(
      doc(
        'About the page view fixture site',
        // Home twice and itself once: one inlink of the home page (with 2 links), none of its own.
        '<h1>About</h1><a href="/">Home</a> <a href="/missing" rel="noopener nofollow">Still broken</a> ' +
          '<a href="/">Home again</a> <a href="/about">This page</a>',
        '<meta name="robots" content="max-snippet:50">',
      ),
    );
  if (path.startsWith('/about?ref=')) return html(doc(`About ref ${path}`, '<h1>Ref</h1><a href="/">Home</a>'));
  if (path === '/target')
    return html(
      doc(
        'Where the moved page lives now',
        '<h1>Target</h1><p>Moved here.</p><a href="/">Home</a>',
        '<link rel="alternate" hreflang="de" href="/de/target">' +
          '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article",' +
          '"headline":"Target"}</script>',
      ),
    );
  res.statusCode = 404;
  res.end();
}

beforeAll(async () => {
  const env = { SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` };
  t = await createTestApp(env);
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  server = http.createServer(site);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  ({ projectId, auditId } = await auditSiteInProcess(t, org.owner.cookie, `${origin}/`));
}, 60_000);
afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
  await t?.close();
});

const PAGE = `query($p: ID!, $a: ID, $u: String!, $f: Int!, $after: String) {
  audit(projectId: $p, auditId: $a) { status page(url: $u) {
    url finalUrl kind statusCode redirects { url status } title titleLength h1 lang hreflang { lang url }
    structuredDataTypes indexable nonIndexableReason robotsMeta robotsTxt contentType inlinkCount
    outlinkCount linkCount linksNotRead
    issues { code title severity issueId details { kind facts { label value { text url } } } }
    inlinks(first: $f, after: $after) { totalCount pageInfo { hasNextPage endCursor }
      nodes { sourceUrl targetUrl anchor rel internal otherStatus otherTitle otherCrawled linkCount } }
    outlinks(first: $f) { totalCount pageInfo { hasNextPage endCursor } nodes { targetUrl anchor otherStatus } }
  } } }`;

async function pageView(path: string, options: { first?: number; after?: string | null; cookie?: string } = {}) {
  const { body } = await gql(
    t,
    PAGE,
    { p: projectId, a: auditId, u: `${origin}${path}`, f: options.first ?? 50, after: options.after ?? null },
    { cookie: options.cookie ?? org.owner.cookie },
  );
  return body;
}

/** The client report as the web app asks for it (the PDF is its HTML printed), with the audit's `counts` given. */
function clientReportQuery(counts: string): string {
  const move = 'term country device position previousPosition change url checkedAt';
  return `query($p: ID!) { clientReport(projectId: $p) { projectId projectName domain url generatedAt pdfAvailable
    audit { id status createdAt completedAt pagesCrawled ${counts} blockers { code message }
      scores { overall meta content links technical performance } issueCounts { critical warning notice } }
    categories { category score critical warning notice }
    topIssues { code title severity category description affectedPages scope urls fix { summary steps source } }
    vitals { url device source measuredAt lcpMs cls inpMs tbtMs fcpMs ttfbMs }
    keywordGains { ${move} } keywordLosses { ${move} }
    segments { segment { name } urls health scores { overall } issueCounts { critical warning notice } } } }`;
}

describe('the crawled URLs of an audit, by kind', () => {
  it('lists the redirect, the 404 and the PDF apart from the HTML pages', async () => {
    const { body } = await gql(
      t,
      `query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { status
        all: pages(first: 100) { totalCount nodes { url kind statusCode finalUrl } }
        html: pages(first: 100, filter: { kind: [HTML] }) { totalCount } } }`,
      { p: projectId, a: auditId },
      { cookie: org.owner.cookie },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.audit.status).toBe('COMPLETED');
    const byPath = new Map(
      body.data.audit.all.nodes.map((n: { url: string }) => [n.url.slice(origin.length), n] as const),
    );
    expect(byPath.get('/moved')).toMatchObject({ kind: 'REDIRECT', statusCode: 301, finalUrl: `${origin}/target` });
    expect(byPath.get('/target')).toMatchObject({ kind: 'HTML', statusCode: 200 });
    expect(byPath.get('/missing')).toMatchObject({ kind: 'ERROR', statusCode: 404 });
    expect(byPath.get('/guide.pdf')).toMatchObject({ kind: 'FILE', statusCode: 200 });
    // Home, about, its 5 ?ref= variants and the redirect's target: the pages; the rest are other URLs.
    expect(body.data.audit.html.totalCount).toBe(8);
    expect(body.data.audit.all.totalCount).toBe(11);
  });
});

describe('Audit.page', () => {
  it('a 404 shows every page that links to it, with the anchor text and rel', async () => {
    const body = await pageView('/missing');
    expect(body.errors).toBeUndefined();
    const page = body.data.audit.page;
    expect(page).toMatchObject({
      kind: 'ERROR',
      statusCode: 404,
      indexable: false,
      nonIndexableReason: 'error-status',
      // Not an analysed HTML page: no links counted.
      linkCount: null,
      linksNotRead: 0,
    });
    expect(page.inlinks.totalCount).toBe(2);
    expect(page.inlinks.nodes).toEqual([
      {
        sourceUrl: `${origin}/`,
        targetUrl: `${origin}/missing`,
        anchor: 'A broken link',
        rel: null,
        internal: true,
        otherStatus: 200,
        otherTitle: 'Home of the page view fixture site',
        otherCrawled: true,
        linkCount: 1,
      },
      {
        sourceUrl: `${origin}/about`,
        targetUrl: `${origin}/missing`,
        anchor: 'Still broken',
        rel: 'noopener nofollow',
        internal: true,
        otherStatus: 200,
        otherTitle: 'About the page view fixture site',
        otherCrawled: true,
        linkCount: 1,
      },
    ]);
  });

  it('a redirect is its own row with the hops; the document is under the URL it is served from', async () => {
    const moved = (await pageView('/moved')).data.audit.page;
    expect(moved).toMatchObject({
      kind: 'REDIRECT',
      statusCode: 301,
      finalUrl: `${origin}/target`,
      redirects: [{ url: `${origin}/moved`, status: 301 }],
      title: null,
    });
    expect(moved.inlinks.nodes.map((n: { anchor: string; rel: string }) => [n.anchor, n.rel])).toEqual([
      ['Moved page', 'nofollow'],
    ]);
    const target = (await pageView('/target')).data.audit.page;
    expect(target).toMatchObject({
      kind: 'HTML',
      statusCode: 200,
      title: 'Where the moved page lives now',
      titleLength: 30,
      h1: ['Target'],
      lang: 'en',
      hreflang: [{ lang: 'de', url: `${origin}/de/target` }],
      structuredDataTypes: ['Article'],
      indexable: true,
      nonIndexableReason: null,
      robotsTxt: 'allowed',
    });
    expect(target.contentType).toMatch(/^text\/html/);
    expect(target.outlinks.nodes).toEqual([{ targetUrl: `${origin}/`, anchor: 'Home', otherStatus: 200 }]);
  });

  it('shows its robots meta and its issues with their evidence as facts, never JSON', async () => {
    const about = (await pageView('/about')).data.audit.page;
    expect(about.robotsMeta).toEqual(['max-snippet:50']);
    expect(about.issues.length).toBeGreaterThan(0);
    for (const issue of about.issues) {
      expect(issue.issueId).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.stringify(issue.details ?? {})).not.toMatch(/\{\\"|\[\{\\"/);
    }
  });

  it("pages through the home page's inlinks with keyset cursors, each link once", async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const body = await pageView('/', { first: 2, after });
      expect(body.errors).toBeUndefined();
      const { nodes, pageInfo, totalCount } = body.data.audit.page.inlinks;
      expect(totalCount).toBe(7);
      seen.push(...nodes.map((n: { sourceUrl: string }) => n.sourceUrl));
      if (!pageInfo.hasNextPage) break;
      after = pageInfo.endCursor;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });

  it('inlinks are the distinct linking pages: the count and the table agree, self links left out', async () => {
    const home = (await pageView('/', { first: 100 })).data.audit.page;
    // /about links home twice: one row with both links; 7 pages in all, as the inlink count says.
    expect(home.inlinkCount).toBe(7);
    expect(home.inlinks.totalCount).toBe(7);
    // Its own links: 4 and 5 ?ref= ones, every one read.
    expect(home).toMatchObject({ linkCount: 9, linksNotRead: 0 });
    expect(home.inlinks.nodes).toHaveLength(7);
    expect(home.inlinks.nodes.find((n: { sourceUrl: string }) => n.sourceUrl === `${origin}/about`)).toMatchObject({
      anchor: 'Home',
      linkCount: 2,
    });
    // /about links itself: not an inlink, nor an outlink.
    const about = (await pageView('/about', { first: 100 })).data.audit.page;
    expect(about.inlinkCount).toBe(1);
    expect(about.inlinks.totalCount).toBe(1);
    expect(about.inlinks.nodes.map((n: { sourceUrl: string }) => n.sourceUrl)).toEqual([`${origin}/`]);
    expect(about.outlinkCount).toBe(2);
    expect(about.outlinks.totalCount).toBe(2);
    expect(about.outlinks.nodes.map((n: { targetUrl: string }) => n.targetUrl)).toEqual([
      `${origin}/`,
      `${origin}/missing`,
    ]);
  });

  it('one set of counts on every surface: GraphQL, both REST APIs, the CSV, the report and its PDF HTML', async () => {
    const COUNTS = `counts { urlsCrawled htmlPages indexablePages externalLinks { found checked couldNotCheck notTried
      refusedByPolicy addressCap noAnswer overCap outOfTime noNetwork fromCache pending workerStopped }
      resources { found checked }
      labPages { measured eligible } links { found read notRead pagesOverCap } }`;
    const { body } = await gql(
      t,
      `query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { pagesCrawled ${COUNTS}
        scoreBreakdown { htmlPages }
        html: pages(first: 1, filter: { kind: [HTML] }) { totalCount }
        issues { code scope affectedPages } } }`,
      { p: projectId, a: auditId },
      { cookie: org.owner.cookie },
    );
    expect(body.errors).toBeUndefined();
    const audit = body.data.audit;
    // 10 URLs fetched (the redirect and its target are one fetch); 8 of them HTML documents, all 8 indexable.
    expect(audit.counts).toMatchObject({ urlsCrawled: audit.pagesCrawled, htmlPages: 8, indexablePages: 8 });
    expect(audit.scoreBreakdown.htmlPages).toBe(audit.counts.htmlPages);
    expect(audit.html.totalCount).toBe(audit.counts.htmlPages);
    expect(audit.counts.externalLinks).toEqual({
      found: 0,
      checked: 0,
      couldNotCheck: 0,
      notTried: 0,
      refusedByPolicy: 0,
      addressCap: 0,
      noAnswer: 0,
      overCap: 0,
      outOfTime: 0,
      noNetwork: 0,
      fromCache: 0,
      pending: 0,
      workerStopped: 0,
    });
    expect(audit.counts.labPages).toEqual({ measured: 0, eligible: 8 });
    // The links of the 8 HTML pages (home 9, about 4, one on each of the other 6), every one read.
    expect(audit.counts.links).toEqual({ found: 19, read: 19, notRead: 0, pagesOverCap: 0 });
    // Site-level checks say so.
    const scopes = new Map(audit.issues.map((i: { code: string; scope: string }) => [i.code, i.scope]));
    expect(scopes.get('TECH_SITEMAP_MISSING')).toBe('site');
    expect(scopes.get('META_DESCRIPTION_MISSING')).toBe('page');

    const key = await anApiKey(org);
    const v1 = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/audit`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(v1.json().audit.counts).toEqual(audit.counts);
    expect(v1.json().audit.issues.find((i: { code: string }) => i.code === 'TECH_SITEMAP_MISSING').scope).toBe('site');
    const api = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${projectId}/audit`,
      headers: { cookie: org.owner.cookie },
    });
    expect(api.json().audit.counts).toEqual(audit.counts);

    // The pages CSV: a row per URL crawled and a kind; its HTML rows are the HTML pages.
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/exports/pages?format=csv`,
      headers: { authorization: `Bearer ${key}` },
    });
    const [header, ...rows] = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    const kind = header.split(',').indexOf('kind');
    expect(kind).toBeGreaterThan(-1);
    expect(rows.filter((r) => r.split(',')[kind] === 'HTML')).toHaveLength(audit.counts.htmlPages);

    // The report (the PDF is this HTML printed by Chromium) from the same GraphQL answer.
    const report = await gql(t, clientReportQuery(COUNTS), { p: projectId }, { cookie: org.owner.cookie });
    expect(report.body.errors).toBeUndefined();
    const client = report.body.data.clientReport;
    expect(client.audit.counts).toEqual(audit.counts);
    const html = clientReportHtml(client);
    expect(html).toContain(`${audit.pagesCrawled} URLs crawled · 8 HTML pages · 8 indexable`);
    // A site-level issue among the top ones reads "site" (with its pages when it names several), never "1 page".
    const siteIssue = (client.topIssues as { code: string; scope: string }[]).find((i) => i.scope === 'site');
    expect(siteIssue).toBeDefined();
    expect(html).toMatch(new RegExp(`· site(, [\\d,]+ pages)? · check ${siteIssue!.code}<`));
    expect(html).not.toContain(`· 1 page · check ${siteIssue!.code}`);
  });

  it('links held back by the per-address cap read as not sent on every surface, never as no answer', async () => {
    const EXTERNAL = `externalLinks { found checked couldNotCheck notTried refusedByPolicy addressCap noAnswer overCap
      outOfTime noNetwork fromCache pending workerStopped }`;
    const stored = (await t.runtime.pool.query('SELECT counts FROM audit WHERE id = $1', [auditId])).rows[0].counts;
    const store = (externalLinks: object) =>
      t.runtime.pool.query('UPDATE audit SET counts = $2 WHERE id = $1', [auditId, { ...stored, externalLinks }]);
    const surfaces = async () => {
      const { body } = await gql(
        t,
        `query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { counts { ${EXTERNAL} } } }`,
        { p: projectId, a: auditId },
        { cookie: org.owner.cookie },
      );
      expect(body.errors).toBeUndefined();
      const key = await anApiKey(org);
      const v1 = await t.app.inject({
        method: 'GET',
        url: `/api/v1/projects/${projectId}/audit`,
        headers: { authorization: `Bearer ${key}` },
      });
      const api = await t.app.inject({
        method: 'GET',
        url: `/api/projects/${projectId}/audit`,
        headers: { cookie: org.owner.cookie },
      });
      const counts = `counts { urlsCrawled htmlPages indexablePages ${EXTERNAL} resources { found checked }
        labPages { measured eligible } }`;
      const report = await gql(t, clientReportQuery(counts), { p: projectId }, { cookie: org.owner.cookie });
      expect(report.body.errors).toBeUndefined();
      const e = body.data.audit.counts.externalLinks;
      expect(v1.json().audit.counts.externalLinks).toEqual(e);
      expect(api.json().audit.counts.externalLinks).toEqual(e);
      expect(report.body.data.clientReport.audit.counts.externalLinks).toEqual(e);
      return { e, html: clientReportHtml(report.body.data.clientReport) };
    };
    try {
      // 12 found, 5 checked, 7 could not be checked: 1 refused by policy, 4 past the per-address cap, 2 no answer.
      await store({ found: 12, checked: 5, couldNotCheck: 7, refusedByPolicy: 1, addressCap: 4, overCap: 0 });
      const capped = await surfaces();
      expect(capped.e).toEqual({
        found: 12,
        checked: 5,
        couldNotCheck: 7,
        notTried: 0,
        refusedByPolicy: 1,
        addressCap: 4,
        noAnswer: 2,
        overCap: 0,
        outOfTime: 0,
        noNetwork: 0,
        fromCache: 0,
        pending: 0,
        workerStopped: 0,
      });
      expect(capped.html).toContain(
        'Checked: external links 5 of 12 (1 refused by policy, 4 not sent: per-address cap, 2 no answer)',
      );
      // An audit stored before the breakdown was kept: none past the cap, the rest no answer, as it said then.
      await store({ found: 12, checked: 5, couldNotCheck: 7, refusedByPolicy: 1 });
      const old = await surfaces();
      expect(old.e).toMatchObject({ couldNotCheck: 7, refusedByPolicy: 1, addressCap: 0, noAnswer: 6 });
      expect(old.html).toContain('Checked: external links 5 of 12 (1 refused by policy, 6 no answer)');
    } finally {
      await t.runtime.pool.query('UPDATE audit SET counts = $2 WHERE id = $1', [auditId, stored]);
    }
  });

  it("an issue's link evidence names each link by its anchor text, from the link graph", async () => {
    const { body } = await gql(
      t,
      `query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { issues { code
        occurrences { nodes { url details { tables { caption columns rows { text url } } } } } } } }`,
      { p: projectId, a: auditId },
      { cookie: org.owner.cookie },
    );
    expect(body.errors).toBeUndefined();
    const broken = body.data.audit.issues.find((i: { code: string }) => i.code === 'LINKS_INTERNAL_BROKEN');
    const fromAbout = broken.occurrences.nodes.find((n: { url: string }) => n.url === `${origin}/about`);
    const [table] = fromAbout.details.tables;
    expect(table.columns).toEqual(['Source page', 'Target', 'Anchor text', 'Status']);
    expect(table.rows[0].map((c: { text: string }) => c.text)).toEqual([
      `${origin}/about`,
      `${origin}/missing`,
      'Still broken',
      '404 Not Found',
    ]);
    expect(table.rows[0][1].url).toBe(`${origin}/missing`);
  });

  it('bad input is a clear BAD_USER_INPUT, a URL not crawled is NOT_FOUND', async () => {
    const badCursor = await pageView('/', { after: 'not a cursor' });
    expect(badCursor.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const tooMany = await pageView('/', { first: 101 });
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const first = await pageView('/', { first: 1 });
    const elsewhere = await pageView('/about', { after: first.data.audit.page.inlinks.pageInfo.endCursor });
    expect(elsewhere.errors?.[0].message).toMatch(/another list/);
    const unknown = await pageView('/never-linked');
    expect(unknown.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(unknown.errors?.[0].message).not.toMatch(/select|audit_page|stack/i);
  });

  it('another organization cannot read the page or its links', async () => {
    const strangerOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    const body = await pageView('/missing', { cookie: strangerOrg.owner.cookie });
    expect(body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(body.data).toBeNull();
  });
});
