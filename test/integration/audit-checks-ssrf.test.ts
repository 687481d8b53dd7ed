/**
 * SSRF at engine level: whatever a site links to, redirects to or declares, an audit reaches only the
 * addresses the safe client allows. Counting servers prove that nothing was sent, not merely that
 * nothing was reported.
 */
import { AuditFailedError } from '../../src/audits/audit-engine.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfiguredSafeHttpClient } from '../../src/platform/safe-http/index.js';
import {
  auditSite,
  FIXTURE_USER_AGENT,
  page,
  redirect,
  siteAssets,
  sitemapXml,
  startFixtureSite,
  textFile,
  type RunningSite,
} from '../fixtures/sites/index.js';

let home: RunningSite;
let forbidden: RunningSite;

beforeAll(async () => {
  home = await startFixtureSite({ host: 'site.test' });
  // A second loopback address: in 127.0.0.0/8 but outside the allow-list of the second scenario.
  forbidden = await startFixtureSite({ host: '127.0.0.2', listenAddress: '127.0.0.2' });
  const inner = (path: string) => `http://127.0.0.2:${forbidden.port}${path}`;
  const named = (path: string) => `http://inner.test:${forbidden.port}${path}`;
  forbidden.serve({ '/': { body: 'internal' }, '/sitemap.xml': sitemapXml([inner('/')]), '/pixel.png': { body: 'x' } });
  home.serve({
    ...siteAssets({ favicon: true, llmsTxt: true }),
    '/robots.txt': textFile(
      `User-agent: *\nAllow: /\n\nSitemap: ${inner('/sitemap.xml')}\nSitemap: ${named('/sitemap.xml')}\n`,
    ),
    '/': {
      body: page(home.origin, '/', {
        canonical: `<link rel="canonical" href="${inner('/')}">`,
        image: `<img src="${inner('/pixel.png')}" alt="An internal picture" width="1" height="1">`,
        bodyExtra:
          `<p><a href="${inner('/')}">By address</a> <a href="${named('/')}">By a name that resolves inside</a> ` +
          '<a href="/go">Redirect by address</a> <a href="/go-named">Redirect by name</a></p>',
      }),
    },
    '/go': redirect(inner('/admin'), 302),
    '/go-named': redirect(named('/admin'), 302),
  });
});

afterAll(async () => {
  await home?.close();
  await forbidden?.close();
});

describe('SSRF through the audit engine', () => {
  it.each([
    ['an IP literal', (port: number) => `http://127.0.0.1:${port}/`, undefined],
    ['a host name pinned to loopback', (port: number) => `http://site.test:${port}/`, 'site.test=127.0.0.1'],
  ])('an audit of %s with no allow-list sends nothing', async (_name, startUrl, resolve) => {
    const counting = await startFixtureSite({ host: '127.0.0.1' });
    counting.serve({ '/': { body: page(counting.origin, '/') }, '/robots.txt': textFile('User-agent: *\nAllow: /\n') });
    const client = createConfiguredSafeHttpClient({
      SAFE_HTTP_ALLOW: [],
      SAFE_HTTP_RESOLVE: resolve,
      CRAWLER_USER_AGENT: FIXTURE_USER_AGENT,
    });
    try {
      // The audit fails at its first request (robots.txt): no page, no score, and the reason names the URL.
      const failure = await auditSite(client, startUrl(counting.port)).catch((err: unknown) => err);
      expect(counting.requests).toEqual([]);
      expect(failure).toBeInstanceOf(AuditFailedError);
      expect((failure as AuditFailedError).message).toMatch(
        new RegExp(
          `^Refused to fetch ${startUrl(counting.port).replace(/[.]/g, '\\.')}: .* (is a loopback address|` +
            `resolves to an address that is not allowed)`,
        ),
      );
      expect((failure as AuditFailedError).pagesCrawled).toBe(0);
    } finally {
      await client.close();
      await counting.close();
    }
  });

  it('a page linking, redirecting and pointing to a non-allowed address gets no request through', async () => {
    const client = createConfiguredSafeHttpClient({
      SAFE_HTTP_ALLOW: ['127.0.0.1/32'],
      SAFE_HTTP_RESOLVE: 'site.test=127.0.0.1,inner.test=127.0.0.2',
      CRAWLER_USER_AGENT: FIXTURE_USER_AGENT,
    });
    try {
      const run = await auditSite(client, home.url('/'));
      expect(forbidden.requests).toEqual([]);
      // The allowed site was crawled, redirect sources included.
      const paths = home.requests.map((r) => r.path);
      expect(paths).toEqual(expect.arrayContaining(['/robots.txt', '/', '/go', '/go-named']));
      const rows = new Map(run.pages.map((p) => [p.url, p]));
      expect(rows.get(home.url('/'))?.statusCode).toBe(200);
      for (const path of ['/go', '/go-named']) {
        expect(rows.get(home.url(path))?.statusCode, path).toBeNull();
        expect(rows.get(home.url(path))?.error, path).toMatch(/loopback/i);
      }
      // A redirect the client refuses is a failed link target.
      expect(run.occurrences.filter((o) => o.code === 'LINKS_INTERNAL_BROKEN').map((o) => o.url)).toEqual([
        home.url('/'),
      ]);
    } finally {
      await client.close();
    }
  });
});
