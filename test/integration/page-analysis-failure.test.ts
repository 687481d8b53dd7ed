import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfiguredSafeHttpClient } from '../../src/platform/safe-http/index.js';
import { DEFAULT_CRAWL_OPTIONS, SiteCrawler, createPageFactsPool } from '../../src/crawler/index.js';

/**
 * A page its analysis thread cannot get through is that page's failure, with the reason, and the crawl goes on
 * (issue 61: it used to fail the whole audit, and every audit whose pages were in the same thread).
 */
let server: http.Server;
let port: number;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${body}`);
    if (path === '/robots.txt') return res.writeHead(404).end();
    if (path === '/') return html('<a href="/huge">huge</a> <a href="/a">a</a> <a href="/b">b</a>');
    // 5 MiB of tiny elements: with a CSS extractor, more memory than the test's 64 MB thread heap.
    if (path === '/huge') return html(`<a href="/c">c</a>${'<i></i>'.repeat(Math.floor((5 * 1024 * 1024) / 7))}`);
    if (/^\/[abc]$/.test(path)) return html(`<title>Page ${path}</title>`);
    res.writeHead(404).end();
  });
  port = await new Promise<number>((r) =>
    server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)),
  );
});
afterAll(() => server.close());

describe('a page too complex to analyse', () => {
  it(
    'is recorded as that page failing with the reason; the other pages are analysed',
    { timeout: 60_000 },
    async () => {
      const client = createConfiguredSafeHttpClient({
        SAFE_HTTP_ALLOW: ['127.0.0.1/32'],
        SAFE_HTTP_RESOLVE: 'analysis.test=127.0.0.1',
        CRAWLER_USER_AGENT: 'SEOAuditBot/1.0',
      });
      const pool = createPageFactsPool(1, { maxHeapMb: 64 });
      const specs = [
        {
          key: 'all',
          kind: 'CSS' as const,
          expression: '*',
          output: 'TEXT' as const,
          attribute: null,
          match: 'ALL' as const,
          regex: false,
          ignoreCase: false,
        },
      ];
      try {
        const crawler = new SiteCrawler(
          client,
          {
            ...DEFAULT_CRAWL_OPTIONS,
            startUrl: `http://analysis.test:${port}/`,
            maxPages: 50,
            userAgent: 'SEOAuditBot/1.0',
            externalLinkBudget: 0,
            assetBudget: 0,
          },
          (body, context) => pool.extract(body, { ...context, extraction: { specs } }, 'audit'),
        );
        const pages = new Map<string, { status: number; error: string | null; title: string | undefined }>();
        const site = await crawler.run({
          onPage: ({ fetch, facts, error }) =>
            void pages.set(new URL(fetch.url).pathname, { status: fetch.status, error, title: facts?.titles[0] }),
        });
        expect(site.startFailure).toBeNull();
        expect(pages.get('/huge')).toEqual({
          status: 200,
          error: 'Page too complex to analyse: its analysis needed more than 64 MB of memory',
          title: undefined,
        });
        expect(pages.get('/a')).toEqual({ status: 200, error: null, title: 'Page /a' });
        expect(pages.get('/b')).toEqual({ status: 200, error: null, title: 'Page /b' });
        // The failed page's links were not read: /c is linked only from it.
        expect(pages.has('/c')).toBe(false);
        expect(site.pagesCrawled).toBe(4);
      } finally {
        await pool.close();
        await client.close();
      }
    },
  );
});
