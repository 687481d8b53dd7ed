/**
 * Link position over an audit the job runner really ran against a small site with a header, a navigation block,
 * content, a sidebar and a footer: every stored link has its position, the page view's inlinks and outlinks show and
 * filter by it, and the URL table counts a page's inlinks per position (a page linked only from the footer is found
 * by a filter).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { auditSiteInProcess } from '../support/in-process-audit.js';
import { anOrg, type Org } from '../factories.js';

const host = `linkpos-${uniq()}.test`;
let t: TestApp;
let org: Org;
let projectId: string;
let auditId: string;
let server: http.Server;
let origin: string;

/** Every page: the logo in the header, a menu, a sidebar, and the imprint in the footer; its own content between. */
const page = (title: string, content: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body>
    <header><a href="/">Logo</a></header>
    <nav><a href="/">Home</a> <a href="/products">Products</a></nav>
    <main><article><header><a href="/authors">Author</a></header><h1>${title}</h1>${content}</article></main>
    <div class="sidebar"><a href="/products">Popular</a></div>
    <footer><a href="/imprint">Imprint</a></footer>
  </body></html>`;

const PAGES: Record<string, string> = {
  '/': page('Home', '<p>Read <a href="/guide">the guide</a>.</p>'),
  '/products': page('Products', '<p>See <a href="/guide">the guide</a> too.</p>'),
  '/guide': page('Guide', '<p>Back to <a href="/products">products</a>.</p>'),
  '/authors': page('Authors', '<p>Who writes here.</p>'),
  '/imprint': page('Imprint', '<p>Company details.</p>'),
};

beforeAll(async () => {
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  server = http.createServer((req, res) => {
    const body = PAGES[req.url ?? '/'];
    if (body === undefined) {
      res.statusCode = 404;
      return res.end();
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  ({ projectId, auditId } = await auditSiteInProcess(t, org.owner.cookie, `${origin}/`));
}, 60_000);
afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
  await t?.close();
});

const LINKS = `query($p: ID!, $a: ID, $u: String!, $pos: LinkPosition, $first: Int!, $after: String) {
  audit(projectId: $p, auditId: $a) { status page(url: $u) {
    inlinks(first: $first, after: $after, position: $pos) { totalCount pageInfo { hasNextPage endCursor }
      nodes { sourceUrl anchor linkCount position positions } }
    outlinks(first: 50, position: $pos) { totalCount nodes { targetUrl anchor linkCount position positions } }
  } } }`;

async function links(path: string, position: string | null, options: { first?: number; after?: string } = {}) {
  const { body } = await gql(
    t,
    LINKS,
    {
      p: projectId,
      a: auditId,
      u: `${origin}${path}`,
      pos: position,
      first: options.first ?? 50,
      after: options.after ?? null,
    },
    { cookie: org.owner.cookie },
  );
  return body;
}

describe('link positions stored by the audit', () => {
  it('writes a position on every link of the graph', async () => {
    const rows = await t.runtime.orm.em
      .getConnection()
      .execute<{ position: string | null; n: string }[]>(
        'SELECT position, count(*) AS n FROM audit_link WHERE audit_id = ? GROUP BY position ORDER BY position',
        [auditId],
      );
    expect(rows.map((r) => [r.position, Number(r.n)])).toEqual([
      ['ASIDE', 5],
      ['CONTENT', 8],
      ['FOOTER', 5],
      ['HEADER', 5],
      ['NAVIGATION', 10],
    ]);
  });

  it("shows each linking page's positions in link order, an article header's link as content", async () => {
    const body = await links('/products', null);
    expect(body.errors).toBeUndefined();
    const byPage = new Map(
      (body.data.audit.page.inlinks.nodes as { sourceUrl: string; position: string; positions: string[] }[]).map(
        (n) => [n.sourceUrl.slice(origin.length), [n.position, n.positions]],
      ),
    );
    expect(byPage.get('/')).toEqual(['NAVIGATION', ['NAVIGATION', 'ASIDE']]);
    expect(byPage.get('/guide')).toEqual(['NAVIGATION', ['NAVIGATION', 'CONTENT', 'ASIDE']]);
    const authors = await links('/authors', null);
    expect(
      (authors.data.audit.page.inlinks.nodes as { position: string }[]).every((n) => n.position === 'CONTENT'),
    ).toBe(true);
  });
});

describe('inlinks and outlinks filtered by position', () => {
  it('lists only the pages linking from that position, with their links there', async () => {
    const content = await links('/guide', 'CONTENT');
    expect(content.errors).toBeUndefined();
    const inlinks = content.data.audit.page.inlinks;
    expect(inlinks.totalCount).toBe(2);
    expect(
      (inlinks.nodes as { sourceUrl: string; anchor: string; linkCount: number; positions: string[] }[])
        .map((n) => [n.sourceUrl.slice(origin.length), n.anchor, n.linkCount, n.positions])
        .sort(),
    ).toEqual([
      ['/', 'the guide', 1, ['CONTENT']],
      ['/products', 'the guide', 1, ['CONTENT']],
    ]);
    const footer = await links('/guide', 'FOOTER');
    expect(footer.data.audit.page.inlinks).toMatchObject({ totalCount: 0, nodes: [] });
    const outlinks = footer.data.audit.page.outlinks;
    expect(outlinks.totalCount).toBe(1);
    expect(outlinks.nodes[0]).toMatchObject({ targetUrl: `${origin}/imprint`, anchor: 'Imprint', position: 'FOOTER' });
  });

  it('walks a filtered list in keyset pages, and refuses its cursor for another position', async () => {
    const first = await links('/', 'NAVIGATION', { first: 2 });
    const page1 = first.data.audit.page.inlinks;
    expect(page1.totalCount).toBe(4);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const second = await links('/', 'NAVIGATION', { first: 2, after: page1.pageInfo.endCursor });
    const page2 = second.data.audit.page.inlinks;
    expect(page2.pageInfo.hasNextPage).toBe(false);
    const sources = [...page1.nodes, ...page2.nodes].map((n: { sourceUrl: string }) => n.sourceUrl);
    expect(new Set(sources).size).toBe(4);
    const foreign = await links('/', 'FOOTER', { first: 2, after: page1.pageInfo.endCursor });
    expect(foreign.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('refuses a position that is not one', async () => {
    const body = await links('/', 'SIDEBAR');
    expect(body.errors?.[0]?.message).toMatch(/LinkPosition/);
  });
});

describe('inlinks by position in the URL table', () => {
  const TABLE = `query($p: ID!, $a: ID, $columns: [String!], $filter: UrlTableFilterInput, $sort: UrlTableSortInput) {
    audit(projectId: $p, auditId: $a) { urlTable(first: 50, columns: $columns, filter: $filter, sort: $sort) {
      columns { key sortable filterable } rows { url values } } } }`;
  const COLUMNS = [
    'inlinks',
    'inlinks_content',
    'inlinks_navigation',
    'inlinks_header',
    'inlinks_aside',
    'inlinks_footer',
  ];

  async function table(vars: Record<string, unknown>) {
    const { body } = await gql(
      t,
      TABLE,
      { p: projectId, a: auditId, columns: COLUMNS, ...vars },
      {
        cookie: org.owner.cookie,
      },
    );
    expect(body.errors).toBeUndefined();
    return body.data.audit.urlTable as {
      columns: { key: string; sortable: boolean; filterable: boolean }[];
      rows: { url: string; values: unknown[] }[];
    };
  }

  it('counts the distinct pages linking from each position, sortable and filterable', async () => {
    const view = await table({ sort: { field: 'inlinks_content', direction: 'DESC' } });
    expect(view.columns.every((c) => c.sortable && c.filterable)).toBe(true);
    const byPath = new Map(view.rows.map((r) => [r.url.slice(origin.length), r.values]));
    expect(byPath.get('/guide')).toEqual([2, 2, 0, 0, 0, 0]);
    expect(byPath.get('/')).toEqual([4, 0, 4, 4, 0, 0]);
    expect(byPath.get('/products')).toEqual([4, 1, 4, 0, 4, 0]);
    expect(byPath.get('/imprint')).toEqual([4, 0, 0, 0, 0, 4]);
    expect(byPath.get('/authors')).toEqual([4, 4, 0, 0, 0, 0]);
    expect(view.rows[0].url.slice(origin.length)).toBe('/authors');
  });

  it('finds the pages linked from the footer only', async () => {
    const condition = (field: string, operator: string, value: string) => ({ field, operator, value });
    const view = await table({
      filter: {
        groups: [
          {
            conditions: [
              condition('inlinks_footer', 'gt', '0'),
              condition('inlinks_content', 'eq', '0'),
              condition('inlinks_navigation', 'eq', '0'),
            ],
          },
        ],
      },
    });
    expect(view.rows.map((r) => r.url.slice(origin.length))).toEqual(['/imprint']);
  });
});
