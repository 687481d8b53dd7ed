import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfiguredSafeHttpClient } from '../../src/platform/safe-http/index.js';
import { DEFAULT_CRAWL_OPTIONS, SiteCrawler, createPageFactsPool } from '../../src/crawler/index.js';

/**
 * Regression: sitemap URLs must not be taken while pages are still in flight (they would get depth -1 and
 * their links be dropped as too deep), and a URL refused as too deep must stay reachable by a shorter path.
 */
const PAGES = 80;
let server: http.Server;
let port: number;
let open = 0;
let maxOpen = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    open++;
    maxOpen = Math.max(maxOpen, open);
    res.on('close', () => open--);
    const path = req.url ?? '/';
    if (path.startsWith('/img/'))
      return setTimeout(
        () =>
          res
            .writeHead(200, { 'content-type': 'image/png', 'content-length': '10' })
            .end(req.method === 'HEAD' ? undefined : '0123456789'),
        10,
      );
    if (path === '/robots.txt')
      return res.end(`User-agent: *\nAllow: /\nSitemap: http://frontier.test:${port}/sitemap.xml\n`);
    if (path === '/sitemap.xml') {
      const urls = Array.from(
        { length: PAGES },
        (_, i) => `<url><loc>http://frontier.test:${port}${i === 0 ? '/' : `/p/${i}`}</loc></url>`,
      ).join('');
      return res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
    }
    const m = /^\/(?:p\/(\d+))?$/.exec(path);
    const n = m ? Number(m[1] ?? 0) : -1;
    if (n < 0 || n >= PAGES) return res.writeHead(404).end();
    // A binary tree: page n links to 2n+1 and 2n+2, so depth(n) = floor(log2(n+1)).
    const links =
      [2 * n + 1, 2 * n + 2]
        .filter((k) => k < PAGES)
        .map((k) => `<a href="/p/${k}">p${k}</a>`)
        .join('') + `<img src="/img/${n}.png" alt="">`;
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${links}</body></html>`), 15);
  });
  port = await new Promise<number>((r) =>
    server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)),
  );
});
afterAll(() => server.close());

describe('crawl frontier', () => {
  it('with a sitemap listing every page, every page is crawled at its link depth', async () => {
    const client = createConfiguredSafeHttpClient({
      SAFE_HTTP_ALLOW: ['127.0.0.1/32'],
      SAFE_HTTP_RESOLVE: 'frontier.test=127.0.0.1',
      CRAWLER_USER_AGENT: 'SEOAuditBot/1.0',
    });
    const depths = new Map<string, number>();
    try {
      const crawler = new SiteCrawler(client, {
        ...DEFAULT_CRAWL_OPTIONS,
        startUrl: `http://frontier.test:${port}/`,
        maxPages: 500,
        maxDepth: 10,
        userAgent: 'SEOAuditBot/1.0',
        externalLinkBudget: 0,
        assetBudget: 0,
      });
      const facts = await crawler.run({
        onPage: ({ fetch }) => void depths.set(new URL(fetch.url).pathname, fetch.depth),
      });
      expect(facts.pagesCrawled).toBe(PAGES);
      expect(depths.size).toBe(PAGES);
      for (const [path, depth] of depths) {
        const n = path === '/' ? 0 : Number(path.split('/')[2]);
        expect(depth, path).toBe(Math.floor(Math.log2(n + 1)));
      }
    } finally {
      await client.close();
    }
  });

  it('a page first reached too deep is still crawled when a shorter path appears', async () => {
    const client = createConfiguredSafeHttpClient({
      SAFE_HTTP_ALLOW: ['127.0.0.1/32'],
      SAFE_HTTP_RESOLVE: 'frontier.test=127.0.0.1',
      CRAWLER_USER_AGENT: 'SEOAuditBot/1.0',
    });
    try {
      // maxDepth 3 keeps pages 0..14; the sitemap lists the rest, which are crawled after the linked ones (depth -1).
      const crawler = new SiteCrawler(client, {
        ...DEFAULT_CRAWL_OPTIONS,
        startUrl: `http://frontier.test:${port}/`,
        maxPages: 500,
        maxDepth: 3,
        userAgent: 'SEOAuditBot/1.0',
        externalLinkBudget: 0,
        assetBudget: 0,
      });
      const byDepth = new Map<number, number>();
      await crawler.run({ onPage: ({ fetch }) => void byDepth.set(fetch.depth, (byDepth.get(fetch.depth) ?? 0) + 1) });
      expect(byDepth.get(0)).toBe(1);
      expect(byDepth.get(3)).toBe(8);
      expect(byDepth.get(-1)).toBe(PAGES - 15);
    } finally {
      await client.close();
    }
  });

  it('pages are analyzed while others download, yet requests in flight never exceed the concurrency', async () => {
    const client = createConfiguredSafeHttpClient({
      SAFE_HTTP_ALLOW: ['127.0.0.1/32'],
      SAFE_HTTP_RESOLVE: 'frontier.test=127.0.0.1',
      CRAWLER_USER_AGENT: 'SEOAuditBot/1.0',
    });
    const pool = createPageFactsPool(1);
    maxOpen = 0;
    try {
      const crawler = new SiteCrawler(
        client,
        {
          ...DEFAULT_CRAWL_OPTIONS,
          startUrl: `http://frontier.test:${port}/`,
          concurrency: 3,
          maxPages: 500,
          maxDepth: 10,
          userAgent: 'SEOAuditBot/1.0',
          externalLinkBudget: 0,
          assetBudget: 40,
        },
        pool.extract,
      );
      let analyzing = 0;
      let maxAnalyzing = 0;
      const linkCounts: number[] = [];
      const facts = await crawler.run({
        // A slow consumer: pages wait here while the crawler keeps its request slots busy.
        onPage: async ({ facts: page }) => {
          analyzing++;
          maxAnalyzing = Math.max(maxAnalyzing, analyzing);
          linkCounts.push(page?.links.length ?? -1);
          await new Promise((r) => setTimeout(r, 20));
          analyzing--;
        },
      });
      expect(facts.pagesCrawled).toBe(PAGES);
      expect(linkCounts.every((n) => n >= 0)).toBe(true); // every page parsed (on the thread)
      expect(maxOpen).toBeLessThanOrEqual(3); // page GETs and image HEADs together
      expect(maxOpen).toBe(3);
      expect(maxAnalyzing).toBeGreaterThan(1);
    } finally {
      await pool.close();
      await client.close();
    }
  });
});
