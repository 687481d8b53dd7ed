import type { SafeHttpClient } from '../platform/safe-http/index.js';
import type { LinkTargetInfo, PageFetch } from '../seo/checks/index.js';
import { UrlTable, type PageFacts } from '../seo/page/index.js';
import { PageAnalysisError, extractInline, type PageFactsExtract } from './page-facts-pool.js';
import type { PageRenderer } from './browser/index.js';
import type { CrawlHooks, CrawlOptions, SiteFacts, StartFailure } from './crawl.types.js';
import { ResourceChecker } from './resource-checker.js';
import { compileCrawlScope, type CompiledCrawlScope } from './crawl-scope.js';
import { SeenUrls } from './seen-urls.js';
import { CrawlFrontier, type QueueItem } from './crawl-frontier.js';
import { SiteRobots } from './host-robots.js';
import { fetchSitemaps } from './site-sitemaps.js';
import { ExternalLinks, type ExternalLinkTally } from './external-links.js';
import { NO_START_FACTS, receivePage, startFactsOf, type PageReceiving, type StartFacts } from './page-receive.js';
import { renderPage, withRendering, type PageRendering } from './page-render.js';
import { SiteRequests, pageResources, recordResourceChecks } from './site-requests.js';
import { emptyListFailure, startPageFailure, startUrlFailure } from './start-failure.js';
import { CrawlBounds } from './crawl-bounds.js';

type CrawlPage = { fetch: PageFetch; facts: PageFacts | null; error: string | null };

/**
 * Breadth-first crawl of one site (its host, www-insensitive), through the safe HTTP client.
 * robots.txt per RFC 9309 (host-robots.ts), sitemap seeding (site-sitemaps.ts), bounded concurrency and pacing
 * (site-requests.ts); each page is parsed in one streaming pass and handed to the consumer, then dropped — memory
 * holds URLs, not documents.
 *
 * The crawl goes in waves (breadth-first levels, crawl-frontier.ts): a wave's pages are fetched concurrently, the URLs
 * they link to form the next wave, which starts once the current one is done, sorted by where each URL was first
 * linked. So a page's depth is its true click distance, and which pages are crawled (and in which order) does not
 * depend on response timing: the same site gives the same facts, and the same scores, on every run (CLI or worker).
 */
export class SiteCrawler {
  private readonly frontier: CrawlFrontier;
  private readonly sitemapUrls = new Set<string>();
  private readonly sitemapBlocked = new Set<string>();
  private readonly linkTargets = new Map<string, LinkTargetInfo>();
  /** Subresources and external links: HEAD (GET fallback), once per URL, bounded, beside the page fetches. */
  private readonly resourceChecker: ResourceChecker;
  private readonly external: ExternalLinks;
  /** External link checks: HEAD (GET fallback), once per URL, a few per host, started as pages link them. */
  private readonly externalChecker: ResourceChecker;
  /** robots.txt of the site, and of its subdomains (scope.includeSubdomains), per origin. */
  private readonly robots: SiteRobots;
  /** What the crawl may request: the scope and robots.txt together. */
  private readonly bounds: CrawlBounds;
  /** What the start URL's fetch threw, if it did. */
  private startError: unknown = null;
  private startFailure: StartFailure | null = null;
  /** Include/exclude patterns, subdomains, list mode and query-parameter handling (crawl-scope.ts). */
  private readonly scope: CompiledCrawlScope;
  /** List mode's link-target checks waiting for their host's robots.txt (the end of the crawl waits for them). */
  private readonly pendingTargetChecks: Promise<unknown>[] = [];
  private readonly start: URL;
  private crawled = 0;
  private inflight = 0;
  /** Pages in flight already counted as crawled: handed to the consumer (onPage), not yet done. */
  private handingOver = 0;
  private stopped = false;
  private truncated = false;
  private waiters: (() => void)[] = [];
  /** The site's request slots and pacing (politeness). */
  private readonly requests: SiteRequests;
  /** What receiving and rendering a page need of the crawl: made once, not per page. */
  private readonly receiving: PageReceiving;
  private readonly rendering: PageRendering | null;
  private startFacts: StartFacts = NO_START_FACTS;

  constructor(
    private readonly client: SafeHttpClient,
    private readonly options: CrawlOptions,
    private readonly extract: PageFactsExtract = extractInline,
    /** Browser rendering mode (options.rendering 'browser'): renders each analysed page; required in that mode. */
    renderer?: PageRenderer,
    /** Where the URLs the crawl meets are kept (one string per URL): the audit's page summaries share it. */
    urls: UrlTable = new UrlTable(),
  ) {
    if (options.rendering === 'browser' && !renderer)
      throw new Error('browser rendering mode needs a page renderer (RENDER_CHROMIUM_PATH or CHROMIUM_PATH)');
    this.start = new URL(options.startUrl);
    this.scope = compileCrawlScope(options.startUrl, options.scope);
    this.signal = options.signal;
    this.robots = new SiteRobots(client, options, this.start, this.scope.includeSubdomains, this.signal);
    this.bounds = new CrawlBounds(this.scope, this.robots, options.respectRobots);
    this.requests = new SiteRequests(
      client,
      options,
      this.signal,
      (url) => this.bounds.inSiteUrl(url),
      (url) => this.bounds.mayFetch(url),
    );
    // Other hosts answer in their own time (100s of ms each for external links): many of them are asked side by
    // side, each no harder than a browser asks a host (or the crawl its own site, if that is more). Resources of the
    // site itself obey its robots.txt like its pages, and the scope's excludes; other hosts' are checked as links are.
    // One count of requests per address for the audit's checkers: a GET fallback and a redirect hop count too.
    const addressQuota = client.addressGate?.quota();
    const lanes = (budget: number) =>
      new ResourceChecker(client, {
        addressQuota,
        budget,
        concurrency: OTHER_HOST_LANES,
        perOrigin: Math.max(OTHER_HOST_PER_ORIGIN, options.concurrency),
        signal: options.signal,
        allowed: (url) => this.bounds.resourceAllowed(url),
        siteSlots: {
          owns: (url) => this.bounds.inSiteUrl(url),
          acquire: (urgent) => this.requests.permits.acquire(urgent),
          release: () => this.requests.permits.release(),
        },
      });
    this.resourceChecker = lanes(options.assetBudget);
    this.frontier = new CrawlFrontier({
      // Normalized URLs met so far -> true once a fetch of the URL is scheduled (queued or done).
      seen: new SeenUrls(urls),
      scope: this.scope,
      robots: this.robots,
      options,
      sitemapUrls: this.sitemapUrls,
      linkTargets: this.linkTargets,
      checkListTarget: (url, parsed) => this.checkListTarget(url, parsed),
    });
    // External links have lanes of their own: the resources' tail (resourceTailMs) does not end them, and their
    // number (every target of the site, up to the cap) does not hold back the pages' resources.
    this.externalChecker = lanes(0);
    this.external = new ExternalLinks(this.externalChecker, {
      cap: options.externalLinkBudget,
      timeBudgetMs: options.externalTimeBudgetMs,
      tailMs: options.externalTailMs,
      cache: options.externalCache,
    });
    this.receiving = {
      client,
      signal: this.signal,
      maxPageBytes: options.maxPageBytes,
      inSite: (url) => this.bounds.inSite(url),
      claimRedirectTarget: (normalized, item) => this.frontier.claimRedirectTarget(normalized, item),
      onStartResponse: (response) => (this.startFacts = startFactsOf(response)),
      onStartError: (err) => (this.startError = err),
    };
    this.rendering = renderer
      ? {
          renderer,
          extract,
          allowed: (url) => this.bounds.renderAllowed(url),
          excluded: (url) => this.bounds.renderExcluded(url),
          client: this.requests.renderClient,
          signal: this.signal,
        }
      : null;
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
    const [robots] = await Promise.all([this.robots.fetchSite(), this.external.begin()]);
    if (!this.aborted)
      this.startFailure = startUrlFailure(this.start, this.scope, this.robots, robots.status, this.options);
    const sitemap = this.halted
      ? { declared: robots.sitemaps ?? [] }
      : await fetchSitemaps(
          {
            client: this.client,
            signal: this.signal,
            scope: this.scope,
            robots: this.robots,
            mayFetch: (url) => this.bounds.mayFetch(url),
            urls: this.sitemapUrls,
            limit: this.options.sitemapUrlLimit,
            blocked: this.sitemapBlocked,
          },
          origin,
          robots.sitemaps ?? [],
        );

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
      : await Promise.all([
          this.requests.statusOf(`${origin}/favicon.ico`),
          this.requests.statusOf(`${origin}/llms.txt`),
        ]);
    // List mode's link-target checks that waited for a subdomain's robots.txt are started before the drain.
    if (!this.halted) await Promise.all(this.pendingTargetChecks);
    const wait = this.halted ? null : await this.waitForOutside(hooks);
    const pending = wait !== null && !wait.done;
    const facts: SiteFacts = {
      startUrl: this.start.href,
      ...this.startFacts,
      robots,
      robotsPolicy: this.robots.policy,
      sitemap: { ...sitemap, urls: [...this.sitemapUrls], blockedByRobots: [...this.sitemapBlocked] },
      favicon: { status: favicon },
      llmsTxt: { status: llmsTxt },
      linkTargets: this.linkTargets,
      crawlTruncated: this.truncated,
      ...(this.scope.list && { listMode: true }),
      pagesCrawled: this.crawled,
      pagesDiscovered: this.crawled + this.frontier.left(),
      startFailure: this.startFailure,
      aborted: this.aborted,
      resourceRequests: this.resourceChecker.requests + this.externalChecker.requests,
    };
    const record = (external: ExternalLinkTally): void => {
      Object.assign(facts, {
        externalNotTried: external.notTried,
        externalFromCache: external.fromCache,
        externalTargets: external.targets,
        resourceRequests: this.resourceChecker.requests + this.externalChecker.requests,
      });
    };
    if (wait && !pending) {
      const external = await wait.external;
      if (!this.halted) record(external);
    } else if (wait) {
      facts.externalPending = true;
      facts.externalDone = wait.external.then((external) => {
        if (this.aborted) return 'stopped';
        record(external);
        return 'done';
      });
    }
    return facts;
  }

  /**
   * The wait for other hosts after the last page (minutes when one host is linked a thousand times, 6 checks at a
   * time), said every EXTERNAL_PROGRESS_MS while it lasts: the resources' drain is awaited, then the external checks
   * for up to options.externalReadableAfterMs more. `done` false: they go on, and `external` settles when they end.
   */
  private async waitForOutside(hooks: CrawlHooks): Promise<{ done: boolean; external: Promise<ExternalLinkTally> }> {
    const said = hooks.onProgress
      ? setInterval(() => void this.sayExternalProgress(hooks), EXTERNAL_PROGRESS_MS)
      : null;
    const external = this.external
      .checkAll(this.linkTargets, () => this.aborted)
      .finally(async () => {
        if (said) clearInterval(said);
        // The figures the wait ended with (a progress written to the audit row keeps the last ones it was given).
        if (said) await this.sayExternalProgress(hooks);
      });
    let done = false;
    void external.then(
      () => (done = true),
      () => undefined,
    );
    try {
      await this.resourceChecker.drain(this.options.resourceTailMs ?? RESOURCE_TAIL_MS);
    } catch (err) {
      void external.catch(() => undefined);
      throw err;
    }
    if (!this.halted) recordResourceChecks(this.resourceChecker, this.linkTargets);
    const graceMs = this.options.externalReadableAfterMs;
    if (graceMs === undefined || !Number.isFinite(graceMs)) {
      await external;
      return { done: true, external };
    }
    if (!done && graceMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([external, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    return { done, external };
  }

  /** External link checks answered of those found, after the last page (a failed progress write is only a miss). */
  private sayExternalProgress(hooks: CrawlHooks): Promise<void> {
    const progress = { pagesCrawled: this.crawled, pagesQueued: 0, externalLinks: this.external.progress() };
    return Promise.resolve()
      .then(() => hooks.onProgress?.(progress))
      .catch(() => undefined);
  }

  /** The first wave; in list mode, an empty list fails the crawl as a start failure would. */
  private seeds(): { url: string; depth: number }[] {
    const wave = this.frontier.seeds(this.start);
    if (this.scope.list && !wave.length) this.startFailure = emptyListFailure(this.start, this.scope.list.source);
    return wave;
  }

  /** List mode: a link of the site is checked (HEAD, GET when refused) as a link target, and not followed. */
  private checkListTarget(url: string, parsed: URL): void {
    if (!this.options.respectRobots) return void this.resourceChecker.check(url);
    const rules = this.robots.rulesFor(parsed);
    if (rules === null) {
      // A subdomain whose robots.txt is not read yet: checked once it is (the end of the crawl waits for that).
      this.pendingTargetChecks.push(this.robots.load(parsed).then(() => this.checkListTarget(url, parsed)));
      return;
    }
    if (this.robots.allows(rules, url)) return void this.resourceChecker.check(url);
    if (!(this.robots.shutsWholeSite && this.robots.onStartSite(parsed)))
      this.linkTargets.set(url, { status: null, blockedByRobots: true });
  }

  private startWave(items: { url: string; depth: number }[]): void {
    this.frontier.startWave(items);
    this.notify();
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
    const queued = this.frontier.shift();
    if (queued) return queued;
    // The wave is over once no page of it is in flight (one could still link more): then the next wave.
    if (this.inflight > 0 || !this.frontier.startNextWave()) return null;
    this.notify();
    return this.frontier.shift();
  }

  private async worker(hooks: CrawlHooks): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      // Pages crawled or being fetched: a page being handed over is crawled, and counts once.
      if (this.crawled + this.inflight - this.handingOver >= this.options.maxPages) {
        if (!this.truncated && this.frontier.left() > 0) this.truncated = true;
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
      let counted = false;
      try {
        // A subdomain's page waits for its host's robots.txt (subdomains on); a disallowed one is not fetched.
        if (!(await this.bounds.pageAllowed(item.url, this.linkTargets))) continue;
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
          this.startFailure = startPageFailure(this.start, page, this.startError);
          if (this.startFailure) {
            this.stopped = true;
            return;
          }
        }
        await hooks.onProgress?.({ pagesCrawled: this.crawled, pagesQueued: this.frontier.queued });
      } finally {
        if (counted) this.handingOver--;
        this.inflight--;
        this.notify();
      }
    }
  }

  /** The page, or null when the crawl was stopped before or while it was fetched. */
  private async fetchPage(item: QueueItem): Promise<CrawlPage | null> {
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
    fetch.robotsTxt = this.robots.verdict(item.url);
    // A request slot is held from the request until the body is in; parsing and checks run without one.
    const received = await this.requests.inSiteSlot(async () =>
      this.aborted ? null : receivePage(this.receiving, item, fetch),
    );
    if (received === null || this.aborted) return null;
    if ('error' in received) return { fetch, facts: null, error: received.error };
    const { body, finalUrl } = received;
    fetch.bytes = body.length;
    // Browser mode renders from the body as received (a copy: the extraction below may take the body's memory).
    const rendering =
      this.options.rendering === 'browser' ? renderPage(this.rendering!, Buffer.from(body), fetch, finalUrl) : null;
    // The body may be handed to another thread (and its memory with it): nothing reads it after this.
    let facts: PageFacts;
    try {
      facts = await this.extract(body, { url: fetch.finalUrl, headers: fetch.headers, status: fetch.status });
    } catch (err) {
      // A page its analysis thread could not get through (out of memory or time): that page's failure, with the
      // reason, and the crawl goes on. Any other error is the crawl's.
      if (!(err instanceof PageAnalysisError)) throw err;
      await rendering?.catch(() => undefined);
      return this.aborted ? null : { fetch, facts: null, error: err.message };
    }
    if (rendering) facts = withRendering(facts, await rendering, fetch);
    if (this.aborted) return null;
    if (this.bounds.inSite(finalUrl)) this.followLinks(item, facts);
    fetch.resources = await pageResources(this.resourceChecker, facts);
    return { fetch, facts, error: null };
  }

  /** A page of the site: its links queued (the site's) or budgeted (other sites'), its resources checked. */
  private followLinks(item: QueueItem, facts: PageFacts): void {
    const depth = item.depth < 0 ? -1 : item.depth + 1;
    let index = 0;
    for (const link of facts.links) {
      if (link.kind !== 'http' || !link.url) continue;
      const from = { parent: item.seq, index: index++ };
      if (link.internal || (this.scope.includeSubdomains && this.bounds.inSiteUrl(link.url)))
        this.frontier.enqueue(link.url, depth, from);
      else this.external.add(link.url);
    }
    // The AMP version of the page (rel=amphtml) is crawled like a link: the AMP checks judge it and its target.
    if (facts.ampHtml?.url) this.frontier.enqueue(facts.ampHtml.url, depth, { parent: item.seq, index });
    // Checked beside the crawl: the page does not wait for them (the site pass reads the results).
    for (const resource of facts.resources) void this.resourceChecker.check(resource.url);
  }
}

/** How long resource checks may go on after the last page (slow resources must not hold an audit): 30 s. */
const RESOURCE_TAIL_MS = 30_000;

/** How often the wait for external link checks is reported, after the last page. */
const EXTERNAL_PROGRESS_MS = 1_000;

/** Checks of other hosts' URLs in flight at once, all origins together. */
export const OTHER_HOST_LANES = 16;
/** Checks of one other host in flight at once, at least: as many connections as a browser opens to one host. */
export const OTHER_HOST_PER_ORIGIN = 6;

/** Pages in progress per request slot (see crawl()). */
const PAGES_PER_REQUEST_SLOT = 3;
