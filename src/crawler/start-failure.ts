import { STATUS_CODES } from 'node:http';
import { describeFetchFailure, isSafeHttpError } from '../platform/safe-http/index.js';
import type { PageFetch } from '../seo/checks/index.js';
import type { PageFacts } from '../seo/page/index.js';
import type { CrawlOptions, SiteFacts, StartFailure } from './crawl.types.js';
import type { CompiledCrawlScope } from './crawl-scope.js';
import type { SiteRobots } from './host-robots.js';
import { firstHeader } from './page-receive.js';

/** Why the start URL may not be crawled once robots.txt is read, or null when it may. */
export function startUrlFailure(
  start: URL,
  scope: CompiledCrawlScope,
  robots: SiteRobots,
  robotsStatus: number | null,
  options: Pick<CrawlOptions, 'respectRobots' | 'userAgent'>,
): StartFailure | null {
  // RFC 9309: a start URL robots.txt disallows (or a robots.txt that is unreachable) is not fetched, nor is anything
  // else.
  // In list mode the start URL is not audited: only a robots.txt that shuts out the whole site stops the crawl.
  const startDisallowed = scope.list ? robots.policy === 'disallow-all' : !robots.allowed(start.href);
  if (options.respectRobots && startDisallowed) {
    const { policy, error } = robots;
    return robotsStartFailure(start, { status: robotsStatus, policy, error }, options.userAgent);
  }
  // The scope never makes a URL fetchable: a start URL outside its own scope is not fetched at all.
  if (!scope.list && !scope.inScope(start))
    return {
      url: start.href,
      reason: 'scope',
      message: `${start.href} is outside the crawl scope (the project's include and exclude patterns)`,
    };
  return null;
}

/** List mode with nothing to crawl: the listed URLs (or the sitemap's) are all out of scope or disallowed. */
export function emptyListFailure(start: URL, source: 'urls' | 'sitemap'): StartFailure {
  const what = source === 'urls' ? 'none of the listed URLs' : `no URL of the sitemap of ${start.origin}`;
  return {
    url: start.href,
    reason: 'scope',
    message: `List mode: ${what} may be crawled (outside the crawl scope, or disallowed by robots.txt)`,
  };
}

/** The start URL is disallowed: why, naming robots.txt's status or the failure that made it unreachable. */
function robotsStartFailure(
  start: URL,
  robots: { status: number | null; policy: SiteFacts['robotsPolicy']; error: unknown },
  userAgent: string,
): StartFailure {
  const url = start.href;
  const robotsUrl = `${start.origin}/robots.txt`;
  const unreachable = `an unreachable robots.txt disallows the whole site (RFC 9309), so ${url} was not crawled`;
  let message: string;
  if (robots.status === null) {
    const err = robots.error;
    // The host itself cannot be reached (refused, unresolvable, refused address): name the start URL, as its fetch
    // would fail alike.
    const hostLevel =
      isSafeHttpError(err) &&
      !err.redirects.length &&
      ['CONNECTION_FAILED', 'DNS_FAILURE', 'BLOCKED_ADDRESS'].includes(err.code);
    message = hostLevel ? describeFetchFailure(url, err) : `${describeFetchFailure(robotsUrl, err)}; ${unreachable}`;
    return { url, reason: hostLevel ? 'fetch' : 'robots', message };
  }
  if (robots.policy === 'disallow-all')
    message = `robots.txt of ${start.origin} answered HTTP ${robots.status}; ${unreachable}`;
  else {
    message =
      `robots.txt of ${start.origin} disallows ${url} for the crawler's user agent ` +
      `(${userAgent}), so nothing was crawled. ` +
      `Allow it in robots.txt, or turn off "respect robots.txt" in the project's settings.`;
  }
  return { url, reason: 'robots', message };
}

/** Why the fetched start page cannot be audited, or null when it can. */
export function startPageFailure(
  start: URL,
  page: { fetch: PageFetch; facts: PageFacts | null; error: string | null },
  /** What the start URL's fetch threw, if it did. */
  startError: unknown,
): StartFailure | null {
  const url = start.href;
  const { fetch } = page;
  if (page.error !== null)
    return { url, reason: 'fetch', message: describeFetchFailure(url, startError ?? new Error(page.error)) };
  const where = fetch.finalUrl !== fetch.url ? `${url} (redirected to ${fetch.finalUrl})` : url;
  if (fetch.status >= 400 || fetch.status < 200) {
    const text = STATUS_CODES[fetch.status];
    return { url, reason: 'status', message: `${where} answered HTTP ${fetch.status}${text ? ` (${text})` : ''}` };
  }
  if (!page.facts) {
    const type = firstHeader(fetch.headers, 'content-type');
    return {
      url,
      reason: 'not-html',
      message: `${where} is not an HTML page (HTTP ${fetch.status}, content-type ${type ?? 'none'})`,
    };
  }
  return null;
}
