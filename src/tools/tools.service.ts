import { DomainError } from '../platform/errors.js';
import {
  REFUSED_TARGET_REASON,
  isSafeHttpError,
  type SafeHttpClient,
  type SafeHttpResponse,
} from '../platform/safe-http/index.js';
import { metaTagsReport, type MetaTagsReport } from '../seo/checks/index.js';
import { analyzeHeaders, type HeadersReport } from '../seo/headers/index.js';
import { extractPageFacts, firstHeader, type PageFacts } from '../seo/page/index.js';
import { analyzeRobotsTxt, type RobotsAnalysis } from '../seo/robots/index.js';
import { validateSitemap, type SitemapAnalysis, type SitemapIssue } from '../seo/sitemap/index.js';
import type { ChildSitemapType, SitemapReportType } from './tools.types.js';

export const TOOL_LIMITS = {
  htmlBytes: 5 * 1024 * 1024,
  robotsFetchBytes: 1024 * 1024,
  sitemapBytes: 52_428_800,
  testUrls: 100,
  childSitemaps: 5,
  urlLength: 2048,
} as const;

/** Placeholder base for pasted HTML without a URL (.invalid is reserved: it never resolves). */
const PASTED_HTML_BASE = 'https://pasted-document.invalid/';
const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;
/** Sitemap problems that mean "this is not a sitemap document at all": answered 400, not a report. */
const FATAL_SITEMAP_CODES = new Set([
  'EMPTY_INPUT',
  'NOT_XML',
  'BINARY_CONTENT',
  'UNSUPPORTED_ENCODING',
  'INVALID_UTF8',
  'GZIP_ERROR',
  'XML_SYNTAX',
]);

const bad = (path: string, message: string) => new DomainError('BAD_USER_INPUT', message, [{ path, message }]);

function requireHttpUrl(value: string, path = 'url'): URL {
  if (value.length > TOOL_LIMITS.urlLength)
    throw bad(path, `${path} must be at most ${TOOL_LIMITS.urlLength} characters`);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw bad(path, `${path} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(path, `${path} must use http or https`);
  // The robots tool rebuilds the URL from its origin, which drops user:password@: refuse them here, for every tool
  // alike.
  if (url.username || url.password) throw bad(path, `${path} must not contain credentials (user:password@)`);
  return url;
}

/** Fetch failures of a user-given URL, as a 400 the caller can act on. */
function fetchFailure(err: unknown, url: string): DomainError {
  if (!isSafeHttpError(err)) return bad('url', `Could not fetch ${url}.`);
  const reason: Record<string, string> = {
    INVALID_URL: 'is not a valid URL',
    UNSUPPORTED_SCHEME: 'must use http or https',
    BLOCKED_ADDRESS: REFUSED_TARGET_REASON,
    DNS_FAILURE: 'names a host that could not be resolved',
    TOO_MANY_REDIRECTS: 'redirects too many times (more than 5)',
    REDIRECT_LOOP: 'redirects in a loop',
    TIMEOUT: 'did not answer in time',
    BODY_TOO_LARGE: 'returned a document larger than the limit',
    CONNECTION_FAILED: 'could not be reached',
    BAD_RESPONSE: 'returned a malformed response',
  };
  return new DomainError('BAD_USER_INPUT', `The URL ${reason[err.code] ?? 'could not be fetched'}.`, [
    { path: 'url', message: err.code },
  ]);
}

function looksBinary(text: string): boolean {
  return text.includes('\u0000');
}

const lineMessage = (i: { line?: number | null; message: string }) => ({ line: i.line ?? null, message: i.message });

/** The four free tools. Every fetch goes through the safe HTTP client; analysis is the shared src/seo code. */
export class ToolsService {
  constructor(private readonly client: SafeHttpClient) {}

  private async get(url: URL, maxBytes: number): Promise<SafeHttpResponse> {
    try {
      return await this.client.request(url, { maxBytes, totalTimeoutMs: 20_000 });
    } catch (err) {
      throw fetchFailure(err, url.href);
    }
  }

  async metaTags(input: { url?: string | null; html?: string | null }): Promise<MetaTagsReport> {
    if (input.html != null) {
      if (looksBinary(input.html)) throw bad('html', 'html must be text, not binary content');
      if (Buffer.byteLength(input.html) > TOOL_LIMITS.htmlBytes) throw bad('html', 'html must be at most 5 MiB');
      const base = input.url ? requireHttpUrl(input.url).href : PASTED_HTML_BASE;
      return metaTagsReport(extractPageFacts(input.html, { url: base }));
    }
    if (!input.url) throw bad('url', 'Send { url } or { html }.');
    const url = requireHttpUrl(input.url);
    const response = await this.get(url, TOOL_LIMITS.htmlBytes);
    const contentType = firstHeader(response.headers, 'content-type') ?? '';
    if (!HTML_TYPES.test(contentType) || response.body.includes(0)) {
      throw bad(
        'url',
        `The URL did not return an HTML document (status ${response.status}, content-type ${contentType || 'none'}).`,
      );
    }
    const facts: PageFacts = extractPageFacts(response.body, {
      url: response.finalUrl,
      headers: response.headers,
      status: response.status,
    });
    return metaTagsReport(facts, {
      url: response.url,
      finalUrl: response.finalUrl,
      status: response.status,
      redirects: response.redirects,
      headers: response.headers,
      bytes: response.bytes,
      responseMs: response.timings.ttfbMs,
    });
  }

  async robots(input: {
    url?: string | null;
    content?: string | null;
    testUrls?: string[] | null;
    userAgent?: string | null;
  }): Promise<RobotsAnalysis> {
    const testUrls = input.testUrls ?? [];
    if (testUrls.length > TOOL_LIMITS.testUrls) throw bad('testUrls', `at most ${TOOL_LIMITS.testUrls} test URLs`);
    testUrls.forEach((u, i) => {
      if (!u || u.length > TOOL_LIMITS.urlLength)
        throw bad(`testUrls.${i}`, 'must be a URL or path of 1-2048 characters');
    });
    if (input.userAgent != null && (input.userAgent.length > 200 || !input.userAgent.trim()))
      throw bad('userAgent', 'userAgent must be 1-200 characters');
    const options = { testUrls, userAgent: input.userAgent ?? undefined };
    if (input.content != null) {
      if (looksBinary(input.content)) throw bad('content', 'content must be text, not binary');
      return analyzeRobotsTxt(input.content, { ...options, source: 'content' });
    }
    if (!input.url) throw bad('url', 'Send { url } or { content }.');
    const site = requireHttpUrl(input.url);
    const robotsUrl = site.pathname === '/robots.txt' ? new URL(site.href) : new URL('/robots.txt', site.origin);
    robotsUrl.hash = '';
    let response: SafeHttpResponse;
    try {
      response = await this.client.request(robotsUrl, {
        maxBytes: TOOL_LIMITS.robotsFetchBytes,
        onBodyLimit: 'truncate',
        totalTimeoutMs: 20_000,
      });
    } catch (err) {
      throw fetchFailure(err, robotsUrl.href);
    }
    if (response.status < 200 || response.status >= 300) {
      const meaning =
        response.status >= 500
          ? 'crawlers treat a 5xx as "disallow everything"'
          : 'crawlers treat a 4xx as "allow everything"';
      throw bad(
        'url',
        `${robotsUrl.href} answered ${response.status}: there is no robots.txt to validate (${meaning}).`,
      );
    }
    if (response.body.includes(0)) throw bad('url', 'robots.txt is binary content, not text');
    // Tests given as paths are resolved against the site.
    const resolved = testUrls.map((u) => (u.startsWith('/') ? new URL(u, robotsUrl.origin).href : u));
    return analyzeRobotsTxt(response.body, { ...options, testUrls: resolved, source: robotsUrl.href });
  }

  async headers(input: { url: string }): Promise<HeadersReport> {
    const url = requireHttpUrl(input.url);
    let response: SafeHttpResponse;
    try {
      response = await this.client.request(url, {
        maxBytes: 256 * 1024,
        onBodyLimit: 'truncate',
        totalTimeoutMs: 20_000,
      });
    } catch (err) {
      throw fetchFailure(err, url.href);
    }
    const contentType = firstHeader(response.headers, 'content-type') ?? '';
    // A charset declared inside the HTML counts too (META_CHARSET_MISSING is about the document, not only headers).
    const declared = HTML_TYPES.test(contentType)
      ? extractPageFacts(response.body, { url: response.finalUrl }).charset
      : null;
    const documentCharset = declared && declared.source !== 'header' ? declared.value : null;
    return analyzeHeaders({
      url: url.href,
      finalUrl: response.finalUrl,
      status: response.status,
      httpVersion: response.httpVersion,
      headers: response.headers,
      redirects: response.redirects,
      documentCharset,
      // The decoded size, as the crawler measures a page; a truncated body is large anyway.
      bodyBytes: response.truncated ? null : response.bytes,
    });
  }

  async sitemap(input: { url?: string | null; content?: string | null }): Promise<SitemapReportType> {
    if (input.content != null) return this.report(await validateSitemap(input.content), 'content', null);
    if (!input.url) throw bad('url', 'Send { url } or { content }.');
    const url = requireHttpUrl(input.url);
    const analysis = await this.fetchSitemap(url);
    const children = analysis.type === 'sitemapindex' ? await this.children(analysis.sitemaps ?? []) : null;
    return this.report(analysis, 'url', children);
  }

  private async fetchSitemap(url: URL): Promise<SitemapAnalysis> {
    let response;
    try {
      response = await this.client.request(url, {
        stream: true,
        maxBytes: TOOL_LIMITS.sitemapBytes,
        totalTimeoutMs: 60_000,
      });
    } catch (err) {
      throw fetchFailure(err, url.href);
    }
    if (response.status < 200 || response.status >= 300) {
      response.body.destroy();
      throw bad('url', `${url.href} answered ${response.status}.`);
    }
    try {
      return await validateSitemap(response.body, { baseUrl: response.finalUrl, maxBytes: TOOL_LIMITS.sitemapBytes });
    } catch (err) {
      throw fetchFailure(err, url.href);
    }
  }

  /** Child sitemaps of an index: the first few fetched and validated, the rest listed. */
  private async children(entries: { loc: string; lastmod: string | null }[]): Promise<ChildSitemapType[]> {
    return Promise.all(
      entries.map(async (entry, i): Promise<ChildSitemapType> => {
        const base = {
          loc: entry.loc,
          lastmod: entry.lastmod,
          valid: null,
          urlCount: null,
          errorCount: null,
          fetchError: null,
        };
        if (i >= TOOL_LIMITS.childSitemaps) return base;
        try {
          const analysis = await this.fetchSitemap(new URL(entry.loc));
          return { ...base, valid: analysis.valid, urlCount: analysis.urlCount, errorCount: analysis.errorCount };
        } catch (err) {
          return { ...base, fetchError: err instanceof Error ? err.message : 'could not be fetched' };
        }
      }),
    );
  }

  private report(
    analysis: SitemapAnalysis,
    path: 'url' | 'content',
    children: ChildSitemapType[] | null,
  ): SitemapReportType {
    const fatal = analysis.errors.find((e: SitemapIssue) => FATAL_SITEMAP_CODES.has(e.code));
    if (fatal) {
      const where = fatal.line ? ` at line ${fatal.line}` : '';
      throw new DomainError('BAD_USER_INPUT', `Not a valid XML sitemap${where}: ${fatal.message}`, [
        { path, message: fatal.code },
      ]);
    }
    return {
      valid: analysis.valid,
      type: analysis.type,
      urlCount: analysis.urlCount,
      sitemaps:
        analysis.type === 'sitemapindex'
          ? (children ??
            (analysis.sitemaps ?? []).map((s) => ({
              loc: s.loc,
              lastmod: s.lastmod,
              valid: null,
              urlCount: null,
              errorCount: null,
              fetchError: null,
            })))
          : null,
      errors: analysis.errors.map(lineMessage),
      warnings: analysis.warnings.map(lineMessage),
      sample: analysis.sample.map((e) => ({
        loc: e.loc,
        lastmod: e.lastmod,
        changefreq: e.changefreq,
        priority: e.priority,
      })),
    };
  }
}
