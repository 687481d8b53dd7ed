import type { LabMetrics, PageFetch, RobotsSiteInput, SitemapSiteInput, LinkTargetInfo } from '../seo/checks/index.js';
import type { HeaderMap, PageFacts } from '../seo/page/index.js';

export interface CrawlOptions {
  startUrl: string;
  maxPages: number;
  /** Link depth from the start URL beyond which pages are not fetched. */
  maxDepth: number;
  /** Parallel fetches against the site (per-host politeness). */
  concurrency: number;
  /** Minimum gap between request starts, in milliseconds. */
  delayMs: number;
  userAgent: string;
  respectRobots: boolean;
  /**
   * The cap of distinct external link targets checked per audit (HEAD, GET when HEAD is refused;
   * LINKS_EXTERNAL_BROKEN): a safety limit, 10,000 by default, every target below it is checked; 0 disables.
   */
  externalLinkBudget: number;
  /**
   * Unique subresources (images, scripts, stylesheets, icons, media) checked with HEAD, GET when HEAD is refused:
   * broken resources, and the size and caching of each page's first images; 0 disables.
   */
  assetBudget: number;
  /**
   * How long resource and external-link checks may go on after the last page (default 30 s); unfinished ones stay
   * unknown.
   */
  resourceTailMs?: number;
  /**
   * How long external link checks may go on after the last page (default: until they are done, within
   * externalTimeBudgetMs); those still unanswered then could not be checked.
   */
  externalTailMs?: number;
  /**
   * How long the crawl waits, once its pages and resources are done, for the external link checks before it returns
   * without them (default: until they end). Past it, SiteFacts says `externalPending` and `externalDone` settles with
   * their verdicts: the audit is readable without them, and they fold in when they arrive.
   */
  externalReadableAfterMs?: number;
  /**
   * The audit's time for external link checks, from the crawl's start (default 300 s): checks not yet sent then are
   * not tried, those in flight could not be checked.
   */
  externalTimeBudgetMs?: number;
  /** The project's external link results of the last day (reused instead of a request; fresh ones stored). */
  externalCache?: ExternalLinkCache;
  /** HTML bytes received and analysed per page (default 5 MiB): a larger page is analysed on its first bytes. */
  maxPageBytes?: number;
  /** `html` (default): the raw HTML is analysed; `browser`: each page is also rendered in headless Chromium. */
  rendering?: RenderingMode;
  /** Which URLs the crawl may fetch, and how they are normalized; absent: the start URL's host, every path. */
  scope?: CrawlScope;
  /** Sitemap URLs kept for seeding and orphan checks. */
  sitemapUrlLimit: number;
  /**
   * Stops the crawl (cancellation, shutdown): every fetch is aborted, robots.txt and sitemaps included, no new one
   * starts, and the pages in flight are dropped rather than reported.
   */
  signal?: AbortSignal;
}

export type RenderingMode = 'html' | 'browser';

/**
 * A project's cache of external link verdicts (a day long): never shared between projects. `recent` is read once as
 * the crawl starts; `store` receives the verdicts the audit fetched (answers and broken links, not "could not check").
 */
export interface ExternalLinkCache {
  recent(): Promise<ReadonlyMap<string, LinkTargetInfo>>;
  store(results: ReadonlyMap<string, LinkTargetInfo>): Promise<void>;
}

/** Why an external target was not tried: the cap of distinct URLs, or the audit's time for checks ran out. */
export type ExternalNotTried = 'cap' | 'time' | 'noNetwork';

/** How query parameters of discovered URLs are treated before they are queued. */
export type QueryParameterMode = 'keep' | 'drop-all' | 'drop-listed';

/**
 * The crawl's scope (project settings): include and exclude patterns on path + query (a pattern is a glob, or a
 * regular expression written `/…/flags`), subdomains, list mode and query-parameter handling.
 */
export interface CrawlScope {
  /** A URL must match one of these (when any) … */
  include?: readonly string[];
  /** … and none of these. */
  exclude?: readonly string[];
  /** Pages on subdomains of the start URL's site are crawled too. */
  includeSubdomains?: boolean;
  /** List mode: only these URLs (or the sitemap's URLs) are audited; links are checked but not followed. */
  list?: { source: 'urls'; urls: readonly string[] } | { source: 'sitemap' };
  queryParameters?: QueryParameterMode;
  /** The parameter names `drop-listed` removes. */
  droppedParameters?: readonly string[];
}

export const DEFAULT_CRAWL_OPTIONS: Omit<CrawlOptions, 'startUrl' | 'userAgent'> = {
  maxPages: 100,
  maxDepth: 10,
  concurrency: 4,
  delayMs: 0,
  respectRobots: true,
  externalLinkBudget: 10_000,
  assetBudget: 1_000,
  sitemapUrlLimit: 50_000,
};

/** One fetched URL, handed to the consumer and then dropped: the crawler keeps no HTML. */
export interface CrawledPage {
  fetch: PageFetch;
  /** Null for non-HTML responses and failures. */
  facts: PageFacts | null;
  /** A readable reason when the fetch failed. */
  error: string | null;
}

export interface CrawlProgress {
  pagesCrawled: number;
  pagesQueued: number;
  /**
   * After the last page, while the crawl waits for its external link checks (every second): targets answered (or
   * from the cache) of those found. A site linking one slow host a thousand times is waited for minutes.
   */
  externalLinks?: { checked: number; found: number };
}

export interface CrawlHooks {
  onPage(page: CrawledPage): Promise<void> | void;
  onProgress?(progress: CrawlProgress): Promise<void> | void;
  /**
   * The last page is done (every onPage has returned): the site files and the checks still in flight (other hosts'
   * answers) are waited for next. Not called for a stopped crawl or a failed start.
   */
  onPagesDone?(start: StartPageFacts): void;
}

export interface StartFailure {
  url: string;
  /** `scope`: the start URL is outside the crawl scope, or list mode has no URL to audit. */
  reason: 'fetch' | 'status' | 'not-html' | 'robots' | 'scope';
  message: string;
}

/** The start URL's own answer. */
export type StartPageFacts = Pick<SiteFacts, 'startUrl' | 'startStatus' | 'startTtfbMs'>;

/** What the crawl learned about the site itself, beyond its pages. */
export interface SiteFacts {
  startUrl: string;
  startStatus: number | null;
  https: boolean;
  hstsHeader: string | null;
  /** The start URL's final response: its URL and headers (security-header checks); absent when none arrived. */
  startResponse?: { url: string; headers: HeaderMap };
  httpVersion: string | null;
  compression: string | null;
  startTtfbMs: number | null;
  robots: RobotsSiteInput;
  robotsPolicy: 'parse' | 'allow-all' | 'disallow-all';
  sitemap: SitemapSiteInput;
  favicon: { status: number | null };
  llmsTxt: { status: number | null };
  /** External and uncrawled targets with what is known of them. */
  linkTargets: Map<string, LinkTargetInfo>;
  /** A page cap (maxPages) stopped the crawl while URLs of the site were left. */
  crawlTruncated: boolean;
  /** List mode (scope.list): only the listed URLs were audited and no link was followed. */
  listMode?: boolean;
  pagesCrawled: number;
  /** URLs of the site the crawl found, fetched or not: at least this many (links deeper than maxDepth not counted). */
  pagesDiscovered: number;
  /**
   * The start URL could not be audited (not fetched, refused, 4xx/5xx, not HTML, or disallowed by robots.txt): the
   * crawl stopped there. `message` names the URL and the cause; the audit fails with it and has no scores.
   */
  startFailure: StartFailure | null;
  /** The crawl was stopped through options.signal: the facts are partial, and nothing after the stop was fetched. */
  aborted: boolean;
  /** External targets not tried, and why (absent targets of linkTargets were not tried for another reason). */
  externalNotTried?: ReadonlyMap<string, ExternalNotTried>;
  /** External targets whose verdict came from the project's cache of the last day (no request). */
  externalFromCache?: ReadonlySet<string>;
  /**
   * Every distinct external target the crawl's pages linked, checked or not: what "N of M external links checked"
   * counts (the targets of the links the pages' facts read, as the page summaries keep them for the site checks).
   */
  externalTargets?: ReadonlySet<string>;
  /** HTTP requests the resource and external-link checks sent (each URL once; a GET fallback is a second one). */
  resourceRequests?: number;
  labMetrics?: LabMetrics;
  /**
   * The external link checks had not ended when the crawl returned (options.externalReadableAfterMs): `linkTargets`
   * holds no external verdict yet, `externalDone` settles once they are recorded there (with the external fields
   * above), or with 'stopped' when options.signal stopped them first.
   */
  externalPending?: boolean;
  externalDone?: Promise<'done' | 'stopped'>;
}
