import type { SafeHttpClient, SafeHttpStreamResponse } from '../platform/safe-http/index.js';
import type { SitemapSiteInput } from '../seo/checks/index.js';
import { normalizeUrl } from '../seo/page/index.js';
import { validateSitemap, type SitemapAnalysis } from '../seo/sitemap/index.js';
import type { CompiledCrawlScope } from './crawl-scope.js';
import type { SiteRobots } from './host-robots.js';

const MAX_SITEMAP_FILES = 10;

/** What reading the sitemaps needs of the crawl, and where it puts the URLs they list. */
export interface SitemapReading {
  client: SafeHttpClient;
  signal: AbortSignal | undefined;
  scope: CompiledCrawlScope;
  robots: SiteRobots;
  /** Whether robots.txt (when obeyed) lets the crawl request a URL. */
  mayFetch(url: string): boolean;
  /** The site's URLs the sitemaps list (normalized, in scope), at most `limit`. */
  urls: Set<string>;
  limit: number;
  /** Those of `urls` robots.txt disallows (reported as blocked, never as orphans). */
  blocked: Set<string>;
}

/** Sitemaps declared in robots.txt (or /sitemap.xml), index children followed within a bound. */
export async function fetchSitemaps(
  reading: SitemapReading,
  origin: string,
  declared: readonly string[],
): Promise<Omit<SitemapSiteInput, 'urls'>> {
  const { client, signal } = reading;
  const defaultUrl = `${origin}/sitemap.xml`;
  const pending = declared.length ? [...declared] : [defaultUrl];
  const result: Omit<SitemapSiteInput, 'urls'> = { declared };
  let analysis: SitemapAnalysis | null = null;
  const counts = { otherHostUrls: 0 };
  let files = 0;
  while (pending.length && files < MAX_SITEMAP_FILES && !signal?.aborted) {
    const url = pending.shift()!;
    if (!reading.mayFetch(url)) continue;
    files++;
    let response: SafeHttpStreamResponse;
    try {
      response = await client.request(url, { stream: true, maxBytes: 52_428_800, totalTimeoutMs: 60_000, signal });
    } catch {
      if (url === defaultUrl) result.defaultStatus = null;
      continue;
    }
    if (url === defaultUrl) result.defaultStatus = response.status;
    if (response.status < 200 || response.status >= 300) {
      response.body.destroy();
      continue;
    }
    const found = await validateSitemap(response.body, {
      baseUrl: url,
      onUrl: (entry) => listUrl(reading, entry.loc, counts),
    }).catch(() => null);
    if (!found) continue;
    // Locs off the sitemap's own host are reported by the validator and never reach onUrl.
    counts.otherHostUrls += found.issueCounts.LOC_OTHER_HOST ?? 0;
    for (const child of found.sitemaps ?? []) if (pending.length + files < MAX_SITEMAP_FILES) pending.push(child.loc);
    if (!analysis || (analysis.type === 'sitemapindex' && found.type === 'urlset') || !found.valid) analysis = found;
  }
  if (analysis) {
    result.analysis = {
      valid: analysis.valid,
      urlCount: analysis.urlCount,
      sizeBytes: analysis.sizeBytes,
      otherHostUrls: counts.otherHostUrls,
      errors: analysis.errors.slice(0, 5).map((e) => (e.line ? `line ${e.line}: ${e.message}` : e.message)),
    };
  }
  return result;
}

/** A URL a sitemap lists: kept when it is the site's and in scope, within the limit. */
function listUrl(reading: SitemapReading, loc: string, counts: { otherHostUrls: number }): void {
  const { scope, robots } = reading;
  // Normalized as the crawl keys URLs (query parameters dropped as the scope says).
  const normalized = normalizeUrl(loc) && scope.normalize(loc);
  if (!normalized) return;
  try {
    const parsed = new URL(normalized);
    if (!scope.inSite(parsed)) {
      counts.otherHostUrls++;
      return;
    }
    // Outside the include/exclude patterns: neither crawled nor reported (as an orphan or as blocked).
    if (!scope.matches(parsed)) return;
  } catch {
    return;
  }
  if (reading.urls.size < reading.limit) {
    reading.urls.add(normalized);
    // Listed but disallowed: reported as blocked by robots.txt (and never as an orphan). When robots.txt
    // shuts out the whole site, the site-level issue says so.
    if (robots.policy === 'parse' && !robots.shutsWholeSite && !robots.allowed(normalized))
      reading.blocked.add(normalized);
  }
}
