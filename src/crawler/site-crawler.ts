import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SafeHttpClient, SafeHttpStreamResponse } from '../platform/safe-http/index.js';
import { describeFetchFailure, isSafeHttpError } from '../platform/safe-http/index.js';
import type { LinkTargetInfo, PageFetch, PageResource, SitemapSiteInput } from '../seo/checks/index.js';
import {
  UrlTable,
  isHtmlContentType,
  normalizeUrl,
  siteKey,
  type HeaderMap,
  type PageFacts,
} from '../seo/page/index.js';
import { extractInline, type PageFactsExtract } from './page-facts-pool.js';
import type { PageRenderer, RenderOutput } from './browser/index.js';
import {
  blockedAiSearchBots,
  blocksAll,
  isAllowed,
  parseRobotsTxt,
  robotsPolicyForStatus,
  type RobotsTxt,
} from '../seo/robots/index.js';
import { validateSitemap, type SitemapAnalysis } from '../seo/sitemap/index.js';
import type { CrawlHooks, CrawlOptions, SiteFacts, StartFailure } from './crawl.types.js';
import { PriorityPermits, ResourceChecker, type ResourceCheck } from './resource-checker.js';
import { compileCrawlScope, type CompiledCrawlScope } from './crawl-scope.js';
import { SeenUrls } from './seen-urls.js';

interface QueueItem {
  url: string;
  depth: number;
  /** Place in the crawl order: wave after wave, each wave in the order its URLs were first linked. */
  seq: number;
}

/** Where a URL was first linked (the linking page's seq, then the link's position on it): its place in its wave. */
interface LinkOrigin {
  parent: number;
  index: number;
}

const before = (a: LinkOrigin, b: LinkOrigin) => a.parent < b.parent || (a.parent === b.parent && a.index < b.index);

/** A URL of the next wave: its depth and where it was first linked (its LinkOrigin, inline). */
interface WaveEntry extends LinkOrigin {
  url: string;
  depth: number;
}

/**
 * The wave being crawled, in crawl order: its URLs (the crawl's URL table's strings) and depths side by side, a
 * QueueItem made only for the URL handed out. Each URL's seq is the wave's first seq plus its place.
 */
class Wave {
  private readonly urls: string[];
  private readonly depths: Int32Array;
  private head = 0;

  constructor(
    items: readonly { url: string; depth: number }[],
    private readonly firstSeq: number,
  ) {
    this.urls = items.map((item) => item.url);
    this.depths = Int32Array.from(items, (item) => item.depth);
  }

  get size(): number {
    return this.urls.length;
  }

  /** URLs not handed out yet. */
  get left(): number {
    return this.urls.length - this.head;
  }

  /** The seq of the next URL to hand out (past the wave's last at its end). */
  get nextSeq(): number {
    return this.firstSeq + this.head;
  }

  /** The next URL of the wave, or null at its end. */
  shift(): QueueItem | null {
    if (this.head >= this.urls.length) return null;
    const at = this.head++;
    return { url: this.urls[at], depth: this.depths[at], seq: this.firstSeq + at };
  }
}

const MAX_SITEMAP_FILES = 10;

/** One host's robots.txt: how to read it (RFC 9309: parse, allow all or disallow all) and its rules when parsed. */
interface HostRobots {
  policy: SiteFacts['robotsPolicy'];
  robots: RobotsTxt | null;
}

function rulesAllow(rules: HostRobots, url: string, userAgent: string): boolean {
  if (rules.policy === 'allow-all') return true;
  if (rules.policy === 'disallow-all') return false;
  return rules.robots ? isAllowed(rules.robots, url, userAgent).allowed : true;
}
const ROBOTS_FETCH_BYTES = 512_000;
/** Images per page whose size and caching headers the page checks wait for (the rest are checked beside the crawl). */
const ASSETS_PER_PAGE = 5;

const firstHeader = (headers: HeaderMap, name: string): string | null => {
  const v = headers[name];
  return v === undefined ? null : Array.isArray(v) ? (v[0] ?? null) : v;
};

/**
 * Breadth-first crawl of one site (its host, www-insensitive), through the safe HTTP client.
 * robots.txt per RFC 9309, sitemap seeding, bounded concurrency and pacing; each page is parsed in one
 * streaming pass and handed to the consumer, then dropped — memory holds URLs, not documents.
 */
export class SiteCrawler {
  /**
   * The crawl goes in waves (breadth-first levels): a wave's pages are fetched concurrently, the URLs they link to
   * form the next wave, which starts once the current one is done, sorted by where each URL was first linked. So a
   * page's depth is its true click distance, and which pages are crawled (and in which order) does not depend on
   * response timing: the same site gives the same facts, and the same scores, on every run (CLI or worker).
   */
  private queue = new Wave([], 0);
  private readonly nextWave = new Map<string, WaveEntry>();
  private seqs = 0;
  /** Normalized URLs met so far -> true once a fetch of the URL is scheduled (queued or done). */
  private readonly seen: SeenUrls;
  private readonly sitemapUrls = new Set<string>();
  private readonly linkTargets = new Map<string, LinkTargetInfo>();
  /**
   * External link targets to check, the externalLinkBudget first-linked ones (crawl order), not the first to arrive.
   */
  private readonly externalCandidates = new Map<string, LinkOrigin>();
  /** The seqs of the pages being fetched and handed over. */
  private readonly pagesInFlight = new Set<number>();
  /** Subresources and external links: HEAD (GET fallback), once per URL, bounded, beside the page fetches. */
  private readonly resourceChecker: ResourceChecker;
  /** Ends the external link checks still running `externalTailMs` after the last page. */
  private readonly externalStop = new AbortController();
  private readonly sitemapBlocked = new Set<string>();
  private robots: RobotsTxt | null = null;
  private robotsPolicy: SiteFacts['robotsPolicy'] = 'allow-all';
  private robotsShutsSite = false;
  /** Why robots.txt could not be fetched (a network-level failure), for the start failure's message. */
  private robotsError: unknown = null;
  /** What the start URL's fetch threw, if it did. */
  private startError: unknown = null;
  private startFailure: StartFailure | null = null;
  private readonly site: string;
  /** Include/exclude patterns, subdomains, list mode and query-parameter handling (crawl-scope.ts). */
  private readonly scope: CompiledCrawlScope;
  /** robots.txt of the site's subdomains (scope.includeSubdomains), per origin: robots.txt is per host. */
  private readonly hostRobots = new Map<string, HostRobots>();
  private readonly hostRobotsLoads = new Map<string, Promise<HostRobots>>();
  /** List mode's link-target checks waiting for their host's robots.txt (the end of the crawl waits for them). */
  private readonly pendingTargetChecks: Promise<unknown>[] = [];
  private readonly start: URL;
  private crawled = 0;
  private inflight = 0;
  /** Pages in flight already counted as crawled: handed to the consumer (onPage), not yet done. */
  private handingOver = 0;
  private stopped = false;
  private truncated = false;
  private nextSlot = 0;
  private waiters: (() => void)[] = [];
  /**
   * Requests in flight against the site: at most options.concurrency (politeness), resource checks of the site's
   * own URLs included; page fetches (and what a page waits for) go before background resource checks.
   */
  private readonly permits: PriorityPermits;
  private startFacts: Pick<
    SiteFacts,
    'startStatus' | 'https' | 'hstsHeader' | 'httpVersion' | 'compression' | 'startTtfbMs' | 'startResponse'
  > = {
    startStatus: null,
    https: false,
    hstsHeader: null,
    httpVersion: null,
    compression: null,
    startTtfbMs: null,
  };

  constructor(
    private readonly client: SafeHttpClient,
    private readonly options: CrawlOptions,
    private readonly extract: PageFactsExtract = extractInline,
    /** Browser rendering mode (options.rendering 'browser'): renders each analysed page; required in that mode. */
    private readonly renderer?: PageRenderer,
    /** Where the URLs the crawl meets are kept (one string per URL): the audit's page summaries share it. */
    urls: UrlTable = new UrlTable(),
  ) {
    this.seen = new SeenUrls(urls);
    if (options.rendering === 'browser' && !renderer)
      throw new Error('browser rendering mode needs a page renderer (RENDER_CHROMIUM_PATH or CHROMIUM_PATH)');
    this.start = new URL(options.startUrl);
    this.site = siteKey(this.start.host);
    this.scope = compileCrawlScope(options.startUrl, options.scope);
    this.permits = new PriorityPermits(Math.max(1, options.concurrency));
    this.signal = options.signal;
    this.resourceChecker = new ResourceChecker(client, {
      budget: options.assetBudget,
      // Other hosts answer in their own time (100s of ms each for external links): many of them are asked side by
      // side, each no harder than a browser asks a host (or the crawl its own site, if that is more).
      concurrency: OTHER_HOST_LANES,
      perOrigin: Math.max(OTHER_HOST_PER_ORIGIN, options.concurrency),
      signal: options.signal,
      // Resources of the site itself obey its robots.txt like its pages, and the scope's excludes; other hosts' are
      // checked as links are.
      allowed: (url) => this.resourceAllowed(url),
      siteSlots: {
        owns: (url) => this.inSiteUrl(url),
        acquire: (urgent) => this.permits.acquire(urgent),
        release: () => this.permits.release(),
      },
    });
  }

  /** The caller's stop signal (cancellation, shutdown); every request carries it. */
  private readonly signal: AbortSignal | undefined;

  private get aborted(): boolean {
    return this.signal?.aborted === true;
  }

  /** Stopped by the caller, or the start URL failed: either way nothing more is fetched. */
  private get halted(): boolean {
    return this.aborted || this.startFailure !== null;
  }

  async run(hooks: CrawlHooks): Promise<SiteFacts> {
    // An abort wakes the workers waiting for work, so that they see it and end.
    const wake = () => {
      this.stopped = true;
      this.notify();
    };
    this.signal?.addEventListener('abort', wake, { once: true });
    try {
      return await this.crawl(hooks);
    } finally {
      this.signal?.removeEventListener('abort', wake);
    }
  }

  private async crawl(hooks: CrawlHooks): Promise<SiteFacts> {
    const origin = this.start.origin;
    const robots = await this.fetchRobots(`${origin}/robots.txt`);
    // RFC 9309: a start URL robots.txt disallows (or a robots.txt that is unreachable) is not fetched, nor is anything
    // else.
    // In list mode the start URL is not audited: only a robots.txt that shuts out the whole site stops the crawl.
    const startDisallowed = this.scope.list
      ? this.robotsPolicy === 'disallow-all'
      : !this.allowedByRobots(this.start.href);
    if (!this.aborted && this.options.respectRobots && startDisallowed)
      this.startFailure = this.robotsFailure(robots.status);
    // The scope never makes a URL fetchable: a start URL outside its own scope is not fetched at all.
    if (!this.halted && !this.scope.list && !this.scope.inScope(this.start))
      this.startFailure = {
        url: this.start.href,
        reason: 'scope',
        message: `${this.start.href} is outside the crawl scope (the project's include and exclude patterns)`,
      };
    const sitemap = this.halted
      ? { declared: robots.sitemaps ?? [] }
      : await this.fetchSitemaps(origin, robots.sitemaps ?? []);

    if (!this.halted) this.startWave(this.seeds());
    if (!this.halted) {
      // More pages in progress than requests allowed in flight: while some pages are parsed and checked, the
      // site's request slots stay busy. Each page holds a slot only while its response is being received.
      await Promise.all(
        Array.from({ length: PAGES_PER_REQUEST_SLOT * Math.max(1, this.options.concurrency) }, () =>
          this.worker(hooks),
        ),
      );
    }

    if (!this.halted)
      hooks.onPagesDone?.({
        startUrl: this.start.href,
        startStatus: this.startFacts.startStatus,
        startTtfbMs: this.startFacts.startTtfbMs,
      });
    // Site-level fetches only for a crawl that ran to its end: a stopped one (or a failed start) sends nothing more.
    const [favicon, llmsTxt] = this.halted
      ? [null, null]
      : await Promise.all([this.statusOf(`${origin}/favicon.ico`), this.statusOf(`${origin}/llms.txt`)]);
    // List mode's link-target checks that waited for a subdomain's robots.txt are started before the drain.
    if (!this.halted) await Promise.all(this.pendingTargetChecks);
    if (!this.halted)
      await Promise.all([
        this.checkExternalLinks(),
        this.resourceChecker.drain(this.options.resourceTailMs ?? RESOURCE_TAIL_MS),
      ]);
    if (!this.halted) this.recordResourceChecks();
    return {
      startUrl: this.start.href,
      ...this.startFacts,
      robots,
      robotsPolicy: this.robotsPolicy,
      sitemap: { ...sitemap, urls: [...this.sitemapUrls], blockedByRobots: [...this.sitemapBlocked] },
      favicon: { status: favicon },
      llmsTxt: { status: llmsTxt },
      linkTargets: this.linkTargets,
      crawlTruncated: this.truncated,
      ...(this.scope.list && { listMode: true }),
      pagesCrawled: this.crawled,
      pagesDiscovered: this.crawled + this.pagesLeft(),
      startFailure: this.startFailure,
      aborted: this.aborted,
      resourceRequests: this.resourceChecker.requests,
    };
  }

  /** The start URL is disallowed: why, naming robots.txt's status or the failure that made it unreachable. */
  private robotsFailure(status: number | null): StartFailure {
    const url = this.start.href;
    const robotsUrl = `${this.start.origin}/robots.txt`;
    const unreachable = `an unreachable robots.txt disallows the whole site (RFC 9309), so ${url} was not crawled`;
    let message: string;
    if (status === null) {
      const err = this.robotsError;
      // The host itself cannot be reached (refused, unresolvable, refused address): name the start URL, as its fetch
      // would fail alike.
      const hostLevel =
        isSafeHttpError(err) &&
        !err.redirects.length &&
        ['CONNECTION_FAILED', 'DNS_FAILURE', 'BLOCKED_ADDRESS'].includes(err.code);
      message = hostLevel ? describeFetchFailure(url, err) : `${describeFetchFailure(robotsUrl, err)}; ${unreachable}`;
      return { url, reason: hostLevel ? 'fetch' : 'robots', message };
    }
    if (this.robotsPolicy === 'disallow-all')
      message = `robots.txt of ${this.start.origin} answered HTTP ${status}; ${unreachable}`;
    else {
      message =
        `robots.txt of ${this.start.origin} disallows ${url} for the crawler's user agent ` +
        `(${this.options.userAgent}), so nothing was crawled. ` +
        `Allow it in robots.txt, or turn off "respect robots.txt" in the project's settings.`;
    }
    return { url, reason: 'robots', message };
  }

  /** Why the fetched start page cannot be audited, or null when it can. */
  private startPageFailure(page: {
    fetch: PageFetch;
    facts: PageFacts | null;
    error: string | null;
  }): StartFailure | null {
    const url = this.start.href;
    const { fetch } = page;
    if (page.error !== null)
      return { url, reason: 'fetch', message: describeFetchFailure(url, this.startError ?? new Error(page.error)) };
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

  /** The site's host (www-insensitive) over http(s), and its subdomains when the scope takes them in. */
  private inSite(url: URL): boolean {
    return this.scope.inSite(url);
  }

  /** Resource checks: other hosts' are checked as links are; the site's own obey robots.txt and the scope excludes. */
  private resourceAllowed(url: string): boolean {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (!this.inSite(parsed)) return true;
    if (this.excludedByScope(parsed)) return false;
    return !this.options.respectRobots || this.allowedByRobots(url);
  }

  /** A URL of the site that an exclude pattern of the scope matches (what is never fetched, in any role). */
  private excludedByScope(url: URL): boolean {
    return this.inSite(url) && !this.scope.notExcluded(url);
  }

  /**
   * The first wave: the start URL; in list mode the listed URLs (or the sitemap's) in scope, each at depth 0. An
   * empty list fails the crawl as a start failure would.
   */
  private seeds(): { url: string; depth: number }[] {
    const list = this.scope.list;
    if (!list) {
      this.seen.set(this.start.href, true);
      return [{ url: this.start.href, depth: 0 }];
    }
    const wave: { url: string; depth: number }[] = [];
    for (const url of list.source === 'urls' ? list.urls : this.sitemapUrls) {
      if (this.seen.has(url)) continue;
      const parsed = new URL(url);
      // Outside the scope: not fetched (the settings refuse such a listed URL; a sitemap may list some).
      if (!this.scope.inScope(parsed)) continue;
      const rules = this.robotsRulesFor(parsed);
      if (this.options.respectRobots && rules !== null && !rulesAllow(rules, url, this.options.userAgent)) {
        this.seen.set(url, false);
        // A sitemap URL robots.txt disallows is already reported as such (TECH_SITEMAP_BLOCKED_BY_ROBOTS).
        if (list.source === 'urls' && !this.robotsShutsSite)
          this.linkTargets.set(url, { status: null, blockedByRobots: true });
        continue;
      }
      this.seen.set(url, true);
      wave.push({ url, depth: 0 });
    }
    if (!wave.length) {
      const what = list.source === 'urls' ? 'none of the listed URLs' : `no URL of the sitemap of ${this.start.origin}`;
      this.startFailure = {
        url: this.start.href,
        reason: 'scope',
        message: `List mode: ${what} may be crawled (outside the crawl scope, or disallowed by robots.txt)`,
      };
    }
    return wave;
  }

  /** List mode: a link of the site is checked (HEAD, GET when refused) as a link target, and not followed. */
  private checkListTarget(url: string, parsed: URL): void {
    if (!this.options.respectRobots) return void this.resourceChecker.check(url);
    const rules = this.robotsRulesFor(parsed);
    if (rules === null) {
      // A subdomain whose robots.txt is not read yet: checked once it is (the end of the crawl waits for that).
      this.pendingTargetChecks.push(this.loadHostRobots(parsed).then(() => this.checkListTarget(url, parsed)));
      return;
    }
    if (rulesAllow(rules, url, this.options.userAgent)) return void this.resourceChecker.check(url);
    if (!(this.robotsShutsSite && siteKey(parsed.host) === this.site))
      this.linkTargets.set(url, { status: null, blockedByRobots: true });
  }

  /**
   * Subdomains (scope.includeSubdomains): a page of a host whose robots.txt was not read when it was queued waits
   * for it here; a disallowed one is reported as blocked and not fetched. True when the page may be fetched.
   */
  private async robotsAllowFetch(item: QueueItem): Promise<boolean> {
    if (!this.options.respectRobots || !this.scope.includeSubdomains) return true;
    const parsed = new URL(item.url);
    if (siteKey(parsed.host) === this.site) return true;
    const rules = this.robotsRulesFor(parsed) ?? (await this.loadHostRobots(parsed));
    if (rulesAllow(rules, item.url, this.options.userAgent)) return true;
    this.linkTargets.set(item.url, { status: null, blockedByRobots: true });
    return false;
  }

  /** robots.txt rules of a URL's host: the start site's (www-insensitive), a subdomain's once read, else null. */
  private robotsRulesFor(url: URL): HostRobots | null {
    if (siteKey(url.host) === this.site) return { policy: this.robotsPolicy, robots: this.robots };
    return this.hostRobots.get(url.origin) ?? null;
  }

  /** A subdomain's robots.txt, fetched once per origin (robots.txt is per host: RFC 9309 §2.3). */
  private loadHostRobots(url: URL): Promise<HostRobots> {
    const origin = url.origin;
    let load = this.hostRobotsLoads.get(origin);
    if (!load) {
      load = this.fetchHostRobots(origin).then((rules) => {
        this.hostRobots.set(origin, rules);
        return rules;
      });
      this.hostRobotsLoads.set(origin, load);
    }
    return load;
  }

  private async fetchHostRobots(origin: string): Promise<HostRobots> {
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

  /**
   * The client a rendered page's own requests go through: the crawl's (its credential rules included), under the
   * crawl's politeness for the site's own URLs: each holds one of the site's request slots and is paced by delayMs,
   * as a page fetch is, so rendering never has more requests at once in flight against the site than the crawl's
   * concurrency. Requests to other hosts go straight through. (A render holds no slot itself: it starts once its
   * document's body is in.)
   */
  private readonly renderClient: SafeHttpClient = {
    request: ((url: string | URL, options?: Parameters<SafeHttpClient['request']>[1]) =>
      this.inSiteUrl(String(url))
        ? this.inSiteSlot(() => this.client.request(url, options))
        : this.client.request(url, options)) as SafeHttpClient['request'],
    // The crawl's client belongs to the caller: it is closed where it was made.
    close: () => Promise.resolve(),
  };

  private inSiteUrl(url: string): boolean {
    try {
      return this.inSite(new URL(url));
    } catch {
      return false;
    }
  }

  /** What the resource checks found, for the site pass (pages and link targets already known keep their own entry). */
  private recordResourceChecks(): void {
    for (const [url, check] of this.resourceChecker.results()) {
      if (check.skipped || this.linkTargets.has(url)) continue;
      const info: LinkTargetInfo = { status: check.status, redirected: check.redirected };
      if (check.failure !== undefined) info.failure = check.failure;
      if (check.blockedAddress) info.blockedAddress = true;
      this.linkTargets.set(url, info);
    }
  }

  private enqueue(raw: string, depth: number, from: LinkOrigin): void {
    // Known keys are normalized hrefs, so a string equal to one is that URL: most links of a site point at
    // pages already seen, and page links arrive normalized. Anything else is parsed once: the URL parser
    // lower-cases the host and drops default ports.
    if (this.seen.has(raw)) return this.relink(raw, from);
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      return;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return;
    // No fragment, and query parameters dropped as the scope says: URLs that differ only there are one page.
    const url = this.scope.normalizeParsed(parsed);
    if (this.seen.has(url)) return this.relink(url, from);
    if (!this.inSite(parsed)) return;
    // Outside the include/exclude patterns: never fetched, and so never reported (as broken, blocked or orphan).
    if (!this.scope.matches(parsed)) return void this.seen.set(url, false);
    // List mode: links are checked as link targets, not followed.
    if (this.scope.list) {
      this.seen.set(url, false);
      return this.checkListTarget(url, parsed);
    }
    // Too deep from here is not "seen": a shallower link found later may still queue it.
    if (depth > this.options.maxDepth) return;
    this.seen.set(url, false);
    // A subdomain whose robots.txt is not read yet is queued; the worker reads it before the fetch (robotsAllowFetch).
    const rules = this.robotsRulesFor(parsed);
    if (rules === null && this.options.respectRobots) void this.loadHostRobots(parsed);
    if (this.options.respectRobots && rules !== null && !rulesAllow(rules, url, this.options.userAgent)) {
      // When robots.txt shuts out the whole site, the site-level issue says so; per-link notices would be noise.
      if (!this.robotsShutsSite) this.linkTargets.set(url, { status: null, blockedByRobots: true });
      return;
    }
    this.seen.set(url, true);
    this.nextWave.set(url, { url, depth, parent: from.parent, index: from.index });
  }

  /** URLs found and not fetched: queued, in the next wave, or listed in the sitemap and not reached yet. */
  private pagesLeft(): number {
    let left = this.queue.left + this.nextWave.size;
    // List mode audits the list only: the sitemap's other URLs are not left to crawl.
    if (!this.scope.list)
      for (const url of this.sitemapUrls)
        if (!this.seen.has(url) && (!this.options.respectRobots || this.allowedByRobots(url))) left++;
    return left;
  }

  /** A URL of the next wave linked again: it takes the earliest place it is linked from. */
  private relink(url: string, from: LinkOrigin): void {
    const pending = this.nextWave.get(url);
    if (pending && before(from, pending)) {
      pending.parent = from.parent;
      pending.index = from.index;
    }
  }

  private startWave(items: { url: string; depth: number }[]): void {
    this.queue = new Wave(items, this.seqs);
    this.seqs += this.queue.size;
    this.notify();
  }

  private addExternalCandidate(url: string, from: LinkOrigin): void {
    const known = this.externalCandidates.get(url);
    if (known) {
      if (before(from, known)) this.externalCandidates.set(url, from);
      return;
    }
    const budget = this.options.externalLinkBudget;
    if (budget <= 0) return;
    if (this.externalCandidates.size >= budget) {
      // Keep the budget's earliest-linked targets: drop the latest one if the new target comes before it.
      let latest: [string, LinkOrigin] | null = null;
      for (const entry of this.externalCandidates) if (!latest || before(latest[1], entry[1])) latest = entry;
      if (!latest || !before(from, latest[1])) return;
      this.externalCandidates.delete(latest[0]);
    }
    this.externalCandidates.set(url, from);
  }

  /** What robots.txt says of a URL, whether or not the crawl obeys it (the page view shows it). */
  private robotsVerdict(url: string): NonNullable<PageFetch['robotsTxt']> {
    const rules = this.robotsRulesOf(url);
    if (!rules) return 'no-rules';
    if (rules.robots) return isAllowed(rules.robots, url, this.options.userAgent).allowed ? 'allowed' : 'disallowed';
    return rules.policy === 'disallow-all' ? 'disallowed' : 'no-rules';
  }

  /** robots.txt's verdict on a URL of the site; a subdomain whose robots.txt is not read yet: not allowed yet. */
  private allowedByRobots(url: string): boolean {
    const rules = this.robotsRulesOf(url);
    return rules !== null && rulesAllow(rules, url, this.options.userAgent);
  }

  /** The start site's rules; with subdomains, the rules of the URL's host (null until read: a read starts). */
  private robotsRulesOf(url: string): HostRobots | null {
    if (!this.scope.includeSubdomains) return { policy: this.robotsPolicy, robots: this.robots };
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    const rules = this.robotsRulesFor(parsed);
    if (rules === null && this.options.respectRobots) void this.loadHostRobots(parsed);
    return rules;
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private waitForChange(): Promise<void> {
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private next(): QueueItem | null {
    const queued = this.queue.shift();
    if (queued) return queued;
    // The wave is over once no page of it is in flight (one could still link more): then the next wave.
    if (this.inflight > 0) return null;
    if (this.nextWave.size) {
      const wave = [...this.nextWave.values()].sort((a, b) => (before(a, b) ? -1 : 1));
      this.nextWave.clear();
      this.startWave(wave);
      return this.queue.shift();
    }
    // List mode: the list was the first wave, and no link is followed.
    if (this.scope.list) return null;
    // Links exhausted: sitemap-only URLs (depth -1: no link from the start URL reaches them), as a wave in sitemap
    // order.
    const wave: { url: string; depth: number }[] = [];
    for (const url of this.sitemapUrls) {
      if (this.seen.has(url)) continue;
      const allowed = !this.options.respectRobots || this.allowedByRobots(url);
      this.seen.set(url, allowed);
      if (allowed) wave.push({ url, depth: -1 });
    }
    if (!wave.length) return null;
    this.startWave(wave);
    return this.queue.shift();
  }

  private async worker(hooks: CrawlHooks): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      // Pages crawled or being fetched: a page being handed over is crawled, and counts once.
      if (this.crawled + this.inflight - this.handingOver >= this.options.maxPages) {
        if (!this.truncated && this.pagesLeft() > 0) this.truncated = true;
        if (this.inflight === 0) return;
        await this.waitForChange();
        continue;
      }
      const item = this.next();
      if (!item) {
        if (this.inflight === 0) return;
        await this.waitForChange();
        continue;
      }
      this.inflight++;
      this.pagesInFlight.add(item.seq);
      let counted = false;
      try {
        // A subdomain's page waits for its host's robots.txt (subdomains on); a disallowed one is not fetched.
        if (!(await this.robotsAllowFetch(item))) continue;
        const page = await this.fetchPage(item);
        // A page in flight when the crawl was stopped is dropped: what it holds may be an aborted fetch.
        if (!page || this.aborted) {
          this.stopped = true;
          return;
        }
        this.crawled++;
        this.handingOver++;
        counted = true;
        await hooks.onPage(page);
        if (item.depth === 0 && !this.scope.list && !this.startFailure) {
          // Nothing to audit behind a start page that failed: the crawl ends with it (its row stays, with its error).
          this.startFailure = this.startPageFailure(page);
          if (this.startFailure) {
            this.stopped = true;
            return;
          }
        }
        await hooks.onProgress?.({
          pagesCrawled: this.crawled,
          pagesQueued: this.queue.left + this.nextWave.size,
        });
      } finally {
        if (counted) this.handingOver--;
        this.inflight--;
        this.pagesInFlight.delete(item.seq);
        this.startFinalExternalChecks();
        this.notify();
      }
    }
  }

  /** A request to the site: it holds one of the site's request slots (urgent) and starts at its paced time. */
  private async inSiteSlot<T>(request: () => Promise<T>): Promise<T> {
    await this.permits.acquire(true);
    try {
      await this.pace();
      return await request();
    } finally {
      this.permits.release();
    }
  }

  /** Politeness: request starts are spaced by delayMs across all workers; a stop ends the wait at once. */
  private async pace(): Promise<void> {
    if (this.options.delayMs <= 0) return;
    const now = Date.now();
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + this.options.delayMs;
    // A stop ends the wait at once (the timer rejects with an AbortError, which only means: go on and see).
    if (at > now) await sleep(at - now, undefined, { signal: this.signal }).catch(() => undefined);
  }

  /** The page, or null when the crawl was stopped before or while it was fetched. */
  private async fetchPage(
    item: QueueItem,
  ): Promise<{ fetch: PageFetch; facts: PageFacts | null; error: string | null } | null> {
    const fetch: PageFetch = {
      url: item.url,
      finalUrl: item.url,
      status: 0,
      depth: item.depth,
      redirects: [],
      bytes: 0,
      headers: {},
    };
    if (this.sitemapUrls.size) fetch.inSitemap = this.sitemapUrls.has(item.url);
    fetch.robotsTxt = this.robotsVerdict(item.url);
    // A request slot is held from the request until the body is in; parsing and checks run without one.
    const received = await this.inSiteSlot(async () => (this.aborted ? null : this.receive(item, fetch)));
    if (received === null || this.aborted) return null;
    if ('error' in received) return { fetch, facts: null, error: received.error };
    const { body, finalUrl } = received;
    fetch.bytes = body.length;
    // Browser mode renders from the body as received (a copy: the extraction below may take the body's memory).
    const rendering = this.options.rendering === 'browser' ? this.render(Buffer.from(body), fetch, finalUrl) : null;
    // The body may be handed to another thread (and its memory with it): nothing reads it after this.
    let facts = await this.extract(body, { url: fetch.finalUrl, headers: fetch.headers, status: fetch.status });
    if (rendering) facts = await this.withRendering(facts, await rendering, fetch);
    if (this.aborted) return null;
    if (this.inSite(finalUrl)) {
      let index = 0;
      for (const link of facts.links) {
        if (link.kind !== 'http' || !link.url) continue;
        const from = { parent: item.seq, index: index++ };
        if (link.internal || (this.scope.includeSubdomains && this.inSiteUrl(link.url)))
          this.enqueue(link.url, item.depth < 0 ? -1 : item.depth + 1, from);
        else this.addExternalCandidate(link.url, from);
      }
      // The AMP version of the page (rel=amphtml) is crawled like a link: the AMP checks judge it and its target.
      if (facts.ampHtml?.url)
        this.enqueue(facts.ampHtml.url, item.depth < 0 ? -1 : item.depth + 1, { parent: item.seq, index });
      // Checked beside the crawl: the page does not wait for them (the site pass reads the results).
      for (const resource of facts.resources) void this.resourceChecker.check(resource.url);
    }
    fetch.resources = await this.pageResources(facts);
    return { fetch, facts, error: null };
  }

  /** The page rendered in the browser from the body the crawler received, and its facts; or why it was not. */
  private async render(
    body: Buffer,
    fetch: PageFetch,
    finalUrl: URL,
  ): Promise<{ output: RenderOutput; facts: PageFacts } | { error: string }> {
    try {
      const output = await this.renderer!.render({
        url: fetch.finalUrl,
        status: fetch.status,
        headers: fetch.headers,
        body,
        // The site's own URLs robots.txt disallows are not loaded, as a search engine's renderer would not.
        allowed: (url) => !this.options.respectRobots || !this.inSiteUrl(url) || this.allowedByRobots(url),
        // What the scope excludes is not fetched as a resource of a rendered page either.
        excluded: (url) => URL.canParse(url) && this.excludedByScope(new URL(url)),
        // The crawl's client, under its politeness: a login crawl's page fetches its data signed in.
        client: this.renderClient,
        signal: this.signal,
      });
      // The serialized DOM is UTF-8 whatever the document declared: a BOM tells the extractor so.
      const html = Buffer.concat([UTF8_BOM, Buffer.from(output.html, 'utf8')]);
      const facts = await this.extract(html, { url: finalUrl.href, headers: fetch.headers, status: fetch.status });
      return { output, facts: { ...facts, htmlBytes: Math.max(0, facts.htmlBytes - UTF8_BOM.length) } };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }

  /** The rendered facts become the page's (the raw ones kept beside them); a failed render keeps the raw facts. */
  private withRendering(
    raw: PageFacts,
    rendered: { output: RenderOutput; facts: PageFacts } | { error: string },
    fetch: PageFetch,
  ): PageFacts {
    if ('error' in rendered) {
      fetch.renderError = rendered.error;
      return raw;
    }
    const { output } = rendered;
    fetch.rendering = {
      raw,
      renderMs: output.renderMs,
      consoleErrors: output.consoleErrors,
      consoleErrorCount: output.consoleErrorCount,
      failedRequests: output.failedRequests,
      failedRequestCount: output.failedRequestCount,
      blockedByRobots: output.blockedByRobots,
    };
    return rendered.facts;
  }

  /**
   * The request and, for an HTML page to analyze, its body. Fills `fetch`; `error: null` means a
   * response that is recorded but not analyzed (not HTML, an error status, a redirect analyzed elsewhere).
   */
  private async receive(
    item: QueueItem,
    fetch: PageFetch,
  ): Promise<{ body: Buffer; finalUrl: URL } | { error: string | null }> {
    // The request gets a signal of its own, which the crawl's aborts. The HTTP client joins the signal it is given to
    // its deadline with AbortSignal.any, which in Node 20 leaves a WeakRef in the given signal's set of dependants for
    // as long as that signal lives (~85 bytes a request: 8 MB on a 100,000-page crawl with the crawl's own signal).
    const request = linkedSignal(this.signal);
    try {
      return await this.receiveWith(item, fetch, request.signal);
    } finally {
      request.release();
    }
  }

  private async receiveWith(
    item: QueueItem,
    fetch: PageFetch,
    signal: AbortSignal | undefined,
  ): Promise<{ body: Buffer; finalUrl: URL } | { error: string | null }> {
    const started = Date.now();
    let response: SafeHttpStreamResponse;
    try {
      response = await this.client.request(item.url, {
        stream: true,
        // A page over the cap is analysed on its first bytes (and reported as too large), not lost as a failure.
        maxBytes: this.options.maxPageBytes ?? PAGE_BYTES_CAP,
        onBodyLimit: 'truncate',
        signal,
        headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
      });
    } catch (err) {
      if (item.seq === 0) this.startError = err;
      const code = isSafeHttpError(err) ? err.code : 'CONNECTION_FAILED';
      if (code === 'TIMEOUT') fetch.timedOut = true;
      if (code === 'REDIRECT_LOOP' || code === 'TOO_MANY_REDIRECTS') {
        fetch.redirectLoop = true;
        if (isSafeHttpError(err)) fetch.redirects = err.redirects ?? [];
      }
      fetch.responseMs = Date.now() - started;
      return { error: err instanceof Error ? err.message : String(err) };
    }
    fetch.finalUrl = response.finalUrl;
    fetch.status = response.status;
    fetch.redirects = response.redirects;
    fetch.headers = response.headers;
    fetch.responseMs = response.timings.ttfbMs;
    if (item.seq === 0) this.recordStart(response);

    const finalUrl = new URL(response.finalUrl);
    // A redirect to a URL with a fetch of its own: that fetch analyzes the document, this one would count it twice.
    let analyzedElsewhere = false;
    // A link that leaves the site through a redirect is a link to another site (the start URL excepted).
    if (response.redirects.length && item.depth !== 0 && !this.inSite(finalUrl)) fetch.redirectTargetSeparate = true;
    if (response.redirects.length && this.inSite(finalUrl)) {
      const normalized = normalizeUrl(response.finalUrl);
      if (normalized) {
        // A target waiting in the next wave is claimed by this fetch (whichever page linked it first, it is analyzed
        // here).
        const claimed = this.nextWave.delete(normalized);
        analyzedElsewhere = !claimed && normalized !== item.url && this.seen.get(normalized) === true;
        if (analyzedElsewhere) fetch.redirectTargetSeparate = true;
        this.seen.set(normalized, true);
      }
    }
    const contentType = firstHeader(response.headers, 'content-type') ?? '';
    const analyze =
      !analyzedElsewhere && response.status >= 200 && response.status < 300 && isHtmlContentType(contentType);
    if (!analyze) {
      response.body.destroy();
      fetch.bytes = Number(firstHeader(response.headers, 'content-length') ?? 0) || 0;
      return { error: null };
    }
    try {
      const body = await response.body.readAll();
      if (response.body.truncated) {
        // Content-Length is the size of the HTML only when it was sent uncompressed.
        const declared = response.contentEncoding ? NaN : Number(firstHeader(response.headers, 'content-length'));
        fetch.bodyCapped = { declaredBytes: Number.isSafeInteger(declared) && declared > 0 ? declared : null };
      }
      return { body, finalUrl };
    } catch (err) {
      if (item.seq === 0) this.startError = err;
      if (isSafeHttpError(err) && err.code === 'TIMEOUT') fetch.timedOut = true;
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }

  private recordStart(response: SafeHttpStreamResponse): void {
    this.startFacts = {
      startStatus: response.status,
      https: response.finalUrl.startsWith('https:'),
      hstsHeader: firstHeader(response.headers, 'strict-transport-security'),
      startResponse: { url: response.finalUrl, headers: response.headers },
      httpVersion: response.httpVersion,
      compression: response.contentEncoding ?? null,
      startTtfbMs: response.timings.ttfbMs,
    };
  }

  /**
   * Sizes and caching of a page's first images, checked once per URL within the audit's budget; the page waits for
   * these.
   */
  private async pageResources(facts: PageFacts): Promise<PageResource[]> {
    const wanted: string[] = [];
    for (const image of facts.images) {
      if (wanted.length >= ASSETS_PER_PAGE) break;
      if (image.url && !wanted.includes(image.url)) wanted.push(image.url);
    }
    const results = await Promise.all(
      wanted.map(async (url): Promise<PageResource | null> => {
        const r = await this.resourceChecker.check(url, { urgent: true });
        if (r.status === null) return null;
        return {
          url,
          kind: 'image',
          status: r.status,
          bytes: Number(firstHeader(r.headers ?? {}, 'content-length') ?? '') || undefined,
          headers: r.headers,
        };
      }),
    );
    return results.filter((r): r is PageResource => r !== null);
  }

  private async headCheck(url: string): Promise<{ status: number; headers: HeaderMap; redirected: boolean } | null> {
    // RFC 9309: nothing of the site that robots.txt disallows is requested, HEAD checks of assets and site files
    // included.
    if (!this.mayFetch(url)) return null;
    await this.permits.acquire(true);
    try {
      if (this.aborted) return null;
      const signal = this.signal;
      let r = await this.client.request(url, { method: 'HEAD', totalTimeoutMs: 10_000, signal });
      if ((r.status === 405 || r.status === 501) && !this.aborted)
        r = await this.client.request(url, { maxBytes: 1024, onBodyLimit: 'truncate', totalTimeoutMs: 10_000, signal });
      return { status: r.status, headers: r.headers, redirected: r.redirects.length > 0 };
    } catch {
      return null;
    } finally {
      this.permits.release();
    }
  }

  /**
   * Robots rules govern this site's URLs (other hosts' robots.txt are not fetched: link checks there are single
   * requests).
   */
  private mayFetch(url: string): boolean {
    if (!this.options.respectRobots) return true;
    try {
      if (!this.inSite(new URL(url))) return true;
    } catch {
      return false;
    }
    return this.allowedByRobots(url);
  }

  private async statusOf(url: string): Promise<number | null> {
    return (await this.headCheck(url))?.status ?? null;
  }

  /**
   * Starts the checks of the external targets that are final, while the crawl goes on: those linked from pages before
   * every page not yet done (a later page's targets come after them, so they never take their place in the budget).
   * A check already started is not repeated.
   */
  private startFinalExternalChecks(): void {
    let watermark = this.queue.nextSeq;
    for (const seq of this.pagesInFlight) if (seq < watermark) watermark = seq;
    for (const [url, from] of this.externalCandidates) if (from.parent < watermark) void this.checkExternal(url);
  }

  /** The check of an external target (started now, or the one already started); the tail's end stops it. */
  private checkExternal(url: string): Promise<ResourceCheck> {
    return this.resourceChecker.check(url, { budgeted: false, signal: this.externalStop.signal });
  }

  /**
   * External links: a bounded number of checks (externalLinkBudget), through the resource checker's lanes, started
   * during the crawl as each target's place in the budget is final. A target that refused the connection or failed
   * TLS is recorded with its cause (a broken link); one whose host did not resolve, that timed out, or that had not
   * answered `externalTailMs` after the last page, could not be checked; one our URL policy refuses (user info in the
   * URL, a refused address) is not fetched and is listed as not checked, with the policy's reason.
   */
  private async checkExternalLinks(): Promise<void> {
    const urls = [...this.externalCandidates.keys()];
    const checks = Promise.all(urls.map((url) => this.checkExternal(url)));
    const tailMs = this.options.externalTailMs ?? EXTERNAL_TAIL_MS;
    const timer = setTimeout(() => this.externalStop.abort(), tailMs);
    let results: Awaited<typeof checks>;
    try {
      results = await checks;
    } finally {
      clearTimeout(timer);
    }
    const late = this.externalStop.signal.aborted && !this.aborted;
    results.forEach((r, i) => {
      const url = urls[i];
      if (r.skipped && !(r.skipped === 'aborted' && late)) return;
      const info: LinkTargetInfo = { status: r.status, redirected: r.redirected };
      if (r.skipped) info.couldNotCheck = `no answer within ${tailMs / 1000} s of the crawl's end`;
      // Never broken: our policy, not the target, refused it (https://author@host/, a refused address).
      else if (r.refusedByPolicy !== undefined) info.couldNotCheck = `refused by policy: ${r.refusedByPolicy}`;
      else if (r.failureCode === 'DNS_FAILURE') info.couldNotCheck = r.failure ?? 'the host name did not resolve';
      else if (r.failureCode === 'TIMEOUT') info.couldNotCheck = r.failure ?? 'no answer in time';
      else if (r.failure !== undefined) info.failure = r.failure;
      if (r.blockedAddress) info.blockedAddress = true;
      this.linkTargets.set(url, info);
    });
  }

  private async fetchRobots(url: string): Promise<SiteFacts['robots']> {
    try {
      const r = await this.client.request(url, {
        maxBytes: ROBOTS_FETCH_BYTES + 1,
        onBodyLimit: 'truncate',
        totalTimeoutMs: 15_000,
        signal: this.signal,
      });
      this.robotsPolicy = robotsPolicyForStatus(r.status);
      if (this.robotsPolicy !== 'parse') return { status: r.status };
      const robots = parseRobotsTxt(r.body);
      this.robots = robots;
      return {
        status: r.status,
        blocksAll: blocksAll(robots, '*'),
        invalid: robots.errors.length > 0,
        errors: robots.errors.slice(0, 5).map((e) => `line ${e.line}: ${e.message}`),
        aiBlockedAgents: blockedAiSearchBots(robots),
        sitemaps: robots.sitemaps,
      };
    } catch (err) {
      this.robotsPolicy = 'disallow-all';
      this.robotsError = err;
      return { status: null, timedOut: isSafeHttpError(err) && err.code === 'TIMEOUT' };
    } finally {
      if (!this.options.respectRobots) this.robotsPolicy = 'allow-all';
      // Decided once: with the whole site shut, per-link robots notices would only repeat the site-level issue.
      this.robotsShutsSite =
        this.robotsPolicy === 'disallow-all' ||
        (this.robotsPolicy === 'parse' && !this.allowedByRobots(`${this.start.origin}/`));
    }
  }

  /** Sitemaps declared in robots.txt (or /sitemap.xml), index children followed within a bound. */
  private async fetchSitemaps(origin: string, declared: readonly string[]): Promise<Omit<SitemapSiteInput, 'urls'>> {
    const defaultUrl = `${origin}/sitemap.xml`;
    const pending = declared.length ? [...declared] : [defaultUrl];
    const result: Omit<SitemapSiteInput, 'urls'> = { declared };
    let analysis: SitemapAnalysis | null = null;
    let otherHostUrls = 0;
    let files = 0;
    while (pending.length && files < MAX_SITEMAP_FILES && !this.aborted) {
      const url = pending.shift()!;
      if (!this.mayFetch(url)) continue;
      files++;
      let response: SafeHttpStreamResponse;
      try {
        response = await this.client.request(url, {
          stream: true,
          maxBytes: 52_428_800,
          totalTimeoutMs: 60_000,
          signal: this.signal,
        });
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
        onUrl: (entry) => {
          // Normalized as the crawl keys URLs (query parameters dropped as the scope says).
          const normalized = normalizeUrl(entry.loc) && this.scope.normalize(entry.loc);
          if (!normalized) return;
          try {
            const parsed = new URL(normalized);
            if (!this.inSite(parsed)) {
              otherHostUrls++;
              return;
            }
            // Outside the include/exclude patterns: neither crawled nor reported (as an orphan or as blocked).
            if (!this.scope.matches(parsed)) return;
          } catch {
            return;
          }
          if (this.sitemapUrls.size < this.options.sitemapUrlLimit) {
            this.sitemapUrls.add(normalized);
            // Listed but disallowed: reported as blocked by robots.txt (and never as an orphan). When robots.txt
            // shuts out the whole site, the site-level issue says so.
            if (this.robotsPolicy === 'parse' && !this.robotsShutsSite && !this.allowedByRobots(normalized))
              this.sitemapBlocked.add(normalized);
          }
        },
      }).catch(() => null);
      if (!found) continue;
      // Locs off the sitemap's own host are reported by the validator and never reach onUrl.
      otherHostUrls += found.issueCounts.LOC_OTHER_HOST ?? 0;
      for (const child of found.sitemaps ?? []) if (pending.length + files < MAX_SITEMAP_FILES) pending.push(child.loc);
      if (!analysis || (analysis.type === 'sitemapindex' && found.type === 'urlset') || !found.valid) analysis = found;
    }
    if (analysis) {
      result.analysis = {
        valid: analysis.valid,
        urlCount: analysis.urlCount,
        sizeBytes: analysis.sizeBytes,
        otherHostUrls,
        errors: analysis.errors.slice(0, 5).map((e) => (e.line ? `line ${e.line}: ${e.message}` : e.message)),
      };
    }
    return result;
  }
}

/** How long resource checks may go on after the last page (slow resources must not hold an audit): 30 s. */
const RESOURCE_TAIL_MS = 30_000;

/** Checks of other hosts' URLs in flight at once, all origins together. */
const OTHER_HOST_LANES = 16;
/** Checks of one other host in flight at once, at least: as many connections as a browser opens to one host. */
const OTHER_HOST_PER_ORIGIN = 6;

/** How long external link checks may go on after the last page: 5 s (the rest could not be checked). */
const EXTERNAL_TAIL_MS = 5_000;

/** HTML bytes of a page the crawler receives and analyses (5 MiB); a larger page is analysed on these. */
const PAGE_BYTES_CAP = 5 * 1024 * 1024;

/** Byte order mark of UTF-8: the rendered DOM is decoded as UTF-8 whatever its meta charset says. */
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Pages in progress per request slot (see run()). */
const PAGES_PER_REQUEST_SLOT = 3;

/** A signal aborted with `parent` (and its reason) until release(), which detaches it. */
function linkedSignal(parent: AbortSignal | undefined): { signal: AbortSignal | undefined; release(): void } {
  if (!parent) return { signal: undefined, release: () => undefined };
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  const abort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', abort, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener('abort', abort) };
}
