/**
 * The free headers tool and an audit agree about the same response (issue 19, point 2). For each header variant a
 * fixture site on 127.0.0.1 (https unless said otherwise) serves a page and an image with the chosen headers; the
 * tool (ToolsService.headers, the real safe HTTP client) checks the page and the image, the audit (crawler +
 * engine) audits the site, and every check code they share must fail in both or in neither — and as expected.
 */
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_VERDICTS } from '../../src/seo/checks/index.js';
import type { SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { ToolsService } from '../../src/tools/index.js';
import {
  auditSite,
  createFixtureClient,
  createTestCertificate,
  startFixtureSite,
  type FixtureResponse,
  type RunningSite,
  type TestCertificate,
} from '../fixtures/sites/index.js';

type Encoding = 'gzip' | 'br' | 'none';

interface Variant {
  name: string;
  https: boolean;
  /** Extra headers of the page (the start URL). */
  page: Record<string, string | string[]>;
  encoding: Encoding;
  /** Headers of the image the page shows. */
  image: Record<string, string>;
  /** Start at /hop1, which redirects twice before the page. */
  redirectChain?: boolean;
  /** The page declares no charset, in Content-Type or in the HTML. */
  noCharset?: boolean;
  /** The page sends none of SECURE's headers. */
  noSecurityHeaders?: boolean;
  /** Codes expected to fail, in the tool and in the audit alike. */
  fails: string[];
}

const ONE_YEAR = 'max-age=31536000; includeSubDomains';
/** An https page's security headers (TECH_CSP_MISSING and its kin): every variant sends them unless it says not. */
const SECURE = {
  'content-security-policy': "default-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};
const CACHED = { 'cache-control': 'public, max-age=86400' };

const VARIANTS: Variant[] = [
  {
    name: 'HSTS, gzip, cached image',
    https: true,
    page: { 'strict-transport-security': ONE_YEAR },
    encoding: 'gzip',
    image: CACHED,
    fails: [],
  },
  {
    name: 'no HSTS, no compression, image without caching',
    https: true,
    page: {},
    encoding: 'none',
    image: {},
    fails: ['TECH_HSTS_MISSING', 'PERF_NO_COMPRESSION', 'PERF_NO_CACHE_HEADERS'],
  },
  // The site checks used to find "max-age=\d+" anywhere: an invalid header (browsers ignore it) passed there.
  {
    name: 'HSTS with a repeated directive, br',
    https: true,
    page: { 'strict-transport-security': 'max-age=31536000; max-age=60' },
    encoding: 'br',
    image: { etag: '"v1"' },
    fails: ['TECH_HSTS_MISSING'],
  },
  {
    name: 'HSTS max-age=0, image immutable only',
    https: true,
    page: { 'strict-transport-security': 'max-age=0' },
    encoding: 'gzip',
    image: { 'cache-control': 'immutable' },
    fails: ['TECH_HSTS_MISSING', 'PERF_NO_CACHE_HEADERS'],
  },
  {
    name: 'HSTS max-age not a number, image s-maxage',
    https: true,
    page: { 'strict-transport-security': 'max-age=forever' },
    encoding: 'br',
    image: { 'cache-control': 's-maxage=600' },
    fails: ['TECH_HSTS_MISSING'],
  },
  {
    name: 'HSTS quoted max-age, image no-store',
    https: true,
    page: { 'strict-transport-security': 'max-age="600"' },
    encoding: 'gzip',
    image: { 'cache-control': 'no-store' },
    // A quoted value is valid (RFC 6797), and 600 s is far under the year browsers' preload lists ask for.
    fails: ['PERF_NO_CACHE_HEADERS', 'TECH_HSTS_SHORT'],
  },
  {
    name: 'X-Robots-Tag noindex, image no-cache with Last-Modified',
    https: true,
    page: { 'strict-transport-security': ONE_YEAR, 'x-robots-tag': 'googlebot: noindex' },
    encoding: 'gzip',
    image: { 'cache-control': 'no-cache', 'last-modified': 'Tue, 01 Jul 2025 10:00:00 GMT' },
    fails: ['TECH_NOINDEX'],
  },
  {
    name: 'no charset anywhere, image max-age=0',
    https: true,
    page: { 'strict-transport-security': ONE_YEAR },
    encoding: 'gzip',
    image: { 'cache-control': 'max-age=0' },
    noCharset: true,
    fails: ['META_CHARSET_MISSING', 'PERF_NO_CACHE_HEADERS'],
  },
  {
    name: 'no security headers',
    https: true,
    page: { 'strict-transport-security': ONE_YEAR },
    encoding: 'gzip',
    image: CACHED,
    noSecurityHeaders: true,
    fails: ['TECH_CSP_MISSING', 'TECH_CONTENT_TYPE_OPTIONS_MISSING', 'TECH_CLICKJACKING_UNPROTECTED'],
  },
  {
    name: 'plain http reached through two redirects',
    https: false,
    page: {},
    encoding: 'none',
    image: CACHED,
    redirectChain: true,
    fails: ['TECH_HTTP_PAGE', 'LINKS_REDIRECT_CHAIN', 'PERF_NO_COMPRESSION'],
  },
];

const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

function pageHtml(variant: Variant): string {
  const text = Array.from({ length: 400 }, (_, i) => `garden${i % 37} soil${i % 11}`).join(' ');
  return (
    `<!DOCTYPE html><html lang="en"><head>${variant.noCharset ? '' : '<meta charset="utf-8">'}
<title>Header verdicts: ${variant.name}</title><meta name="viewport" content="width=device-width, initial-scale=1">
</head><body><h1>${variant.name}</h1><img src="/pixel.png" alt="A pixel" width="1" ` +
    `height="1"><p>${text}</p></body></html>`
  );
}

function pageResponse(variant: Variant): FixtureResponse {
  const html = Buffer.from(pageHtml(variant));
  const body =
    variant.encoding === 'gzip' ? gzipSync(html) : variant.encoding === 'br' ? brotliCompressSync(html) : html;
  const headers: Record<string, string | string[]> = {
    'content-type': variant.noCharset ? 'text/html' : 'text/html; charset=utf-8',
    ...(variant.https && !variant.noSecurityHeaders ? SECURE : {}),
    ...variant.page,
  };
  if (variant.encoding !== 'none') headers['content-encoding'] = variant.encoding;
  // compress: false: the server sends the body exactly as encoded here.
  return { headers, body, compress: false };
}

const SHARED = Object.entries(SHARED_VERDICTS)
  .filter(([, entry]) => entry?.alsoIn.includes('headers tool'))
  .map(([code]) => code);

let certificate: TestCertificate;
let client: SafeHttpClient;
let tools: ToolsService;
const sites: RunningSite[] = [];
const hosts = VARIANTS.map((_, i) => `verdicts-${i}.test`);

beforeAll(async () => {
  certificate = createTestCertificate(hosts);
  client = createFixtureClient(hosts, {}, { ca: certificate.cert });
  tools = new ToolsService(client);
  for (const [i, variant] of VARIANTS.entries()) {
    const site = await startFixtureSite({ host: hosts[i], tls: variant.https ? certificate : undefined });
    site.serve({
      '/': pageResponse(variant),
      '/hop1': { status: 301, headers: { location: '/hop2' } },
      '/hop2': { status: 301, headers: { location: '/' } },
      '/pixel.png': { headers: { 'content-type': 'image/png', ...variant.image }, body: PIXEL },
    });
    sites.push(site);
  }
});

afterAll(async () => {
  await client?.close();
  await Promise.all(sites.map((site) => site.close()));
});

describe('headers tool and audit of the same fixture', () => {
  it('share the header-based codes the catalog decides from responses', () => {
    expect(SHARED).toEqual(
      expect.arrayContaining([
        'TECH_HSTS_MISSING',
        'PERF_NO_COMPRESSION',
        'PERF_NO_CACHE_HEADERS',
        'TECH_HTTP_PAGE',
        'LINKS_REDIRECT_CHAIN',
      ]),
    );
  });

  it.each(VARIANTS.map((variant, i) => [variant.name, i] as const))('%s', async (_name, i) => {
    const variant = VARIANTS[i];
    const site = sites[i];
    const start = site.url(variant.redirectChain ? '/hop1' : '/');
    const page = await tools.headers({ url: start });
    const image = await tools.headers({ url: site.url('/pixel.png') });
    // The audit judges caching on the page's images, the tool on the URL it is given: the image's report counts.
    const toolFails = new Set([
      ...page.issues.map((issue) => issue.code).filter((code) => code !== 'PERF_NO_CACHE_HEADERS'),
      ...image.issues.map((issue) => issue.code).filter((code) => code === 'PERF_NO_CACHE_HEADERS'),
    ]);
    const run = await auditSite(client, start, { maxPages: 5 });
    const auditFails = new Set<string>(run.outcome.issues.map((issue) => issue.code));

    const tool = SHARED.filter((code) => toolFails.has(code)).sort();
    const audit = SHARED.filter((code) => auditFails.has(code)).sort();
    expect({ tool }).toEqual({ tool: [...variant.fails].sort() });
    expect({ audit }).toEqual({ audit: tool });
  });
});
