/**
 * The page view's inlinks over an audit the job runner really ran: a completed audit's count (`inlinkCount`) and the
 * list's total are read from what the completion stored (`audit_page.inlinks`, `inlinks_<position>`: the one
 * definition, src/audits/inlinks.ts), and must be the count of the link graph the connection lists (distinct linking
 * pages, self links excluded, at the position when filtered) for every page and every filter. The site has a page with
 * more than 500 link targets, whose last link (to the home page) the crawl's page summaries once left out (they kept
 * 500 internal targets per page): the page said "2 inlinks" above a list of 3.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { auditSiteInProcess } from '../support/in-process-audit.js';
import { anAudit, anOrg, aProject, type Org } from '../factories.js';

const host = `linktotals-${uniq()}.test`;
let t: TestApp;
let org: Org;
let projectId: string;
let auditId: string;
let server: http.Server;
let origin: string;

const POSITIONS = ['HEADER', 'NAVIGATION', 'CONTENT', 'ASIDE', 'FOOTER'] as const;
const COLUMN = {
  ALL: 'inlinks',
  HEADER: 'inlinks_header',
  NAVIGATION: 'inlinks_navigation',
  CONTENT: 'inlinks_content',
  ASIDE: 'inlinks_aside',
  FOOTER: 'inlinks_footer',
};

/** Every page: the logo in the header, a menu, and the footer; its own content (and maybe an aside) between. */
const page = (title: string, content: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body>
    <header><a href="/">Logo</a></header>
    <nav><a href="/">Home</a> <a href="/a">A</a> <a href="/b">B</a></nav>
    <main><h1>${title}</h1>${content}</main>
    <footer><a href="/">Home</a> <a href="/gone">Gone</a></footer>
  </body></html>`;

/** 500 link targets robots.txt keeps out of the crawl, then the home page: its 501st. */
const HUB =
  Array.from({ length: 500 }, (_, i) => `<a href="/blocked/${i}">${i}</a>`).join(' ') + ' <a href="/">Home</a>';

const PAGES: Record<string, [number, string]> = {
  '/robots.txt': [200, 'User-agent: *\nDisallow: /blocked/\n'],
  '/': [200, page('Home', '<p><a href="/a">A</a> and <a href="/a">A again</a> <a href="/hub">Hub</a></p>')],
  // No header, menu or footer: its only link to the home page is its 501st target.
  '/hub': [
    200,
    `<!doctype html><html lang="en"><head><title>Hub</title></head><body><main>${HUB}</main></body></html>`,
  ],
  '/a': [200, page('A', '<p><a href="/b">B</a></p><aside><a href="/">Home</a></aside>')],
  '/b': [200, page('B', '<p><a href="/">Home</a> and <a href="/b">this page</a></p>')],
  '/gone': [404, page('Gone', '<p><a href="/a">A</a></p>')],
};

beforeAll(async () => {
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  server = http.createServer((req, res) => {
    const found = PAGES[req.url ?? '/'];
    if (found === undefined) {
      res.statusCode = 404;
      return res.end();
    }
    res.statusCode = found[0];
    res.setHeader('content-type', req.url === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8');
    res.end(found[1]);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  const audited = await auditSiteInProcess(t, org.owner.cookie, `${origin}/`);
  ({ projectId, auditId } = audited);
  expect(audited.outcome).toBe('completed');
}, 60_000);
afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
  await t?.close();
});

const INLINKS = `query($p: ID!, $a: ID, $u: String!, $position: LinkPosition) {
  audit(projectId: $p, auditId: $a) { page(url: $u) { inlinkCount
    inlinks(first: 100, position: $position) { totalCount pageInfo { hasNextPage } nodes { sourceUrl } } } } }`;

async function inlinks(p: string, a: string, url: string, position: string | null) {
  const { body } = await gql(t, INLINKS, { p, a, u: url, position }, { cookie: org.owner.cookie });
  expect(body.errors).toBeUndefined();
  return body.data.audit.page as {
    inlinkCount: number;
    inlinks: { totalCount: number; pageInfo: { hasNextPage: boolean }; nodes: { sourceUrl: string }[] };
  };
}

/** The connection's definition, counted over the link rows. */
async function counted(audit: string, url: string, position: string | null): Promise<number> {
  const { rows } = await t.runtime.pool.query<{ n: number }>(
    `SELECT count(DISTINCT source_url)::int AS n FROM audit_link
     WHERE audit_id = $1 AND target_url = $2 AND source_url <> target_url AND ($3::text IS NULL OR position = $3)`,
    [audit, url, position],
  );
  return rows[0].n;
}

const stored = async (audit: string, url: string, column: string): Promise<number> =>
  (
    await t.runtime.pool.query<{ n: number }>(
      `SELECT ${column} AS n FROM audit_page WHERE audit_id = $1 AND url = $2`,
      [audit, url],
    )
  ).rows[0].n;

describe("a completed audit's inlinks total", () => {
  it('is stored equal to the link graph counted, for every page and every position filter', async () => {
    const { rows: pages } = await t.runtime.pool.query<{ url: string }>(
      'SELECT url FROM audit_page WHERE audit_id = $1 ORDER BY url',
      [auditId],
    );
    expect(pages.map((p) => p.url)).toEqual(['/', '/a', '/b', '/gone', '/hub'].map((path) => `${origin}${path}`));
    const seen: string[] = [];
    for (const { url } of pages)
      for (const position of [null, ...POSITIONS]) {
        const expected = await counted(auditId, url, position);
        const view = (await inlinks(projectId, auditId, url, position)).inlinks;
        const column = COLUMN[position ?? 'ALL'];
        // One line per page and filter, so a divergence names where.
        expect({ url, position, stored: await stored(auditId, url, column), totalCount: view.totalCount }).toEqual({
          url,
          position,
          stored: expected,
          totalCount: expected,
        });
        expect(view.pageInfo.hasNextPage).toBe(false);
        expect(new Set(view.nodes.map((n) => n.sourceUrl)).size).toBe(expected);
        if (expected > 0) seen.push(`${url.slice(origin.length)} ${position ?? 'ALL'} ${expected}`);
      }
    // The fixture reaches every position, and the home page's three linking pages (the hub among them).
    expect(seen).toEqual(
      expect.arrayContaining(['/ ALL 3', '/ HEADER 2', '/ NAVIGATION 2', '/ CONTENT 2', '/ ASIDE 1', '/ FOOTER 2']),
    );
  });

  it("counts a link after a page's 500th target: the count above the list is the list's total", async () => {
    const home = await inlinks(projectId, auditId, `${origin}/`, null);
    expect(home.inlinkCount).toBe(3);
    expect(home.inlinks.totalCount).toBe(3);
    expect(home.inlinks.nodes.map((n) => n.sourceUrl)).toContain(`${origin}/hub`);
  });

  it('comes from the stored columns (a planted value shows); a running audit counts its links', async () => {
    const home = `${origin}/`;
    const q = (sql: string, params: unknown[]) => t.runtime.pool.query(sql, params);
    const before = [await stored(auditId, home, 'inlinks'), await stored(auditId, home, 'inlinks_footer')];
    await q('UPDATE audit_page SET inlinks = 99, inlinks_footer = 98 WHERE audit_id = $1 AND url = $2', [
      auditId,
      home,
    ]);
    try {
      // The count above the list and the list's total are one stored column.
      expect(await inlinks(projectId, auditId, home, null)).toMatchObject({
        inlinkCount: 99,
        inlinks: { totalCount: 99 },
      });
      expect((await inlinks(projectId, auditId, home, 'FOOTER')).inlinks.totalCount).toBe(98);
      // The rows are the link graph's all the same.
      expect((await inlinks(projectId, auditId, home, 'FOOTER')).inlinks.nodes).toHaveLength(2);
    } finally {
      await q('UPDATE audit_page SET inlinks = $3, inlinks_footer = $4 WHERE audit_id = $1 AND url = $2', [
        auditId,
        home,
        ...before,
      ]);
    }

    const project = await aProject({ org, url: `https://running-${uniq()}.test/` });
    const at = (path: string) => `https://${new URL(project.url).host}${path}`;
    const running = await anAudit({
      project,
      status: 'RUNNING',
      pages: ['/', '/x', '/y'].map((path) => ({ url: at(path), statusCode: 200, kind: 'HTML' })),
    });
    await q(
      `INSERT INTO audit_link (audit_id, source_url, target_url, anchor, internal, position)
       VALUES ($1, $2, $4, 'x', true, 'CONTENT'), ($1, $2, $4, 'x2', true, 'FOOTER'),
         ($1, $3, $4, 'y', true, 'FOOTER')`,
      [running.id, at('/x'), at('/y'), at('/')],
    );
    await q('UPDATE audit_page SET inlinks = 99, inlinks_footer = 99 WHERE audit_id = $1', [running.id]);
    const live = await inlinks(project.id, running.id, at('/'), null);
    expect(live.inlinkCount).toBe(2);
    expect(live.inlinks.totalCount).toBe(2);
    expect(live.inlinks.nodes.map((n) => n.sourceUrl)).toEqual([at('/x'), at('/y')]);
    expect((await inlinks(project.id, running.id, at('/'), 'FOOTER')).inlinks.totalCount).toBe(2);
    expect((await inlinks(project.id, running.id, at('/'), 'CONTENT')).inlinks.totalCount).toBe(1);
  });
});

describe("the completion's statistics", () => {
  // The planner must know the audit's link rows when the completion aggregates them: with statistics from before the
  // crawl it expects one row per audit and joins the per-position counts to the pages in a nested loop (minutes for
  // 3,000 pages). The job runner analyzes the tables between the crawl and the completion's transaction.
  it("are refreshed once the crawl has written the audit's links", async () => {
    const { rows } = await t.runtime.pool.query<{ started_at: Date }>('SELECT started_at FROM audit WHERE id = $1', [
      auditId,
    ]);
    const startedAt = rows[0].started_at;
    const lastAnalyze = async () =>
      (
        await t.runtime.pool.query<{ at: Date | null }>(
          `SELECT last_analyze AS at FROM pg_stat_user_tables WHERE relname = 'audit_link'`,
        )
      ).rows[0]?.at ?? null;
    // Another file's audit may have analyzed the table since: then it is later still, never earlier.
    await expect.poll(async () => (await lastAnalyze())?.getTime() ?? 0).toBeGreaterThanOrEqual(startedAt.getTime());
  });
});
