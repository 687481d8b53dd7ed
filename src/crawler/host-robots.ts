import type { SafeHttpClient } from '../platform/safe-http/index.js';
import { isSafeHttpError } from '../platform/safe-http/index.js';
import type { PageFetch } from '../seo/checks/index.js';
import { siteKey } from '../seo/page/index.js';
import {
  blockedAiSearchBots,
  blocksAll,
  isAllowed,
  parseRobotsTxt,
  robotsPolicyForStatus,
  type RobotsTxt,
} from '../seo/robots/index.js';
import type { CrawlOptions, SiteFacts } from './crawl.types.js';

/** One host's robots.txt: how to read it (RFC 9309: parse, allow all or disallow all) and its rules when parsed. */
export interface HostRobots {
  policy: SiteFacts['robotsPolicy'];
  robots: RobotsTxt | null;
}

export function rulesAllow(rules: HostRobots, url: string, userAgent: string): boolean {
  if (rules.policy === 'allow-all') return true;
  if (rules.policy === 'disallow-all') return false;
  return rules.robots ? isAllowed(rules.robots, url, userAgent).allowed : true;
}

const ROBOTS_FETCH_BYTES = 512_000;

/**
 * robots.txt of a crawl: the start site's (www-insensitive), read before anything else, and, when the scope takes
 * in subdomains, each subdomain's, read once per origin when the crawl first meets it (robots.txt is per host:
 * RFC 9309 §2.3).
 */
export class SiteRobots {
  /** The start site's robots.txt (allow all until it is read, and when the crawl does not obey robots.txt). */
  private readonly site: HostRobots = { policy: 'allow-all', robots: null };
  /** Whether robots.txt shuts out the whole site: decided once, when it is read. */
  private shutsSite = false;
  /** Why robots.txt could not be fetched (a network-level failure), for the start failure's message. */
  private fetchError: unknown = null;
  private readonly hosts = new Map<string, HostRobots>();
  private readonly hostLoads = new Map<string, Promise<HostRobots>>();
  private readonly siteKey: string;

  constructor(
    private readonly client: SafeHttpClient,
    private readonly options: Pick<CrawlOptions, 'respectRobots' | 'userAgent'>,
    private readonly start: URL,
    /** Whether the crawl takes in the site's subdomains (each with its own robots.txt). */
    private readonly includeSubdomains: boolean,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.siteKey = siteKey(start.host);
  }

  /** How the start site's robots.txt is read (allow-all when the crawl does not obey it). */
  get policy(): SiteFacts['robotsPolicy'] {
    return this.site.policy;
  }

  /** With the whole site shut, per-link robots notices would only repeat the site-level issue. */
  get shutsWholeSite(): boolean {
    return this.shutsSite;
  }

  /** What made the start site's robots.txt unreachable, if it was. */
  get error(): unknown {
    return this.fetchError;
  }

  /** Reads the start site's robots.txt: what the site facts say of it. */
  async fetchSite(): Promise<SiteFacts['robots']> {
    try {
      const r = await this.client.request(`${this.start.origin}/robots.txt`, {
        maxBytes: ROBOTS_FETCH_BYTES + 1,
        onBodyLimit: 'truncate',
        totalTimeoutMs: 15_000,
        signal: this.signal,
      });
      this.site.policy = robotsPolicyForStatus(r.status);
      if (this.site.policy !== 'parse') return { status: r.status };
      const robots = parseRobotsTxt(r.body);
      this.site.robots = robots;
      return {
        status: r.status,
        blocksAll: blocksAll(robots, '*'),
        invalid: robots.errors.length > 0,
        errors: robots.errors.slice(0, 5).map((e) => `line ${e.line}: ${e.message}`),
        aiBlockedAgents: blockedAiSearchBots(robots),
        sitemaps: robots.sitemaps,
      };
    } catch (err) {
      this.site.policy = 'disallow-all';
      this.fetchError = err;
      return { status: null, timedOut: isSafeHttpError(err) && err.code === 'TIMEOUT' };
    } finally {
      if (!this.options.respectRobots) this.site.policy = 'allow-all';
      this.shutsSite =
        this.site.policy === 'disallow-all' || (this.site.policy === 'parse' && !this.allowed(`${this.start.origin}/`));
    }
  }

  /** robots.txt rules of a URL's host: the start site's (www-insensitive), a subdomain's once read, else null. */
  rulesFor(url: URL): HostRobots | null {
    if (siteKey(url.host) === this.siteKey) return this.site;
    return this.hosts.get(url.origin) ?? null;
  }

  /** The start site's rules; with subdomains, the rules of the URL's host (null until read: a read starts). */
  private rulesOf(url: string): HostRobots | null {
    if (!this.includeSubdomains) return this.site;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    const rules = this.rulesFor(parsed);
    if (rules === null && this.options.respectRobots) void this.load(parsed);
    return rules;
  }

  /** robots.txt's verdict on a URL of the site; a subdomain whose robots.txt is not read yet: not allowed yet. */
  allowed(url: string): boolean {
    const rules = this.rulesOf(url);
    return rules !== null && rulesAllow(rules, url, this.options.userAgent);
  }

  /** Whether these rules allow the URL to the crawler's user agent. */
  allows(rules: HostRobots, url: string): boolean {
    return rulesAllow(rules, url, this.options.userAgent);
  }

  /** What robots.txt says of a URL, whether or not the crawl obeys it (the page view shows it). */
  verdict(url: string): NonNullable<PageFetch['robotsTxt']> {
    const rules = this.rulesOf(url);
    if (!rules) return 'no-rules';
    if (rules.robots) return isAllowed(rules.robots, url, this.options.userAgent).allowed ? 'allowed' : 'disallowed';
    return rules.policy === 'disallow-all' ? 'disallowed' : 'no-rules';
  }

  /** Whether a URL is on the start site (www-insensitive), not on one of its subdomains. */
  onStartSite(url: URL): boolean {
    return siteKey(url.host) === this.siteKey;
  }

  /** A subdomain's robots.txt, fetched once per origin (robots.txt is per host: RFC 9309 §2.3). */
  load(url: URL): Promise<HostRobots> {
    const origin = url.origin;
    let load = this.hostLoads.get(origin);
    if (!load) {
      load = this.fetchHost(origin).then((rules) => {
        this.hosts.set(origin, rules);
        return rules;
      });
      this.hostLoads.set(origin, load);
    }
    return load;
  }

  private async fetchHost(origin: string): Promise<HostRobots> {
    if (!this.options.respectRobots) return { policy: 'allow-all', robots: null };
    try {
      const r = await this.client.request(`${origin}/robots.txt`, {
        maxBytes: ROBOTS_FETCH_BYTES + 1,
        onBodyLimit: 'truncate',
        totalTimeoutMs: 15_000,
        signal: this.signal,
      });
      const policy = robotsPolicyForStatus(r.status);
      return { policy, robots: policy === 'parse' ? parseRobotsTxt(r.body) : null };
    } catch {
      // RFC 9309 §2.3.1.4: an unreachable robots.txt disallows the whole host.
      return { policy: 'disallow-all', robots: null };
    }
  }
}
