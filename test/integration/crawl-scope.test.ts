import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_OPTIONS, SiteCrawler, type CrawlScope } from '../../src/crawler/index.js';
import { auditSite, createFixtureClient, reportedUrls, FIXTURE_USER_AGENT } from '../fixtures/sites/audit-harness.js';

/**
 * Crawl scope end to end: a site and its subdomain on one loopback port (two host names pinned to 127.0.0.1, as the
 * fixture sites are), every request recorded, so each test asserts which URLs the crawler asked for, and what the
 * orphan and broken-link reports say of the URLs the scope left out.
 */
const HOST = 'scope.test';
/** Other spellings of `/private/x` that servers read as it (issue 61). */
const SPELLINGS = ['/%70rivate/x', '/PRIVATE/x', '/private%2Fx', '/public/..%2Fprivate/x', '/private;a=1/x'];
const SUB = `blog.${HOST}`;
let server: http.Server;
let port: number;
let requests: { method: string; host: string; path: string }[] = [];

const html = (body: string) => ({
  status: 200,
  body: `<!doctype html><html lang="en"><head><title>t</title></head><body>${body}</body></html>`,
});
const links = (...hrefs: string[]) => hrefs.map((h) => `<a href="${h}">${h}</a>`).join(' ');

function routes(): Record<string, Record<string, { status: number; body: string; type?: string }>> {
  const origin = `http://${HOST}:${port}`;
  const sitemap = ['/', '/blog/', '/blog/a', '/blog/orphan', '/shop/lonely', '/private/x', '/blocked/y']
    .map((p) => `<url><loc>${origin}${p}</loc></url>`)
    .join('');
  return {
    [HOST]: {
      '/robots.txt': {
        status: 200,
        type: 'text/plain',
        body: `User-agent: *\nDisallow: /blocked/\nSitemap: ${origin}/sitemap.xml\n`,
      },
      '/sitemap.xml': {
        status: 200,
        type: 'application/xml',
        body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${sitemap}</urlset>`,
      },
      '/': html(
        links('/blog/', '/shop/', '/shop/?sort=price', '/about', `http://${SUB}:${port}/`, '/blocked/x', '/missing'),
      ),
      '/blog/': html(links('/blog/a', '/blog/b?utm_source=x', '/blog/b', '/blog/?sort=new', '/blog/missing')),
      '/blog/a': html(links('/blog/b', '/', '/private/gone') + '<img src="/private/pixel.png" alt="p">'),
      '/blog/b': html(links('/blog/a')),
      '/blog/b?utm_source=x': html(links('/blog/a')),
      '/blog/orphan': html('no links'),
      '/shop/': html(links('/shop/item?sort=asc&id=1', '/shop/item?id=1', '/shop/item?id=1&sid=9')),
      '/shop/?sort=price': html(links('/shop/')),
      '/shop/item?id=1': html(links('/shop/')),
      '/shop/item?sort=asc&id=1': html(links('/shop/')),
      '/shop/item?id=1&sid=9': html(links('/shop/')),
      '/shop/item': html(links('/shop/')),
      '/shop/lonely': html('no links'),
      '/about': html(links('/')),
      '/private/x': html('private'),
      '/spellings': html(links(...SPELLINGS, '/%2570rivate/x')),
    },
    [SUB]: {
      '/robots.txt': { status: 200, type: 'text/plain', body: 'User-agent: *\nDisallow: /secret\n' },
      '/': html(links('/post', '/secret', `http://${HOST}:${port}/about`)),
      '/post': html(links('/')),
      '/secret': html('secret'),
    },
  };
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', host, path });
    const route = routes()[host]?.[path];
    if (!route) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(route.status, { 'content-type': route.type ?? 'text/html; charset=utf-8' });
    res.end(req.method === 'HEAD' ? undefined : route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const client = () => createFixtureClient([HOST, SUB]);
const url = (path: string, host = HOST) => `http://${host}:${port}${path}`;
const SITE_FILES = new Set(['/robots.txt', '/sitemap.xml', '/favicon.ico', '/llms.txt']);
/** Pages fetched (GET, site files aside), as host-relative paths of `host`, sorted. */
const pagesRequested = (host = HOST) =>
  [
    ...new Set(
      requests.filter((r) => r.method === 'GET' && r.host === host && !SITE_FILES.has(r.path)).map((r) => r.path),
    ),
  ].sort();
const anyRequest = (host: string, path: string) => requests.some((r) => r.host === host && r.path === path);

async function audit(startPath: string, scope: CrawlScope, extra = {}) {
  requests = [];
  const c = client();
  try {
    return await auditSite(c, url(startPath), { scope, maxPages: 100, externalLinkBudget: 0, ...extra });
  } finally {
    await c.close();
  }
}

async function crawl(startPath: string, scope: CrawlScope) {
  requests = [];
  const c = client();
  const pages = new Map<string, number>();
  try {
    const crawler = new SiteCrawler(c, {
      ...DEFAULT_CRAWL_OPTIONS,
      startUrl: url(startPath),
      maxPages: 100,
      userAgent: FIXTURE_USER_AGENT,
      externalLinkBudget: 0,
      assetBudget: 50,
      scope,
    });
    const facts = await crawler.run({ onPage: ({ fetch }) => void pages.set(fetch.url, fetch.depth) });
    return { facts, pages };
  } finally {
    await c.close();
  }
}

describe('crawl scope: include and exclude', () => {
  it('crawls only /blog/, no ?sort= URL nor an excluded one; orphan and broken reports respect scope', async () => {
    const run = await audit('/blog/', { include: ['/blog/**'], exclude: ['/[?&]sort=/', '/private/**'] });
    expect(pagesRequested()).toEqual([
      '/blog/',
      '/blog/a',
      '/blog/b',
      '/blog/b?utm_source=x',
      '/blog/missing',
      '/blog/orphan',
    ]);
    // Excluded: never requested, not even as a resource (HEAD) or a link target.
    expect(requests.some((r) => r.path.includes('sort='))).toBe(false);
    expect(requests.some((r) => r.path.startsWith('/private/'))).toBe(false);
    // The sitemap's URLs outside the scope are not orphans; the one inside it is.
    expect(reportedUrls(run, 'LINKS_ORPHAN')).toEqual([url('/blog/orphan')]);
    // A 404 inside the scope is broken; the excluded /private/gone (a 404 too) is not reported.
    expect(reportedUrls(run, 'LINKS_INTERNAL_BROKEN')).toEqual([url('/blog/')]);
    const evidence = JSON.stringify(run.occurrences.filter((o) => o.code === 'LINKS_INTERNAL_BROKEN'));
    expect(evidence).toContain('/blog/missing');
    expect(evidence).not.toContain('/private/gone');
  });

  it('never requests another spelling of an excluded path (encoded, other case, dot segment, parameter)', async () => {
    await crawl('/spellings', { exclude: ['/private/**'] });
    expect(requests.filter((r) => SPELLINGS.includes(r.path)).map((r) => r.path)).toEqual([]);
    // Decoded once only: `%2570` is `%70`, a path of its own (a 404 here), not `/private/x`.
    expect(anyRequest(HOST, '/%2570rivate/x')).toBe(true);
    expect(anyRequest(HOST, '/private/x')).toBe(false);
  });

  it('fails the crawl, fetching nothing, when the start URL is outside its own scope', async () => {
    const { facts } = await crawl('/', { include: ['/blog/**'] });
    expect(facts.startFailure).toMatchObject({ reason: 'scope' });
    expect(facts.startFailure?.message).toMatch(/outside the crawl scope/);
    expect(pagesRequested()).toEqual([]);
  });
});

describe('crawl scope: subdomains', () => {
  it('off: the subdomain is an external link, never crawled', async () => {
    const { pages } = await crawl('/', {});
    expect([...pages.keys()].some((u) => u.includes(SUB))).toBe(false);
    expect(requests.some((r) => r.host === SUB)).toBe(false);
  });

  it("on: the subdomain's pages are crawled, under its own robots.txt (fetched once)", async () => {
    const { pages, facts } = await crawl('/', { includeSubdomains: true });
    expect(pagesRequested(SUB)).toEqual(['/', '/post']);
    expect(requests.filter((r) => r.host === SUB && r.path === '/robots.txt')).toHaveLength(1);
    expect(anyRequest(SUB, '/secret')).toBe(false);
    expect(facts.linkTargets.get(url('/secret', SUB))).toMatchObject({ blockedByRobots: true });
    expect(pages.get(url('/', SUB))).toBe(1);
    expect(pages.get(url('/post', SUB))).toBe(2);
    // The main host's robots.txt still governs the main host.
    expect(anyRequest(HOST, '/blocked/x')).toBe(false);
  });
});

describe('crawl scope: list mode', () => {
  it('audits only the listed URLs at depth 0; their links are checked, not followed; no orphan report', async () => {
    const list = [url('/blog/a'), url('/about'), url('/shop/'), url('/blocked/z')];
    const { pages, facts } = await crawl('/', { list: { source: 'urls', urls: list } });
    expect([...pages.entries()].sort()).toEqual([
      [url('/about'), 0],
      [url('/blog/a'), 0],
      [url('/shop/'), 0],
    ]);
    expect(facts.listMode).toBe(true);
    // Links of listed pages: HEAD checks (the site's 404 among them), no GET.
    expect(pagesRequested()).toEqual(['/about', '/blog/a', '/shop/']);
    expect(requests.some((r) => r.method === 'HEAD' && r.path === '/blog/b')).toBe(true);
    expect(facts.linkTargets.get(url('/private/gone'))).toMatchObject({ status: 404 });
    expect(facts.linkTargets.get(url('/blocked/z'))).toMatchObject({ blockedByRobots: true });
    expect(anyRequest(HOST, '/blocked/z')).toBe(false);

    const run = await audit('/', { list: { source: 'urls', urls: list } });
    expect(reportedUrls(run, 'LINKS_ORPHAN')).toEqual([]);
    expect(reportedUrls(run, 'LINKS_INTERNAL_BROKEN')).toEqual([url('/blog/a')]);
    // The same site crawled normally has orphans: list mode is why there are none above.
    const normal = await audit('/', {});
    expect(reportedUrls(normal, 'LINKS_ORPHAN')).toContain(url('/shop/lonely'));
  });

  it("audits the sitemap's URLs in scope (robots.txt still obeyed) and nothing else", async () => {
    const { pages } = await crawl('/', { list: { source: 'sitemap' }, exclude: ['/private/**'] });
    expect([...pages.keys()].map((u) => new URL(u).pathname).sort()).toEqual([
      '/',
      '/blog/',
      '/blog/a',
      '/blog/orphan',
      '/shop/lonely',
    ]);
    expect([...pages.values()].every((depth) => depth === 0)).toBe(true);
    expect(anyRequest(HOST, '/private/x')).toBe(false);
    expect(anyRequest(HOST, '/blocked/y')).toBe(false);
  });
});

describe('crawl scope: query parameters', () => {
  const items = () => requests.filter((r) => r.method === 'GET' && r.path.startsWith('/shop/item')).map((r) => r.path);

  it('keep: every spelling is its own page', async () => {
    await crawl('/shop/', {});
    expect(items().sort()).toEqual(['/shop/item?id=1', '/shop/item?id=1&sid=9', '/shop/item?sort=asc&id=1']);
  });

  it('drop-listed: URLs differing only by listed parameters collapse into one (others keep order)', async () => {
    const { pages } = await crawl('/shop/', { queryParameters: 'drop-listed', droppedParameters: ['sort', 'sid'] });
    expect(items()).toEqual(['/shop/item?id=1']);
    expect([...pages.keys()].filter((u) => u.includes('/shop/item'))).toEqual([url('/shop/item?id=1')]);
  });

  it('drop-all: every query goes', async () => {
    await crawl('/shop/', { queryParameters: 'drop-all' });
    expect(items()).toEqual(['/shop/item']);
  });
});
