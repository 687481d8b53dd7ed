/**
 * One evaluator per catalog code (issue 19, point 2): the registry covers the catalog exactly once, the two passes
 * and the headers tool decide only codes the registry says they share, and, where they share one, they agree.
 */
import { describe, expect, it } from 'vitest';
import {
  CHARGED_WITH,
  CHECK_CATALOG,
  CHECK_DEFINITIONS,
  CHECK_EVALUATORS,
  LAB_CHECK_CODES,
  LINK_TARGET_VERDICTS,
  PAGE_EVALUATORS,
  RENDERING_CHECK_CODES,
  REQUESTED_URL_CODES,
  SHARED_VERDICTS,
  SITE_EVALUATORS,
  SITE_PASS_CODES,
  findCheck,
  runPageChecks,
  runSiteChecks,
  type CheckCode,
  type CheckSpec,
  type LinkTargetVerdicts,
  type OtherCaller,
  type PageCheckContext,
  type PageEvaluator,
  type PageFetch,
} from '../../../src/seo/checks/index.js';
import { analyzeHeaders, type HeadersInput } from '../../../src/seo/headers/index.js';
import { extractPageFacts } from '../../../src/seo/page/index.js';

const URL_ = 'https://example.com/';
const sharedWith = (caller: OtherCaller): Set<string> =>
  new Set(
    Object.entries(SHARED_VERDICTS)
      .filter(([, entry]) => entry?.alsoIn.includes(caller))
      .map(([code]) => code),
  );

describe('the evaluator registry', () => {
  it('has exactly one evaluator per catalog code, of the code scope', () => {
    const catalog = CHECK_CATALOG.map((check) => check.code);
    // No fixed count (the catalog grows): at least 150 codes, each once.
    expect(catalog.length).toBeGreaterThanOrEqual(150);
    expect(new Set(catalog).size).toBe(catalog.length);
    expect(Object.keys(CHECK_EVALUATORS).sort()).toEqual([...catalog].sort());
    const page = Object.keys(PAGE_EVALUATORS);
    const site = Object.keys(SITE_EVALUATORS);
    expect(page.filter((code) => site.includes(code))).toEqual([]);
    expect([...page, ...site].sort()).toEqual([...catalog].sort());
    for (const check of CHECK_CATALOG) {
      const evaluator = CHECK_EVALUATORS[check.code];
      expect(evaluator.code).toBe(check.code);
      expect(evaluator.scope).toBe(check.scope);
      expect(typeof evaluator.evaluate).toBe('function');
    }
    // No two codes are decided by the same function.
    const functions = new Set(Object.values(CHECK_EVALUATORS).map((evaluator) => evaluator.evaluate));
    expect(functions.size).toBe(catalog.length);
  });

  it('lists only catalog codes as shared, each with a verdict function', () => {
    for (const [code, entry] of Object.entries(SHARED_VERDICTS)) {
      expect(CHECK_EVALUATORS[code as CheckCode]).toBeDefined();
      expect(typeof entry!.verdict).toBe('function');
    }
  });

  it('page pass decides page codes only, site pass site codes plus the page codes it shares', () => {
    const facts = extractPageFacts('<title>x</title><a href="/a">a</a>', { url: URL_ });
    const fetch: PageFetch = {
      url: URL_,
      finalUrl: URL_,
      status: 200,
      depth: 0,
      redirects: [],
      bytes: 100,
      headers: {},
      inSitemap: true,
    };
    expect(runPageChecks(facts, fetch).map((result) => result.code)).toEqual(Object.keys(PAGE_EVALUATORS));
    const output = runSiteChecks({
      startUrl: URL_,
      pages: [
        {
          url: URL_,
          finalUrl: URL_,
          status: 200,
          depth: 0,
          redirected: false,
          isHtml: true,
          indexable: true,
          noindex: false,
          canonical: URL_,
          title: 'x',
          description: null,
          textHash: 'h',
          simhash: null,
          wordCount: 1,
          hasIconLink: false,
          internalLinks: ['https://example.com/a'],
          externalLinks: ['https://other.example/'],
          hreflang: [],
          resources: [{ url: 'https://example.com/i.png', kind: 'image' }],
          inSitemap: true,
        },
      ],
      linkTargets: new Map([
        ['https://example.com/a', { status: 404 }],
        ['https://other.example/', { status: 200 }],
        ['https://example.com/i.png', { status: 200 }],
      ]),
    });
    expect(output.site.map((result) => result.code)).toEqual(Object.keys(SITE_EVALUATORS));
    const sitePassPageCodes = new Set([...output.pages].flatMap((page) => page.results.map((result) => result.code)));
    expect(sitePassPageCodes.size).toBeGreaterThan(3);
    const shared = sharedWith('site pass');
    for (const code of sitePassPageCodes) expect(shared, code).toContain(code);
  });
});

describe('what the definitions say the passes share', () => {
  const specs = CHECK_DEFINITIONS as readonly CheckSpec[];

  it('names each link-target verdict by exactly one page-scope definition, and the sitemap listing by one', () => {
    const named = specs.flatMap((spec) => (spec.sitePass ? [spec.sitePass] : []));
    expect([...named].sort()).toEqual([...LINK_TARGET_VERDICTS, 'sitemapListing'].sort());
    for (const spec of specs.filter((s) => s.sitePass)) expect(spec.scope, spec.code).toBe('page');
  });

  it('has each link-target definition decide the page by the verdict its sitePass names', () => {
    // Every verdict a distinct outcome: a definition reading another verdict than its own is told apart.
    const verdicts = Object.fromEntries(
      LINK_TARGET_VERDICTS.map((verdict, i) => [verdict, { failed: true, evidence: { verdict, i } }]),
    ) as unknown as LinkTargetVerdicts;
    const ctx = { linkTargets: () => verdicts } as unknown as PageCheckContext;
    for (const spec of specs)
      if (spec.sitePass && spec.sitePass !== 'sitemapListing')
        expect((spec.evaluate as PageEvaluator)(ctx), spec.code).toBe(verdicts[spec.sitePass]);
  });

  it('charges a linked failing URL with a catalog check, and names the catalog codes it lists', () => {
    for (const [code, with_] of CHARGED_WITH) {
      expect(findCheck(code), code).toBeDefined();
      expect(findCheck(with_), with_).toBeDefined();
    }
    expect(CHARGED_WITH.size).toBeGreaterThan(0);
    for (const set of [LAB_CHECK_CODES, RENDERING_CHECK_CODES, SITE_PASS_CODES, REQUESTED_URL_CODES])
      for (const code of set) expect(findCheck(code), code).toBeDefined();
  });
});

/** A 2xx HTML page of about 3 KB with <meta charset>, judged by the page evaluators. */
const HTML =
  `<!doctype html><html lang="en"><head><meta ` +
  `charset="utf-8"><title>t</title></head><body><p>${'word '.repeat(600)}</p></body></html>`;

interface Variant {
  name: string;
  url?: string;
  status?: number;
  headers: Record<string, string | string[]>;
  hops?: number;
  html?: string;
}

const VARIANTS: Variant[] = [
  {
    name: 'HSTS one year, gzip, cached',
    headers: {
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'content-encoding': 'gzip',
      'cache-control': 'max-age=600',
    },
  },
  { name: 'no HSTS, no compression, no caching', headers: {} },
  {
    name: 'HSTS with a repeated directive (invalid), br',
    headers: { 'strict-transport-security': 'max-age=31536000; max-age=5', 'content-encoding': 'br' },
  },
  { name: 'HSTS max-age=0, zstd', headers: { 'strict-transport-security': 'max-age=0', 'content-encoding': 'zstd' } },
  { name: 'HSTS max-age not a number', headers: { 'strict-transport-security': 'max-age=abc' } },
  { name: 'HSTS quoted max-age, preload', headers: { 'strict-transport-security': 'max-age="600"; preload' } },
  { name: 'HSTS malformed directive', headers: { 'strict-transport-security': 'max-age=600; include subdomains' } },
  { name: 'two HSTS headers, first valid', headers: { 'strict-transport-security': ['max-age=600', 'max-age=0'] } },
  { name: 'two HSTS headers, first invalid', headers: { 'strict-transport-security': ['max-age=x', 'max-age=600'] } },
  { name: 'identity coding', headers: { 'content-encoding': 'identity' } },
  { name: 'gzip in a second Content-Encoding value', headers: { 'content-encoding': ['identity', 'gzip'] } },
  {
    name: 'small body',
    headers: { 'content-length': '900' },
    html:
      '<!doctype html><html lang="en"><head><meta ' +
      'charset="utf-8"><title>t</title></head><body><p>short</p></body></html>',
  },
  { name: 'a 404', status: 404, headers: {} },
  { name: 'plain http', url: 'http://example.com/', headers: {} },
  { name: 'two redirect hops', headers: {}, hops: 2 },
  { name: 'one redirect hop', headers: {}, hops: 1 },
  { name: 'X-Robots-Tag googlebot: noindex', headers: { 'x-robots-tag': 'googlebot: noindex' } },
  { name: 'X-Robots-Tag otherbot: noindex', headers: { 'x-robots-tag': 'otherbot: noindex' } },
  {
    name: 'no charset anywhere',
    headers: { 'content-type': 'text/html' },
    html: `<!doctype html><html><head><title>t</title></head><body><p>${'word '.repeat(600)}</p></body></html>`,
  },
];

const CACHE_VARIANTS: Record<string, string>[] = [
  {},
  { 'cache-control': 'max-age=86400' },
  { 'cache-control': 'max-age=0' },
  { 'cache-control': 'immutable' },
  { 'cache-control': 'public, s-maxage=600' },
  { 'cache-control': 's-max-age=600' },
  { 'cache-control': 'no-store' },
  { 'cache-control': 'no-cache', etag: '"v1"' },
  { 'last-modified': 'Tue, 01 Jul 2025 10:00:00 GMT' },
  { 'cache-control': 'max-age="3600"' },
  { expires: 'Tue, 01 Jul 2099 10:00:00 GMT' },
];

function toolIssues(input: Partial<HeadersInput> & { headers: HeadersInput['headers'] }): Set<string> {
  const report = analyzeHeaders({
    url: URL_,
    finalUrl: URL_,
    status: 200,
    httpVersion: '1.1',
    redirects: [],
    ...input,
  });
  return new Set(report.issues.map((issue) => issue.code));
}

describe('the headers tool and the audit evaluators agree on one response', () => {
  const sharedCodes = sharedWith('headers tool');

  it.each(VARIANTS)('$name', (variant) => {
    const finalUrl = variant.url ?? URL_;
    const status = variant.status ?? 200;
    const html = variant.html ?? HTML;
    const headers: Record<string, string | string[]> = {
      'content-type': 'text/html; charset=utf-8',
      ...variant.headers,
    };
    const redirects = Array.from({ length: variant.hops ?? 0 }, (_, i) => ({ url: `${finalUrl}hop${i}`, status: 301 }));
    const bytes = Buffer.byteLength(html);
    const facts = status >= 200 && status < 300 ? extractPageFacts(html, { url: finalUrl, headers, status }) : null;
    const documentCharset = facts?.charset && facts.charset.source !== 'header' ? facts.charset.value : null;
    const tool = toolIssues({
      url: redirects[0]?.url ?? finalUrl,
      finalUrl,
      status,
      headers,
      redirects,
      bodyBytes: bytes,
      documentCharset,
    });
    for (const code of tool) expect(sharedCodes, `tool raised ${code}, which it does not share`).toContain(code);

    const fetch: PageFetch = {
      url: redirects[0]?.url ?? finalUrl,
      finalUrl,
      status,
      depth: 0,
      redirects,
      bytes,
      headers,
    };
    const page = new Map(runPageChecks(facts, fetch).map((result) => [result.code, result]));
    const site = new Map(
      runSiteChecks({
        startUrl: finalUrl,
        pages: [],
        hsts: {
          https: finalUrl.startsWith('https:'),
          header: [headers['strict-transport-security'] ?? []].flat()[0] ?? null,
        },
        startResponse: { url: finalUrl, https: finalUrl.startsWith('https:'), headers },
      }).site.map((result) => [result.code, result]),
    );
    const auditFails = (code: string): boolean =>
      (page.get(code as CheckCode)?.failed ?? site.get(code as CheckCode)?.failed) === true;
    for (const code of sharedCodes) {
      if (code === 'PERF_NO_CACHE_HEADERS') continue; // about subresources in the audit: the next test
      expect(auditFails(code), code).toBe(tool.has(code));
    }
  });

  it.each(CACHE_VARIANTS)('PERF_NO_CACHE_HEADERS for an image with %j', (cacheHeaders) => {
    const headers = { 'content-type': 'image/png', 'content-length': '5000', ...cacheHeaders };
    const tool = toolIssues({ url: `${URL_}a.png`, finalUrl: `${URL_}a.png`, headers });
    const fetch: PageFetch = {
      url: URL_,
      finalUrl: URL_,
      status: 200,
      depth: 0,
      redirects: [],
      bytes: 0,
      headers: {},
      resources: [{ url: `${URL_}a.png`, kind: 'image', status: 200, headers }],
    };
    const audit = runPageChecks(null, fetch).find((result) => result.code === 'PERF_NO_CACHE_HEADERS')!;
    expect(audit.applicable).toBe(true);
    expect(audit.failed).toBe(tool.has('PERF_NO_CACHE_HEADERS'));
  });

  it('decides the shared codes as the catalog says, not only alike', () => {
    const hsts = (header: string) =>
      toolIssues({ headers: { 'strict-transport-security': header } }).has('TECH_HSTS_MISSING');
    expect([hsts('max-age=31536000'), hsts('max-age=0'), hsts('max-age=1; max-age=2'), hsts('max-age="60"')]).toEqual([
      false,
      true,
      true,
      false,
    ]);
    const cache = (headers: Record<string, string>) =>
      toolIssues({ headers: { 'content-type': 'image/png', ...headers } }).has('PERF_NO_CACHE_HEADERS');
    expect([
      cache({ 'cache-control': 's-maxage=60' }),
      cache({ 'cache-control': 'immutable' }),
      cache({ etag: '"x"' }),
    ]).toEqual([false, true, false]);
  });
});
