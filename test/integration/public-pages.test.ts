import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestCertificate } from '../fixtures/sites/test-certificate.js';
import { auditSite, createFixtureClient, type AuditRun } from '../fixtures/sites/audit-harness.js';
import type { SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { CHECK_CATALOG } from '../../src/seo/checks/index.js';

/** The check catalog's server-rendered pages (facades/http/check-pages.ts): the list, then one per code. */
const CATALOG_PATHS = ['/checks', ...CHECK_CATALOG.map((c) => `/checks/${c.code}`)];

/**
 * The landing page and the free tools are pre-rendered by the web build: a crawler (or curl) gets their content, a
 * unique title and description, the canonical URL on PUBLIC_URL and Open Graph tags; robots.txt and sitemap.xml name
 * them. And the platform's own audit finds nothing critical or worth a warning on them.
 */

const HOST = 'public.test';
const PAGES = [
  { path: '/', h1: 'Find what holds your site back in search, and fix it' },
  { path: '/tools', h1: 'Free SEO tools' },
  { path: '/tools/meta-tags', h1: 'Meta tags analyzer' },
  { path: '/tools/robots', h1: 'robots.txt tester' },
  { path: '/tools/headers', h1: 'HTTP headers checker' },
  { path: '/tools/sitemap', h1: 'XML sitemap validator' },
];

const decode = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
const metaContent = (html: string, attr: 'name' | 'property', key: string): string[] =>
  [...html.matchAll(new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`, 'g'))].map((m) => decode(m[1]));
const textOf = (html: string) =>
  decode(
    html
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );

let server: Server;
let t: TestApp;
let origin: string;
let client: SafeHttpClient;

beforeAll(async () => {
  // Served over https like a real deployment (an http page is itself a critical finding), on a host name pinned to
  // loopback (links to 127.0.0.1 would be findings too): the API's own routing behind a TLS server.
  const cert = createTestCertificate([HOST]);
  let handle: (req: never, res: never) => void = () => undefined;
  server = createServer({ key: cert.key, cert: cert.cert }, (req, res) => handle(req as never, res as never));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://${HOST}:${(server.address() as AddressInfo).port}`;
  t = await createTestApp({ PUBLIC_URL: origin });
  handle = (req, res) => t.app.routing(req, res);
  client = createFixtureClient([HOST], {}, { ca: cert.cert });
});
afterAll(async () => {
  await client?.close();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('public pages are HTML a crawler can read', () => {
  it.each(PAGES)('$path: its content, title, description, canonical and Open Graph tags', async ({ path, h1 }) => {
    const res = await get(path);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    const html = res.body;
    const h1s = [...html.matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)].map((m) => textOf(m[1]));
    expect(h1s).toEqual([h1]);
    expect(textOf(html.slice(html.indexOf('<main'))).split(' ').length).toBeGreaterThan(150);

    const titles = [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => decode(m[1]));
    expect(titles).toHaveLength(1);
    expect(titles[0].length).toBeGreaterThanOrEqual(30);
    expect(titles[0].length).toBeLessThanOrEqual(60);
    const [description, ...more] = metaContent(html, 'name', 'description');
    expect(more).toEqual([]);
    expect(description.length).toBeGreaterThanOrEqual(70);
    expect(description.length).toBeLessThanOrEqual(160);

    const url = `${origin}${path}`;
    expect([...html.matchAll(/<link rel="canonical" href="([^"]*)"/g)].map((m) => m[1])).toEqual([url]);
    expect(metaContent(html, 'property', 'og:url')).toEqual([url]);
    expect(metaContent(html, 'property', 'og:title')).toEqual([titles[0]]);
    expect(metaContent(html, 'property', 'og:description')).toEqual([description]);
    expect(metaContent(html, 'property', 'og:type')).toEqual(['website']);
    expect(metaContent(html, 'property', 'og:site_name')).toEqual(['SEO Audit Platform']);
    expect(html).not.toContain('%PUBLIC_URL%');
    // Under the strict CSP: no inline script, no style attribute.
    for (const [, attrs, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      expect(attrs).toMatch(/src="\/assets\//);
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/<[^>]+\sstyle="/);
  });

  it('titles and descriptions are unique', async () => {
    const heads = await Promise.all(PAGES.map(({ path }) => get(path).then((r) => r.body)));
    const titles = heads.map((h) => /<title>([^<]*)<\/title>/.exec(h)![1]);
    const descriptions = heads.map((h) => metaContent(h, 'name', 'description')[0]);
    expect(new Set(titles).size).toBe(PAGES.length);
    expect(new Set(descriptions).size).toBe(PAGES.length);
  });

  it('other paths of the app still get the application shell, without the public pages’ head', async () => {
    for (const path of ['/projects', '/sign-in', '/tools/nope']) {
      const res = await get(path);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).not.toContain('rel="canonical"');
    }
  });

  it('robots.txt allows the public pages and their files, disallows the rest and names the sitemap', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.body.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(lines).toEqual([
      'User-agent: *',
      ...PAGES.map((p) => `Allow: ${p.path}$`),
      ...CATALOG_PATHS.map((path) => `Allow: ${path}$`),
      'Allow: /assets/',
      'Allow: /favicon.svg',
      'Disallow: /',
      `Sitemap: ${origin}/sitemap.xml`,
    ]);
  });

  it("sitemap.xml lists the six public URLs and the check catalog's pages", async () => {
    const res = await get('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect([...res.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1])).toEqual(
      [...PAGES.map((p) => p.path), ...CATALOG_PATHS].map((path) => `${origin}${path}`),
    );
  });
});

describe('the platform audits its own public pages', () => {
  let run: AuditRun;
  beforeAll(async () => {
    run = await auditSite(client, `${origin}/`, { maxPages: 50 });
  }, 120_000);

  it('crawls exactly the public pages (robots.txt keeps it out of the app), all answering 200', () => {
    expect(run.pages.map((p) => new URL(p.url).pathname).sort()).toEqual(PAGES.map((p) => p.path).sort());
    expect(run.outcome.pagesFailed).toBe(0);
    expect(run.outcome.site.https).toBe(true);
  });

  it('finds no critical issue and no warning', () => {
    // PERF_TTFB is left out: here the crawler and the server share one Node event loop (and the test machine's
    // load), so the time to first byte measures the test, not the pages (each answer is a buffer in memory).
    const serious = run.outcome.issues
      .filter((i) => i.severity === 'CRITICAL' || i.severity === 'WARNING')
      .filter((i) => i.code !== 'PERF_TTFB')
      .map((i) => ({
        code: i.code,
        severity: i.severity,
        urls: [...new Set(run.occurrences.filter((o) => o.code === i.code).map((o) => o.url))],
      }));
    expect(serious).toEqual([]);
  });
});
