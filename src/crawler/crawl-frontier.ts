import type { LinkTargetInfo } from '../seo/checks/index.js';
import type { CompiledCrawlScope } from './crawl-scope.js';
import type { CrawlOptions } from './crawl.types.js';
import type { SiteRobots } from './host-robots.js';
import type { SeenUrls } from './seen-urls.js';

export interface QueueItem {
  url: string;
  depth: number;
  /** Place in the crawl order: wave after wave, each wave in the order its URLs were first linked. */
  seq: number;
}

/** Where a URL was first linked (the linking page's seq, then the link's position on it): its place in its wave. */
export interface LinkOrigin {
  parent: number;
  index: number;
}

export const before = (a: LinkOrigin, b: LinkOrigin) =>
  a.parent < b.parent || (a.parent === b.parent && a.index < b.index);

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

  /** The next URL of the wave, or null at its end. */
  shift(): QueueItem | null {
    if (this.head >= this.urls.length) return null;
    const at = this.head++;
    return { url: this.urls[at], depth: this.depths[at], seq: this.firstSeq + at };
  }
}

/** What the frontier needs of the crawl to decide which URLs to queue. */
export interface FrontierRules {
  /** Normalized URLs met so far -> true once a fetch of the URL is scheduled (queued or done). */
  seen: SeenUrls;
  scope: CompiledCrawlScope;
  robots: SiteRobots;
  options: Pick<CrawlOptions, 'respectRobots' | 'maxDepth'>;
  /** The site's URLs its sitemaps list: the last wave, and the list of list mode's sitemap source. */
  sitemapUrls: ReadonlySet<string>;
  /** Where URLs that are not crawled are reported (blocked by robots.txt). */
  linkTargets: Map<string, LinkTargetInfo>;
  /** List mode: a link of the site, checked as a link target instead of followed. */
  checkListTarget(url: string, parsed: URL): void;
}

/**
 * The URLs to crawl, wave after wave (breadth-first levels): the wave being crawled, and the next one, which the
 * current wave's pages fill as they link to new URLs and which is sorted by where each URL was first linked when it
 * starts. So a page's depth is its true click distance, and which pages are crawled (and in which order) does not
 * depend on response timing. A URL is queued once, when the scope and robots.txt let the crawl fetch it.
 */
export class CrawlFrontier {
  private queue = new Wave([], 0);
  private readonly nextWave = new Map<string, WaveEntry>();
  private seqs = 0;
  private readonly seen: SeenUrls;

  constructor(private readonly rules: FrontierRules) {
    this.seen = rules.seen;
  }

  /** URLs of the current wave not handed out yet, plus those of the next wave. */
  get queued(): number {
    return this.queue.left + this.nextWave.size;
  }

  /** The next URL of the current wave, or null at its end. */
  shift(): QueueItem | null {
    return this.queue.shift();
  }

  /** Starts a wave of these URLs, in this order (their seqs follow the last wave's). */
  startWave(items: readonly { url: string; depth: number }[]): void {
    this.queue = new Wave(items, this.seqs);
    this.seqs += this.queue.size;
  }

  /**
   * Starts the next wave, sorted by where each URL was first linked; once links are exhausted, the sitemap-only URLs
   * (depth -1: no link from the start URL reaches them), as a wave in sitemap order. False when nothing is left.
   */
  startNextWave(): boolean {
    if (this.nextWave.size) {
      const wave = [...this.nextWave.values()].sort((a, b) => (before(a, b) ? -1 : 1));
      this.nextWave.clear();
      this.startWave(wave);
      return true;
    }
    // List mode: the list was the first wave, and no link is followed.
    if (this.rules.scope.list) return false;
    const { respectRobots } = this.rules.options;
    const wave: { url: string; depth: number }[] = [];
    for (const url of this.rules.sitemapUrls) {
      if (this.seen.has(url)) continue;
      const allowed = !respectRobots || this.rules.robots.allowed(url);
      this.seen.set(url, allowed);
      if (allowed) wave.push({ url, depth: -1 });
    }
    if (!wave.length) return false;
    this.startWave(wave);
    return true;
  }

  /** URLs found and not fetched: queued, in the next wave, or listed in the sitemap and not reached yet. */
  left(): number {
    let left = this.queued;
    // List mode audits the list only: the sitemap's other URLs are not left to crawl.
    if (!this.rules.scope.list)
      for (const url of this.rules.sitemapUrls)
        if (!this.seen.has(url) && (!this.rules.options.respectRobots || this.rules.robots.allowed(url))) left++;
    return left;
  }

  /**
   * The first wave's URLs: the start URL; in list mode the listed URLs (or the sitemap's) in scope and allowed by
   * robots.txt, each at depth 0.
   */
  seeds(start: URL): { url: string; depth: number }[] {
    const { scope, robots, options } = this.rules;
    const list = scope.list;
    if (!list) {
      this.seen.set(start.href, true);
      return [{ url: start.href, depth: 0 }];
    }
    const wave: { url: string; depth: number }[] = [];
    for (const url of list.source === 'urls' ? list.urls : this.rules.sitemapUrls) {
      if (this.seen.has(url)) continue;
      const parsed = new URL(url);
      // Outside the scope: not fetched (the settings refuse such a listed URL; a sitemap may list some).
      if (!scope.inScope(parsed)) continue;
      const rules = robots.rulesFor(parsed);
      if (options.respectRobots && rules !== null && !robots.allows(rules, url)) {
        this.seen.set(url, false);
        // A sitemap URL robots.txt disallows is already reported as such (TECH_SITEMAP_BLOCKED_BY_ROBOTS).
        if (list.source === 'urls' && !robots.shutsWholeSite)
          this.rules.linkTargets.set(url, { status: null, blockedByRobots: true });
        continue;
      }
      this.seen.set(url, true);
      wave.push({ url, depth: 0 });
    }
    return wave;
  }

  /** A link of the site, at this depth, from this place: queued in the next wave when the crawl may fetch it. */
  enqueue(raw: string, depth: number, from: LinkOrigin): void {
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
    const { scope, robots, options } = this.rules;
    // No fragment, and query parameters dropped as the scope says: URLs that differ only there are one page.
    const url = scope.normalizeParsed(parsed);
    if (this.seen.has(url)) return this.relink(url, from);
    if (!scope.inSite(parsed)) return;
    // Outside the include/exclude patterns: never fetched, and so never reported (as broken, blocked or orphan).
    if (!scope.matches(parsed)) return void this.seen.set(url, false);
    // List mode: links are checked as link targets, not followed.
    if (scope.list) {
      this.seen.set(url, false);
      return this.rules.checkListTarget(url, parsed);
    }
    // Too deep from here is not "seen": a shallower link found later may still queue it.
    if (depth > options.maxDepth) return;
    this.seen.set(url, false);
    // A subdomain whose robots.txt is not read yet is queued; the worker reads it before the fetch (pageAllowed).
    const rules = robots.rulesFor(parsed);
    if (rules === null && options.respectRobots) void robots.load(parsed);
    if (options.respectRobots && rules !== null && !robots.allows(rules, url)) {
      // When robots.txt shuts out the whole site, the site-level issue says so; per-link notices would be noise.
      if (!robots.shutsWholeSite) this.rules.linkTargets.set(url, { status: null, blockedByRobots: true });
      return;
    }
    this.seen.set(url, true);
    this.nextWave.set(url, { url, depth, parent: from.parent, index: from.index });
  }

  /** A URL of the next wave linked again: it takes the earliest place it is linked from. */
  private relink(url: string, from: LinkOrigin): void {
    const pending = this.nextWave.get(url);
    if (pending && before(from, pending)) {
      pending.parent = from.parent;
      pending.index = from.index;
    }
  }

  /**
   * A page redirected to a URL of the site (normalized): claimed from the next wave; true when another fetch
   * analyzes it.
   */
  claimRedirectTarget(normalized: string, item: QueueItem): boolean {
    // A target waiting in the next wave is claimed by this fetch (whichever page linked it first, it is analyzed
    // here).
    const claimed = this.nextWave.delete(normalized);
    const analyzedElsewhere = !claimed && normalized !== item.url && this.seen.get(normalized) === true;
    this.seen.set(normalized, true);
    return analyzedElsewhere;
  }
}
