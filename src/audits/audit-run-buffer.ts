import type { CheckOverrides } from '../seo/checks/index.js';
import {
  CHARGED_WITH,
  CheckAggregator,
  PageSummaryStore,
  REQUESTED_URL_CODES,
  type CheckResult,
} from '../seo/checks/index.js';
import { UrlCounts } from '../seo/page/index.js';
import type { AuditLinkRow, AuditPageRow, OccurrenceRecord } from './audit-page-rows.js';

/** Where the rows go (the engine's AuditSink). */
interface RowSink {
  pages(rows: AuditPageRow[]): Promise<void>;
  links?(rows: AuditLinkRow[]): Promise<void>;
  occurrences(rows: OccurrenceRecord[]): Promise<void>;
}

const BATCH = 250;
const LINK_BATCH = 5_000;
/** Longest a crawled page waits before it is written (and visible in the pages explorer of a running audit). */
const PAGE_FLUSH_MS = 2_000;
/**
 * A crawled URL's own 4xx/5xx answer (the codes with a `chargedWith`). When crawled pages link to it, the fact is
 * charged once, as the broken links on those pages (the `chargedWith` check, which names the status): where the fix
 * is (the links, or the target restored). Otherwise it is charged under its own code: a failing URL that no crawled
 * page links to (reached through the sitemap, a redirect or a list). docs/counts.md, "Each finding charged once".
 */
const LINKED_STATUS_CODES = CHARGED_WITH;

/**
 * One engine run's state between the crawl and the score: the page summaries and the check aggregates, and the
 * rows on their way to the sink (pages, links, occurrences), flushed in batches.
 */
export class AuditRunBuffer {
  /**
   * What the site pass needs of every page, in columns (a few hundred bytes per page): page-summary-store.ts. Its URL
   * table is the crawl's and the aggregator's too: each URL of the site is one string, and elsewhere an id.
   */
  readonly store = new PageSummaryStore();
  readonly urls = this.store.urls;
  readonly aggregator = new CheckAggregator({ maxOccurrencesPerCode: 20, urls: this.urls });
  readonly pages: AuditPageRow[] = [];
  readonly links: AuditLinkRow[] = [];
  readonly occurrences: OccurrenceRecord[] = [];
  // Pages are written in batches, and at least every PAGE_FLUSH_MS: a running audit's pages can be browsed.
  private pagesFlushedAt = Date.now();
  /** A code both passes evaluate for one page (TECH_SITEMAP_NON_INDEXABLE) must yield one occurrence, not two. */
  private readonly pagePassFailures = new Set<string>();
  /** Failing TECH_STATUS_4XX/5XX results, decided once the link graph is known (LINKED_STATUS_CODES). */
  private readonly heldStatuses: { requestedUrl: string; documentUrl: string; r: CheckResult }[] = [];
  /** The URL an analysed document is recorded under, by the URL it was requested as, where they differ (a redirect). */
  readonly movedDocuments = new Map<string, string>();
  private inlinks: UrlCounts | undefined;

  constructor(
    private readonly sink: RowSink,
    private readonly overrides: CheckOverrides,
    /** Page-scope codes runSiteChecks re-evaluates per page, which runPageChecks may already have decided. */
    private readonly crossPassCodes: ReadonlySet<string>,
  ) {}

  /** The URL table's one string for a URL. */
  shared(url: string): string {
    return this.urls.url(this.urls.intern(url));
  }

  /** The URL a crawled URL's results go under: its document's for an analysed document, else its own. */
  documentUrl(url: string): string {
    return this.movedDocuments.get(url) ?? url;
  }

  /** Once every page is in the store: how often each URL is linked to from the crawled pages. */
  inlinkCounts(): UrlCounts {
    if (this.inlinks) return this.inlinks;
    const inlinks = new UrlCounts(this.urls);
    for (let row = 0; row < this.store.size; row++) this.store.forEachInternalLink(row, (t) => inlinks.increment(t));
    this.inlinks = inlinks;
    return inlinks;
  }

  /** The buffered rows that are due (all of them when `force`) handed to the sink. */
  async flush(force = false): Promise<void> {
    const { sink } = this;
    if (
      this.pages.length &&
      (force || this.pages.length >= BATCH || Date.now() - this.pagesFlushedAt >= PAGE_FLUSH_MS)
    ) {
      const rows = this.pages.splice(0);
      this.pagesFlushedAt = Date.now();
      await sink.pages(rows);
    }
    // Links go with (or after) their pages: the page view reads both together. Memory holds at most one batch.
    if (this.links.length && (force || this.links.length >= LINK_BATCH || this.pages.length === 0)) {
      const rows = this.links.splice(0);
      await sink.links?.(rows);
    }
    if (this.occurrences.length && (force || this.occurrences.length >= BATCH * 4)) {
      const rows = this.occurrences.splice(0);
      await sink.occurrences(rows);
    }
  }

  addResults(url: string, evaluated: readonly CheckResult[], pass: 'page' | 'site' = 'page'): void {
    const results = this.overrides.pageResults(evaluated);
    this.aggregator.addPageResults(url, results);
    for (const r of results) {
      if (!r.applicable || !r.failed) continue;
      if (this.crossPassCodes.has(r.code)) {
        const key = `${r.code} ${url}`;
        if (pass === 'page') this.pagePassFailures.add(key);
        else if (this.pagePassFailures.has(key)) continue;
      }
      this.occurrences.push({ code: r.code, url, evidence: r.evidence ?? null });
    }
  }

  /**
   * Results of a requested URL: when redirects led to a document under another URL, the results about the requested
   * URL (REQUESTED_URL_CODES) stay on it and the document's go to the document's URL; `documentUrl` null: there is no
   * document here.
   */
  addAttributed(
    requestedUrl: string,
    documentUrl: string | null,
    evaluated: readonly CheckResult[],
    pass: 'page' | 'site',
  ): void {
    let results = evaluated;
    // A failing status waits for the link graph: charged here only when no crawled page links to the URL.
    if (pass === 'page' && results.some((r) => r.failed && LINKED_STATUS_CODES.has(r.code))) {
      for (const r of results)
        if (r.failed && LINKED_STATUS_CODES.has(r.code))
          this.heldStatuses.push({
            requestedUrl: this.shared(requestedUrl),
            documentUrl: this.shared(documentUrl ?? requestedUrl),
            r,
          });
      results = results.filter((r) => !(r.failed && LINKED_STATUS_CODES.has(r.code)));
    }
    if (documentUrl === requestedUrl) return this.addResults(requestedUrl, results, pass);
    this.addResults(
      requestedUrl,
      results.filter((r) => REQUESTED_URL_CODES.has(r.code)),
      pass,
    );
    if (documentUrl !== null)
      this.addResults(
        documentUrl,
        results.filter((r) => !REQUESTED_URL_CODES.has(r.code)),
        pass,
      );
  }

  /**
   * Every failing status is listed under its code with its inlinks (the failing URL is the critical page). One that
   * crawled pages link to is also their broken links' fix, and is charged once, as that fix (`chargedWith`), unless
   * the broken-link check is off.
   */
  settleHeldStatuses(): void {
    const inlinksOf = (url: string) => this.inlinkCounts().countOf(this.urls.idOf(url));
    for (const held of this.heldStatuses) {
      const inlinks = Math.max(inlinksOf(held.requestedUrl), inlinksOf(held.documentUrl));
      const r: CheckResult = { ...held.r, evidence: { ...held.r.evidence, inlinks } };
      const chargedWith = LINKED_STATUS_CODES.get(r.code)!;
      if (!this.overrides.isDisabled(chargedWith) && inlinks > 0) r.chargedWith = chargedWith;
      this.addResults(held.documentUrl, [r]);
    }
    this.heldStatuses.length = 0;
  }
}
