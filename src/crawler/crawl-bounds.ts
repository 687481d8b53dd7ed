import type { LinkTargetInfo } from '../seo/checks/index.js';
import type { CompiledCrawlScope } from './crawl-scope.js';
import type { SiteRobots } from './host-robots.js';

/**
 * What the crawl may request, in every role (page, resource, site file, a rendered page's subrequest): the site's
 * own URLs obey robots.txt (when the crawl does) and the scope's excludes; other hosts' URLs are single checks, as
 * links are, and their robots.txt is not read.
 */
export class CrawlBounds {
  constructor(
    private readonly scope: CompiledCrawlScope,
    private readonly robots: SiteRobots,
    private readonly respectRobots: boolean,
  ) {}

  /** The site's host (www-insensitive) over http(s), and its subdomains when the scope takes them in. */
  inSite(url: URL): boolean {
    return this.scope.inSite(url);
  }

  inSiteUrl(url: string): boolean {
    try {
      return this.scope.inSite(new URL(url));
    } catch {
      return false;
    }
  }

  /** A URL of the site that an exclude pattern of the scope matches (what is never fetched, in any role). */
  excludedByScope(url: URL): boolean {
    return this.scope.inSite(url) && !this.scope.notExcluded(url);
  }

  /**
   * Robots rules govern this site's URLs (other hosts' robots.txt are not fetched: link checks there are single
   * requests).
   */
  mayFetch(url: string): boolean {
    if (!this.respectRobots) return true;
    try {
      if (!this.scope.inSite(new URL(url))) return true;
    } catch {
      return false;
    }
    return this.robots.allowed(url);
  }

  /** Resource checks: other hosts' are checked as links are; the site's own obey robots.txt and the scope excludes. */
  resourceAllowed(url: string): boolean {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (!this.scope.inSite(parsed)) return true;
    if (this.excludedByScope(parsed)) return false;
    return !this.respectRobots || this.robots.allowed(url);
  }

  /** A rendered page's subrequest: the site's own URLs robots.txt disallows are not loaded. */
  renderAllowed(url: string): boolean {
    return !this.respectRobots || !this.inSiteUrl(url) || this.robots.allowed(url);
  }

  /** A rendered page's subrequest that the scope excludes is not fetched either. */
  renderExcluded(url: string): boolean {
    return URL.canParse(url) && this.excludedByScope(new URL(url));
  }

  /**
   * Subdomains (scope.includeSubdomains): a page of a host whose robots.txt was not read when it was queued waits
   * for it here; a disallowed one is reported as blocked and not fetched. True when the page may be fetched.
   */
  async pageAllowed(url: string, linkTargets: Map<string, LinkTargetInfo>): Promise<boolean> {
    if (!this.respectRobots || !this.scope.includeSubdomains) return true;
    const parsed = new URL(url);
    if (this.robots.onStartSite(parsed)) return true;
    const rules = this.robots.rulesFor(parsed) ?? (await this.robots.load(parsed));
    if (this.robots.allows(rules, url)) return true;
    linkTargets.set(url, { status: null, blockedByRobots: true });
    return false;
  }
}
