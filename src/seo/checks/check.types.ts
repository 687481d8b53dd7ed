import type { HeaderMap, PageFacts, ResourceKind } from '../page/index.js';
import type { Category, CheckScope, Severity } from './check-kinds.js';
import type { PageSummaryStore } from './page-summary-store.js';
import type { PageSummary } from './page-summary.types.js';

export type { PageSummary } from './page-summary.types.js';

/** Outcome of one check on one page. Not-applicable checks never count as passed or failed. */
/**
 * Code types are parameters here (plain strings by default) so that this file, which the check definitions import,
 * does not import the catalog derived from them; index.ts exports them refined to CheckCode.
 */
export interface CheckResult<Code extends string = string> {
  code: Code;
  applicable: boolean;
  failed: boolean;
  /** Banded checks (PERF_LCP...): the band the value fell in; otherwise the catalog severity applies. */
  severity?: Severity;
  /** Small JSON explaining a failure: the offending value, a snippet, the first few URLs. */
  evidence?: Record<string, unknown>;
  /** The fixes a failure is made of (CheckOutcome.causes): each failing target or repeated element, all of them. */
  causes?: readonly string[];
  /**
   * A failing URL whose fix another check charges (a linked URL answering 4xx/5xx is its broken links' fix): listed
   * under this code, counted in health as the critical page, costing nothing here (scored once, as that fix).
   */
  chargedWith?: Code;
}

/** Lab (browser) measurements for one page; absent metrics make their checks not applicable. */
export interface LabMetrics {
  lcpMs?: number;
  cls?: number;
  inpMs?: number;
  tbtMs?: number;
  fcpMs?: number;
  ttfbMs?: number;
  speedIndexMs?: number;
  /** Total transferred bytes of the page and its subresources. */
  pageWeightBytes?: number;
}

/** What the crawler learned about a link target (internal or external). */
export interface LinkTargetInfo {
  /** Final HTTP status; null when fetching failed (DNS, connection, timeout) or was not attempted. */
  status: number | null;
  /** The URL answered with a redirect (status is the redirect's final answer). */
  redirected?: boolean;
  noindex?: boolean;
  /** robots.txt disallows the URL for our user agent (it was then not fetched). */
  blockedByRobots?: boolean;
  /**
   * The fetch failed before any response (status null): a readable cause such as "connection refused", "DNS
   * failure" or "timed out". Absent when the URL was not checked at all.
   */
  failure?: string;
  /** The address policy refused the URL's address (loopback, private, link-local, metadata): never fetched. */
  blockedAddress?: boolean;
  /** A crawled HTML page's resolved canonical URL (null: it declares none); absent when not a crawled page. */
  canonical?: string | null;
  /**
   * An external target the audit could not check: its host name did not resolve, no answer came in time, our own
   * URL policy refused to fetch it ("refused by policy: …", e.g. user info in the URL), or the audit's requests to its
   * address reached their cap ("per-address request cap reached"). Not a broken link (the fault may be on the
   * auditing side), so it is listed apart and scores nothing.
   */
  couldNotCheck?: string;
  /** `couldNotCheck` because our own URL policy refused the fetch (not because the target gave no answer). */
  refusedByPolicy?: boolean;
  /**
   * `couldNotCheck` because the audit's requests to the target's address (or a redirect's) reached their cap
   * (LINK_CHECK_ADDRESS_CAP): nothing was sent, so the target gave no answer because it was not asked.
   */
  addressCap?: boolean;
}

/** Link targets keyed by absolute URL without fragment (the form `LinkFact.url` uses). */
export type LinkTargetLookup = ReadonlyMap<string, LinkTargetInfo>;

/** A subresource the crawler fetched (or HEAD-checked) for a page. */
export interface PageResource {
  url: string;
  kind: ResourceKind;
  status?: number;
  /** Body size in bytes when known (Content-Length or bytes read). */
  bytes?: number;
  headers?: HeaderMap;
}

export interface RedirectHop {
  url: string;
  status: number;
}

/** How a page was fetched: everything but the HTML. */
export interface PageFetch {
  /** URL as linked/queued. */
  url: string;
  /** URL after redirects. */
  finalUrl: string;
  /** Final HTTP status; 0 when no response arrived (network error or timeout). */
  status: number;
  /** Clicks from the start URL. */
  depth: number;
  /** Every redirect response on the way, in order (empty when none). */
  redirects: readonly RedirectHop[];
  /** The crawler stopped because a redirect returned to a visited URL. */
  redirectLoop?: boolean;
  /** Time until response headers arrived, as the crawler measured it (its TTFB). */
  responseMs?: number;
  /** Body bytes received. */
  bytes: number;
  /**
   * The HTML body was over the crawler's size cap: only its first `bytes` were received and analysed (links
   * followed, checks run on them). The Content-Length the server declared, when it did, is kept here.
   */
  bodyCapped?: { declaredBytes: number | null };
  headers: HeaderMap;
  timedOut?: boolean;
  /**
   * Why no usable response arrived (connection, DNS, TLS, refused address, timeout, redirect loop): the page failed.
   */
  fetchError?: string;
  labMetrics?: LabMetrics;
  resources?: readonly PageResource[];
  /** Statuses of this page's link and canonical targets, when already known. */
  linkTargets?: LinkTargetLookup;
  /** The URL is listed in the site's sitemap. */
  inSitemap?: boolean;
  /**
   * The redirect's target is recorded elsewhere: it has a fetch of its own (queued or crawled from another link), or
   * it is off the site. This fetch records only the redirect.
   */
  redirectTargetSeparate?: boolean;
  /** The site's robots.txt verdict on this URL for the crawler's user agent (`no-rules`: nothing restricts it). */
  robotsTxt?: 'allowed' | 'disallowed' | 'no-rules';
  /**
   * Browser rendering mode: the page as headless Chromium rendered it. The page's own facts (what every other check
   * judges, and whose links the crawl follows) are then the rendered DOM's; this keeps the raw HTML's beside them.
   */
  rendering?: PageRendering;
  /** Browser rendering mode: rendering failed (timeout, crash, budget) and why; the checks judged the raw HTML. */
  renderError?: string;
}

/** Browser rendering mode: what rendering added to a page's fetch (see PageFetch.rendering). */
export interface PageRendering {
  /** The facts of the raw HTML as served. */
  raw: PageFacts;
  /** Milliseconds from the start of navigation to the snapshot of the rendered DOM. */
  renderMs: number;
  /** Uncaught exceptions and console.error messages: the first 10 (each at most 300 characters), and the count. */
  consoleErrors: string[];
  consoleErrorCount: number;
  /**
   * Subrequests that failed: network errors, 4xx/5xx answers, refused by the SSRF policy or over a budget. The first
   * 10 and the count (blocked resource types such as media and fonts are not failures).
   */
  failedRequests: { url: string; reason: string }[];
  failedRequestCount: number;
  /** The site's own scripts, stylesheets and XHR that robots.txt disallows: not loaded (a search engine would not). */
  blockedByRobots: string[];
}

export interface RobotsSiteInput {
  /** HTTP status of /robots.txt; null when the fetch failed or timed out. */
  status: number | null;
  timedOut?: boolean;
  /** `Disallow: /` applies to `*` (from the robots analyzer). */
  blocksAll?: boolean;
  /** The analyzer reported errors (unknown directive, rule before user-agent, bad path). */
  invalid?: boolean;
  /** First few error messages, for evidence. */
  errors?: readonly string[];
  /** AI search agents (OAI-SearchBot, ChatGPT-User, PerplexityBot, Claude-User) disallowed from `/`. */
  aiBlockedAgents?: readonly string[];
  /** Sitemap URLs declared in robots.txt. */
  sitemaps?: readonly string[];
}

export interface SitemapSiteInput {
  /** Status of /sitemap.xml when it was fetched; null when not fetched or failed. */
  defaultStatus?: number | null;
  /** Sitemaps declared in robots.txt (overrides robots.sitemaps when given). */
  declared?: readonly string[];
  /** Result of analyzing the sitemap(s) found; absent when none was found. */
  analysis?: {
    valid: boolean;
    urlCount: number;
    sizeBytes: number;
    /** Entries whose host differs from the site's. */
    otherHostUrls?: number;
    errors?: readonly string[];
  };
  /** Page URLs listed (bounded by the caller), for orphan and non-indexable checks. */
  urls?: readonly string[];
  /** Listed URLs robots.txt disallows for the crawler (never fetched): blocked, not orphans. */
  blockedByRobots?: readonly string[];
}

export interface SiteCheckInput {
  startUrl: string;
  /** Every crawled page's summary, in crawl order: as objects, or added to a store as the crawl went. */
  pages: readonly PageSummary[] | PageSummaryStore;
  robots?: RobotsSiteInput;
  sitemap?: SitemapSiteInput;
  /** Status of /favicon.ico; null when it failed. */
  favicon?: { status: number | null };
  /** Status of /llms.txt; null when it failed. */
  llmsTxt?: { status: number | null };
  /** The start URL's final response: scheme and its Strict-Transport-Security header. */
  hsts?: { https: boolean; header: string | null };
  /** The start URL's final response and its headers (security-header checks). */
  startResponse?: { url: string; https: boolean; headers: HeaderMap };
  /** Link targets the crawler checked beyond the crawled pages (external links, uncrawled internals). */
  linkTargets?: LinkTargetLookup;
  /** The crawl stopped at its page limit: orphan detection is then not applicable. */
  crawlTruncated?: boolean;
  /** List mode: only listed URLs were audited and no link was followed, so orphan detection is not applicable. */
  listMode?: boolean;
  /**
   * Link targets each link-target occurrence names in its evidence (broken, redirecting, blocked… links); default 5,
   * Infinity for all (`seo audit --all-occurrences`). The evidence's `count` always counts every one.
   */
  evidenceLinks?: number;
}

export interface Occurrence {
  url: string;
  evidence?: Record<string, unknown>;
  severity?: Severity;
}

/** Outcome of a site-scope check: pass/fail once, with the pages or files it is about. */
export interface SiteCheckResult<Code extends string = string> {
  code: Code;
  applicable: boolean;
  failed: boolean;
  occurrences: Occurrence[];
  /** Pages the check looked at (for display); 1 for file-level checks. */
  applicablePages: number;
}

export interface PageCheckResults<Code extends string = string> {
  url: string;
  results: CheckResult<Code>[];
}

export interface SiteCheckOutput<Code extends string = string> {
  site: SiteCheckResult<Code>[];
  /**
   * Page-scope checks that need crawl-wide data (link target statuses, sitemap membership), evaluated
   * page by page as this is iterated (once): a large site's results are never all in memory together.
   */
  pages: Iterable<PageCheckResults<Code>>;
}

/** One entry per audit and code: what the Issue row and the score are made of. */
export interface CheckAggregate<Code extends string = string> {
  code: Code;
  title: string;
  description: string;
  severity: Severity;
  category: Category;
  scope: CheckScope;
  affectedPages: number;
  applicablePages: number;
  occurrences: Occurrence[];
  /** Occurrences dropped by the aggregator's cap (still counted in affectedPages). */
  omittedOccurrences: number;
  /**
   * Affected pages by the severity of their result, when they differ (a banded check: pages in the needs-improvement
   * band are NOTICEs, in the poor band WARNINGs); the score charges each page at its own. `severity` is the worst.
   */
  affectedBySeverity?: Partial<Record<Severity, number>>;
  /** The fixes of a check whose definition has `fixUnit` (one per failing target or repeated element). */
  fixes?: CheckFixes;
  /**
   * Affected URLs whose cost another check's fix carries (a linked URL answering 4xx/5xx: its broken links' fix):
   * listed here, in health as critical pages, costing nothing under this code.
   */
  chargedElsewhere?: number;
}

/** One fix: its cause (a target URL, a repeated element) and its reach (the pages it is on). */
export interface FixReach {
  cause: string;
  pages: number;
}

/**
 * Fixes on the very same pages (a template's list of dead links, a sidebar's missing files): fixed in one place, so
 * charged as one place of `fixes` fixes (docs/scores.md "Places").
 */
export interface FixPlace {
  /** The pages every fix of the place is on. */
  pages: number;
  fixes: number;
}

/** A check's fixes: how many, the widest listed, every fix's reach (widest first), and the places they are in. */
export interface CheckFixes {
  count: number;
  listed: FixReach[];
  reach: number[];
  places: FixPlace[];
}
