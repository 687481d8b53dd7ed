import { describe, expect, it } from 'vitest';
import {
  HEADER_CHECK_NAMES,
  analyzeHeaders,
  effectiveReferrerPolicy,
  parseCacheControl,
  parseCsp,
  parseHsts,
  parseResponseHeaders,
  sharedResponseHeaders,
} from '../../../src/seo/headers/index.js';
import type { HeaderCheckName, HeadersInput, HeadersReport } from '../../../src/seo/headers/index.js';

type Overrides = Record<string, string | string[] | undefined>;

/** A response that passes every check. */
const GOOD_HEADERS: Record<string, string | string[]> = {
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'content-security-policy': "default-src 'self'; script-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), geolocation=()',
  'content-encoding': 'br',
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'max-age=600',
  etag: '"abc123"',
  server: 'nginx',
};

function input(overrides: Overrides = {}, extra: Partial<HeadersInput> = {}): HeadersInput {
  const headers: Record<string, string | string[]> = { ...GOOD_HEADERS };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  return {
    url: 'https://example.com/',
    finalUrl: 'https://example.com/',
    status: 200,
    httpVersion: '2',
    headers,
    redirects: [],
    ...extra,
  };
}

function checkOf(report: HeadersReport, name: HeaderCheckName) {
  const found = report.checks.find((check) => check.name === name);
  if (!found) throw new Error(`no check ${name}`);
  return found;
}

function codes(report: HeadersReport): string[] {
  return report.issues.map((issue) => issue.code);
}

describe('analyzeHeaders: a well-configured response', () => {
  const report = analyzeHeaders(input());

  it('passes every check, in the stable order, with no issues', () => {
    expect(report.checks.map((check) => check.name)).toEqual([...HEADER_CHECK_NAMES]);
    expect(report.checks.filter((check) => !check.passed)).toEqual([]);
    expect(report.issues).toEqual([]);
  });

  it('echoes the response facts in the API shape', () => {
    expect(report).toMatchObject({
      url: 'https://example.com/',
      finalUrl: 'https://example.com/',
      status: 200,
      httpVersion: '2',
      redirects: [],
    });
    expect(report.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });
});

interface Case {
  name: HeaderCheckName;
  label: string;
  overrides?: Overrides;
  extra?: Partial<HeadersInput>;
  passed: boolean;
  message: RegExp;
  issue?: string;
  value?: string | null;
}

const CASES: Case[] = [
  // https
  { name: 'https', label: 'https final URL', passed: true, message: /HTTPS/ },
  {
    name: 'https',
    label: 'http final URL',
    extra: { url: 'http://example.com/', finalUrl: 'http://example.com/' },
    passed: false,
    message: /plain HTTP/,
    issue: 'TECH_HTTP_PAGE',
  },
  // redirect chain
  {
    name: 'redirect-chain',
    label: 'one hop',
    extra: { redirects: [{ url: 'http://example.com/', status: 301 }] },
    passed: true,
    message: /One redirect/,
    value: '301 http://example.com/',
  },
  {
    name: 'redirect-chain',
    label: 'two hops',
    extra: {
      redirects: [
        { url: 'http://example.com/', status: 301 },
        { url: 'https://example.com', status: 308 },
      ],
    },
    passed: false,
    message: /2 redirects/,
    issue: 'LINKS_REDIRECT_CHAIN',
    value: '301 http://example.com/ -> 308 https://example.com',
  },
  // HSTS
  {
    name: 'strict-transport-security',
    label: 'one year, subdomains, preload',
    overrides: { 'strict-transport-security': 'max-age=31536000; includeSubDomains; preload' },
    passed: true,
    message: /1 year.*includeSubDomains.*preload list/,
  },
  {
    name: 'strict-transport-security',
    label: 'short max-age',
    overrides: { 'strict-transport-security': 'max-age=86400' },
    passed: true,
    message: /below the recommended 31536000.*not covered/,
    issue: 'TECH_HSTS_SHORT',
  },
  {
    name: 'strict-transport-security',
    label: 'quoted max-age',
    overrides: { 'strict-transport-security': 'max-age="31536000"' },
    passed: true,
    message: /1 year/,
  },
  {
    name: 'strict-transport-security',
    label: 'preload without includeSubDomains',
    overrides: { 'strict-transport-security': 'max-age=31536000; preload' },
    passed: true,
    message: /preload list requires includeSubDomains/,
  },
  {
    name: 'strict-transport-security',
    label: 'missing',
    overrides: { 'strict-transport-security': undefined },
    passed: false,
    message: /Missing Strict-Transport-Security/,
    issue: 'TECH_HSTS_MISSING',
    value: null,
  },
  {
    name: 'strict-transport-security',
    label: 'no max-age',
    overrides: { 'strict-transport-security': 'includeSubDomains' },
    passed: false,
    message: /Invalid.*max-age directive is missing/,
    issue: 'TECH_HSTS_MISSING',
  },
  {
    name: 'strict-transport-security',
    label: 'non-numeric max-age',
    overrides: { 'strict-transport-security': 'max-age=one-year' },
    passed: false,
    message: /Invalid/,
    issue: 'TECH_HSTS_MISSING',
  },
  {
    name: 'strict-transport-security',
    label: 'duplicate directive',
    overrides: { 'strict-transport-security': 'max-age=100; max-age=200' },
    passed: false,
    message: /more than once/,
    issue: 'TECH_HSTS_MISSING',
  },
  {
    name: 'strict-transport-security',
    label: 'max-age=0',
    overrides: { 'strict-transport-security': 'max-age=0' },
    passed: false,
    message: /forget/,
    issue: 'TECH_HSTS_MISSING',
  },
  {
    name: 'strict-transport-security',
    label: 'served over http',
    extra: { finalUrl: 'http://example.com/' },
    passed: false,
    message: /only takes effect on HTTPS/,
  },
  // CSP
  {
    name: 'content-security-policy',
    label: 'strict policy',
    passed: true,
    message: /restricts scripts\.$/,
  },
  {
    name: 'content-security-policy',
    label: 'unsafe-inline in script-src',
    overrides: { 'content-security-policy': "default-src 'self'; script-src 'self' 'unsafe-inline'" },
    passed: true,
    message: /script-src allows 'unsafe-inline'/,
  },
  {
    name: 'content-security-policy',
    label: 'unsafe-eval via default-src',
    overrides: { 'content-security-policy': "default-src 'self' 'unsafe-eval'" },
    passed: true,
    message: /default-src allows 'unsafe-eval'/,
  },
  {
    name: 'content-security-policy',
    label: 'unsafe-inline neutralised by a nonce',
    overrides: { 'content-security-policy': "script-src 'nonce-abc' 'unsafe-inline'" },
    passed: true,
    message: /restricts scripts\.$/,
  },
  {
    name: 'content-security-policy',
    label: 'a second, stricter policy blocks inline',
    overrides: {
      'content-security-policy': ["script-src 'self' 'unsafe-inline'", "script-src 'self'"],
    },
    passed: true,
    message: /restricts scripts\.$/,
  },
  {
    name: 'content-security-policy',
    label: 'no script directive',
    overrides: { 'content-security-policy': "img-src 'self'" },
    passed: true,
    message: /does not restrict scripts/,
  },
  {
    name: 'content-security-policy',
    label: 'missing',
    overrides: { 'content-security-policy': undefined },
    passed: false,
    message: /Missing Content-Security-Policy/,
    issue: 'TECH_CSP_MISSING',
  },
  {
    name: 'content-security-policy',
    label: 'report-only',
    overrides: {
      'content-security-policy': undefined,
      'content-security-policy-report-only': "default-src 'self'",
    },
    passed: false,
    message: /Report-Only/,
    issue: 'TECH_CSP_MISSING',
  },
  // X-Content-Type-Options
  { name: 'x-content-type-options', label: 'nosniff', passed: true, message: /nosniff/ },
  {
    name: 'x-content-type-options',
    label: 'upper-case NOSNIFF',
    overrides: { 'x-content-type-options': 'NOSNIFF' },
    passed: true,
    message: /disabled/,
  },
  {
    name: 'x-content-type-options',
    label: 'wrong value',
    overrides: { 'x-content-type-options': 'sniff' },
    passed: false,
    message: /must be "nosniff"/,
    issue: 'TECH_CONTENT_TYPE_OPTIONS_MISSING',
  },
  {
    name: 'x-content-type-options',
    label: 'missing',
    overrides: { 'x-content-type-options': undefined },
    passed: false,
    message: /Missing/,
    issue: 'TECH_CONTENT_TYPE_OPTIONS_MISSING',
  },
  // frame protection
  {
    name: 'frame-protection',
    label: 'CSP frame-ancestors',
    passed: true,
    message: /frame-ancestors/,
    value: "frame-ancestors 'none'",
  },
  {
    name: 'frame-protection',
    label: 'X-Frame-Options SAMEORIGIN only',
    overrides: { 'content-security-policy': "default-src 'self'", 'x-frame-options': 'sameorigin' },
    passed: true,
    message: /X-Frame-Options: SAMEORIGIN/,
  },
  {
    name: 'frame-protection',
    label: 'frame-ancestors *',
    overrides: { 'content-security-policy': 'frame-ancestors *', 'x-frame-options': undefined },
    passed: false,
    message: /any site can embed|lets any site/,
    issue: 'TECH_CLICKJACKING_UNPROTECTED',
  },
  {
    name: 'frame-protection',
    label: 'ALLOW-FROM',
    overrides: { 'content-security-policy': "default-src 'self'", 'x-frame-options': 'ALLOW-FROM https://a.example' },
    passed: false,
    message: /obsolete/,
    issue: 'TECH_CLICKJACKING_UNPROTECTED',
  },
  {
    name: 'frame-protection',
    label: 'conflicting X-Frame-Options',
    overrides: { 'content-security-policy': "default-src 'self'", 'x-frame-options': ['DENY', 'SAMEORIGIN'] },
    passed: false,
    message: /conflicting/,
    issue: 'TECH_CLICKJACKING_UNPROTECTED',
  },
  {
    name: 'frame-protection',
    label: 'neither',
    overrides: { 'content-security-policy': "default-src 'self'", 'x-frame-options': undefined },
    passed: false,
    message: /clickjacking/,
    issue: 'TECH_CLICKJACKING_UNPROTECTED',
    value: null,
  },
  // Referrer-Policy
  {
    name: 'referrer-policy',
    label: 'no-referrer',
    overrides: { 'referrer-policy': 'no-referrer' },
    passed: true,
    message: /no-referrer/,
  },
  {
    name: 'referrer-policy',
    label: 'fallback list: last valid wins',
    overrides: { 'referrer-policy': 'unsafe-url, bogus, strict-origin' },
    passed: true,
    message: /strict-origin\./,
  },
  {
    name: 'referrer-policy',
    label: 'unsafe-url',
    overrides: { 'referrer-policy': 'unsafe-url' },
    passed: false,
    message: /weak/,
  },
  {
    name: 'referrer-policy',
    label: 'no-referrer-when-downgrade',
    overrides: { 'referrer-policy': 'No-Referrer-When-Downgrade' },
    passed: false,
    message: /weak/,
  },
  {
    name: 'referrer-policy',
    label: 'invalid',
    overrides: { 'referrer-policy': 'sometimes' },
    passed: false,
    message: /no valid value/,
  },
  {
    name: 'referrer-policy',
    label: 'missing',
    overrides: { 'referrer-policy': undefined },
    passed: false,
    message: /Missing/,
  },
  // Permissions-Policy
  { name: 'permissions-policy', label: 'present', passed: true, message: /restricts/ },
  {
    name: 'permissions-policy',
    label: 'legacy Feature-Policy only',
    overrides: { 'permissions-policy': undefined, 'feature-policy': "camera 'none'" },
    passed: false,
    message: /deprecated Feature-Policy/,
  },
  {
    name: 'permissions-policy',
    label: 'missing',
    overrides: { 'permissions-policy': undefined },
    passed: false,
    message: /Missing/,
  },
  // compression
  { name: 'compression', label: 'br', passed: true, message: /compressed \(br\)/ },
  {
    name: 'compression',
    label: 'gzip',
    overrides: { 'content-encoding': 'gzip' },
    passed: true,
    message: /gzip/,
  },
  {
    name: 'compression',
    label: 'zstd',
    overrides: { 'content-encoding': 'zstd' },
    passed: true,
    message: /zstd/,
  },
  {
    name: 'compression',
    label: 'uncompressed HTML',
    overrides: { 'content-encoding': undefined },
    passed: false,
    message: /not compressed/,
    issue: 'PERF_NO_COMPRESSION',
  },
  {
    name: 'compression',
    label: 'uncompressed JavaScript',
    overrides: { 'content-encoding': 'identity', 'content-type': 'application/javascript' },
    passed: false,
    message: /application\/javascript/,
    issue: 'PERF_NO_COMPRESSION',
  },
  {
    name: 'compression',
    label: 'uncompressed SVG',
    overrides: { 'content-encoding': undefined, 'content-type': 'image/svg+xml' },
    passed: false,
    message: /not compressed/,
    issue: 'PERF_NO_COMPRESSION',
  },
  {
    name: 'compression',
    label: 'a PNG needs none',
    overrides: { 'content-encoding': undefined, 'content-type': 'image/png' },
    passed: true,
    message: /already a compressed format/,
  },
  {
    name: 'compression',
    label: 'a tiny body needs none',
    overrides: { 'content-encoding': undefined, 'content-length': '512' },
    passed: true,
    message: /too small/,
  },
  {
    name: 'compression',
    label: 'a 304 has no body',
    overrides: { 'content-encoding': undefined },
    extra: { status: 304 },
    passed: true,
    message: /no body/,
  },
  // caching
  { name: 'caching', label: 'max-age and ETag', passed: true, message: /600 s.*ETag/ },
  {
    name: 'caching',
    label: 'Last-Modified only',
    overrides: { 'cache-control': undefined, etag: undefined, 'last-modified': 'Wed, 21 Oct 2015 07:28:00 GMT' },
    passed: true,
    message: /Last-Modified/,
  },
  {
    name: 'caching',
    label: 'no-cache with ETag',
    overrides: { 'cache-control': 'no-cache' },
    passed: true,
    message: /revalidated/,
  },
  {
    name: 'caching',
    label: 'no-store',
    overrides: { 'cache-control': 'private, no-store' },
    passed: false,
    message: /no-store/,
  },
  {
    name: 'caching',
    label: 'nothing on an HTML page (no issue: the catalog rule is about static assets)',
    overrides: { 'cache-control': undefined, etag: undefined },
    passed: false,
    message: /No Cache-Control max-age/,
    value: null,
  },
  {
    name: 'caching',
    label: 'nothing on a stylesheet',
    overrides: { 'cache-control': undefined, etag: undefined, 'content-type': 'text/css' },
    passed: false,
    message: /No Cache-Control max-age/,
    issue: 'PERF_NO_CACHE_HEADERS',
  },
  {
    name: 'caching',
    label: 'max-age=0 on an image',
    overrides: { 'cache-control': 'max-age=0', etag: undefined, 'content-type': 'image/webp' },
    passed: false,
    message: /No Cache-Control max-age/,
    issue: 'PERF_NO_CACHE_HEADERS',
  },
  // X-Robots-Tag
  { name: 'x-robots-tag', label: 'absent', passed: true, message: /may be indexed/, value: null },
  {
    name: 'x-robots-tag',
    label: 'noindex',
    overrides: { 'x-robots-tag': 'noindex' },
    passed: false,
    message: /noindex/,
    issue: 'TECH_NOINDEX',
  },
  {
    name: 'x-robots-tag',
    label: 'none',
    overrides: { 'x-robots-tag': 'none' },
    passed: false,
    message: /nofollow/,
    issue: 'TECH_NOINDEX',
  },
  {
    name: 'x-robots-tag',
    label: 'googlebot: noindex among several values',
    overrides: { 'x-robots-tag': ['max-snippet:50', 'googlebot: noindex'] },
    passed: false,
    message: /noindex/,
    issue: 'TECH_NOINDEX',
  },
  {
    name: 'x-robots-tag',
    label: 'noindex for another crawler only',
    overrides: { 'x-robots-tag': 'otherbot: noindex' },
    passed: true,
    message: /allows indexing/,
  },
  {
    name: 'x-robots-tag',
    label: 'nofollow only',
    overrides: { 'x-robots-tag': 'nofollow' },
    passed: true,
    message: /nofollow stops/,
  },
  // Content-Type charset
  { name: 'content-type-charset', label: 'utf-8', passed: true, message: /utf-8/ },
  {
    name: 'content-type-charset',
    label: 'quoted charset',
    overrides: { 'content-type': 'text/html; charset="ISO-8859-1"' },
    passed: true,
    message: /iso-8859-1/,
  },
  {
    name: 'content-type-charset',
    label: 'HTML without charset',
    overrides: { 'content-type': 'text/html' },
    passed: false,
    message: /no charset/,
    issue: 'META_CHARSET_MISSING',
  },
  {
    name: 'content-type-charset',
    label: 'HTML without charset but with <meta charset>',
    overrides: { 'content-type': 'text/html' },
    extra: { documentCharset: 'utf-8' },
    passed: false,
    message: /declares utf-8 in a <meta> tag/,
  },
  {
    name: 'content-type-charset',
    label: 'JSON needs no charset',
    overrides: { 'content-type': 'application/json' },
    passed: true,
    message: /not HTML/,
  },
  {
    name: 'content-type-charset',
    label: 'no Content-Type',
    overrides: { 'content-type': undefined },
    passed: false,
    message: /Missing Content-Type/,
  },
  // version disclosure
  { name: 'version-disclosure', label: 'bare server name', passed: true, message: /without a version/ },
  {
    name: 'version-disclosure',
    label: 'no server header',
    overrides: { server: undefined },
    passed: true,
    message: /No Server/,
    value: null,
  },
  {
    name: 'version-disclosure',
    label: 'nginx/1.18.0',
    overrides: { server: 'nginx/1.18.0' },
    passed: false,
    message: /nginx\/1\.18\.0/,
  },
  {
    name: 'version-disclosure',
    label: 'Apache with OS',
    overrides: { server: 'Apache/2.4.41 (Ubuntu)' },
    passed: false,
    message: /disclosed/,
  },
  {
    name: 'version-disclosure',
    label: 'PHP/8.1 in X-Powered-By',
    overrides: { 'x-powered-by': 'PHP/8.1' },
    passed: false,
    message: /X-Powered-By: PHP\/8\.1/,
    value: 'Server: nginx; X-Powered-By: PHP/8.1',
  },
  {
    name: 'version-disclosure',
    label: 'X-AspNet-Version',
    overrides: { 'x-aspnet-version': '4.0.30319' },
    passed: false,
    message: /X-AspNet-Version/,
  },
  {
    name: 'version-disclosure',
    label: 'X-Powered-By without version',
    overrides: { 'x-powered-by': 'Express' },
    passed: true,
    message: /without a version/,
  },
];

describe('analyzeHeaders: each check', () => {
  it.each(CASES.map((entry) => [`${entry.name}: ${entry.label}`, entry] as const))('%s', (_title, entry) => {
    const report = analyzeHeaders(input(entry.overrides, entry.extra));
    const check = checkOf(report, entry.name);
    expect(check.passed).toBe(entry.passed);
    expect(check.message).toMatch(entry.message);
    if (entry.value !== undefined) expect(check.value).toBe(entry.value);
    if (entry.issue) expect(codes(report)).toContain(entry.issue);
    // Apart from the expected issue, a good baseline raises none.
    const servedOverHttp = entry.extra?.finalUrl?.startsWith('http:') === true;
    expect(codes(report).filter((code) => code !== entry.issue)).toEqual(
      servedOverHttp && entry.issue !== 'TECH_HTTP_PAGE' ? ['TECH_HTTP_PAGE'] : [],
    );
  });
});

describe('analyzeHeaders: issues', () => {
  it('uses the catalog title, severity and category, most severe first', () => {
    const report = analyzeHeaders(
      input(
        { 'content-encoding': undefined, 'x-robots-tag': 'noindex', 'content-type': 'text/html' },
        {
          url: 'http://example.com/a',
          finalUrl: 'http://example.com/c',
          redirects: [
            { url: 'http://example.com/a', status: 301 },
            { url: 'http://example.com/b', status: 302 },
          ],
        },
      ),
    );
    expect(report.issues).toEqual([
      { code: 'TECH_HTTP_PAGE', title: 'No HTTPS', severity: 'WARNING', category: 'TECHNICAL' },
      { code: 'LINKS_REDIRECT_CHAIN', title: expect.any(String), severity: 'WARNING', category: 'LINKS' },
      { code: 'PERF_NO_COMPRESSION', title: 'Uncompressed response', severity: 'NOTICE', category: 'PERFORMANCE' },
      { code: 'TECH_NOINDEX', title: expect.any(String), severity: 'NOTICE', category: 'TECHNICAL' },
      { code: 'META_CHARSET_MISSING', title: expect.any(String), severity: 'NOTICE', category: 'META' },
    ]);
  });

  it('reports TECH_HSTS_MISSING only on https', () => {
    const overrides = { 'strict-transport-security': undefined };
    expect(codes(analyzeHeaders(input(overrides)))).toEqual(['TECH_HSTS_MISSING']);
    expect(codes(analyzeHeaders(input(overrides, { finalUrl: 'http://example.com/' })))).toEqual(['TECH_HTTP_PAGE']);
  });
});

describe('analyzeHeaders: header normalisation', () => {
  it('lower-cases names and merges case variants, keeping repeated values as arrays', () => {
    const report = analyzeHeaders({
      url: 'https://example.com/',
      finalUrl: 'https://example.com/',
      status: 200,
      httpVersion: '1.1',
      redirects: [],
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Set-Cookie': ['a=1', 'b=2'],
        'X-Robots-Tag': 'noindex',
        Link: '<https://example.com/>; rel="canonical"',
        skipped: undefined,
      },
    });
    expect(report.headers).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'set-cookie': ['a=1', 'b=2'],
      'x-robots-tag': 'noindex',
      link: '<https://example.com/>; rel="canonical"',
    });
    expect(checkOf(report, 'x-robots-tag').passed).toBe(false);
    expect(checkOf(report, 'content-type-charset').passed).toBe(true);
  });
});

describe('header directive parsers', () => {
  it.each([
    ['max-age=31536000', { valid: true, maxAge: 31536000, includeSubDomains: false, preload: false }],
    [
      ' max-age=10 ; INCLUDESUBDOMAINS ; preload ;',
      { valid: true, maxAge: 10, includeSubDomains: true, preload: true },
    ],
    ['max-age=10; unknown-directive=x', { valid: true, maxAge: 10 }],
    ['max-age=-1', { valid: false }],
    ['max-age=', { valid: false }],
    ['', { valid: false }],
    ['max-age=10, max-age=20', { valid: false }],
  ])('parseHsts(%j)', (value, expected) => {
    expect(parseHsts(value)).toMatchObject(expected);
  });

  it('parseCsp splits policies and keeps the first of a repeated directive', () => {
    const policies = parseCsp(["default-src 'self'; script-src a; script-src b, img-src *", "style-src 'none'"]);
    expect(policies).toHaveLength(3);
    expect(policies[0].get('script-src')).toEqual(['a']);
    expect(policies[1].get('img-src')).toEqual(['*']);
    expect(policies[2].get('style-src')).toEqual(["'none'"]);
  });

  it('parseCacheControl reads freshness and flags', () => {
    expect(parseCacheControl(['public, max-age="60"', 's-maxage=300, immutable, No-Store'])).toEqual({
      maxAge: 60,
      sMaxAge: 300,
      noStore: true,
      noCache: false,
      isPrivate: false,
      immutable: true,
    });
  });

  it.each([
    [['no-referrer'], 'no-referrer'],
    [['no-referrer, strict-origin-when-cross-origin'], 'strict-origin-when-cross-origin'],
    [['origin', 'bogus'], 'origin'],
    [['bogus'], null],
    [[], null],
  ])('effectiveReferrerPolicy(%j) = %s', (values, expected) => {
    expect(effectiveReferrerPolicy(values)).toBe(expected);
  });
});

describe('sharedResponseHeaders', () => {
  it('parses a shared record once, as parseResponseHeaders does', () => {
    const record = { 'Content-Type': 'image/PNG; x=1', 'cache-control': ['max-age=60', 'public'] };
    const first = sharedResponseHeaders(record);
    expect(sharedResponseHeaders(record)).toBe(first);
    const fresh = parseResponseHeaders(record);
    expect([...first.fields]).toEqual([...fresh.fields]);
    expect(first.mediaType).toBe('image/png');
    expect(first.values('Cache-Control')).toEqual(['max-age=60', 'public']);
    // Another record, even with the same content, is parsed on its own.
    expect(sharedResponseHeaders({ ...record })).not.toBe(first);
  });
});
