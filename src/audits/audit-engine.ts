import type { SafeHttpClient } from '../platform/safe-http/index.js';
import {
  SiteCrawler,
  type CrawlOptions,
  type CrawlProgress,
  type PageFactsExtract,
  type PageRenderer,
  type SiteFacts,
  type StartPageFacts,
} from '../crawler/index.js';
import type { PageSummaryStore } from '../seo/checks/index.js';
import {
  CheckOverrides,
  LAB_CHECK_CODES,
  SITE_PASS_CODES,
  EXTERNAL_VERDICT_CODES,
  failingIssues,
  pageIdentityKeys,
  runPageChecks,
  runSiteChecks,
  summarizePage,
  type CheckAggregate,
  type CheckResult,
  type LabMetrics,
  type LinkTargetInfo,
  type SiteCheckOutput,
} from '../seo/checks/index.js';
import type { UrlCounts } from '../seo/page/index.js';
import {
  lighthousePerformanceScore,
  scoreAudit,
  type AuditScores,
  type Indexability,
  type ScoreBreakdown,
} from '../seo/scoring/index.js';
import type { AuditCounts, AuditPhase, UncheckedLink } from './audit.entity.js';

export type { AuditCounts } from './audit.entity.js';
import {
  documentUrlOf,
  linkRowsOf,
  pageRowsOf,
  type AuditLinkRow,
  type AuditPageRow,
  type OccurrenceRecord,
} from './audit-page-rows.js';
import { AuditRunBuffer } from './audit-run-buffer.js';

export type {
  AuditLinkRow,
  AuditPageDetails,
  AuditPageKind,
  AuditPageRow,
  OccurrenceRecord,
} from './audit-page-rows.js';

export interface VitalsRecord {
  url: string;
  source: 'LAB' | 'HTTP';
  device: 'desktop' | 'mobile';
  lcpMs: number | null;
  cls: number | null;
  inpMs: number | null;
  tbtMs: number | null;
  fcpMs: number | null;
  ttfbMs: number | null;
  performanceScore: number | null;
}

/** Where results go as they are produced: the worker writes to PostgreSQL, the CLI keeps a summary. */
export interface AuditSink {
  pages(rows: AuditPageRow[]): Promise<void>;
  /** The crawled pages' followable links (the link graph); a sink that keeps no graph has no `links`. */
  links?(rows: AuditLinkRow[]): Promise<void>;
  occurrences(rows: OccurrenceRecord[]): Promise<void>;
  progress?(progress: CrawlProgress): Promise<void>;
  /**
   * The engine moved on after the crawl: ANALYZING (site checks), MEASURING (the wait for lab vitals, which started
   * once the pages were done), SAVING (final writes).
   */
  phase?(phase: Exclude<AuditPhase, 'CRAWLING'>): Promise<void>;
  /**
   * Every link target in the link-target evidence (the CLI's --all-occurrences), not the first 5 of each page: the
   * stored audits keep 5 and their count, and say "5 of N".
   */
  everyLinkInEvidence?: boolean;
}

/**
 * Measures lab Core Web Vitals of a few URLs in a real browser; absent when no browser is configured. An aborted
 * signal ends the measurement at once (the browser's page is closed) with what was measured before.
 */
export type LabMeter = (
  urls: string[],
  signal?: AbortSignal,
) => Promise<Map<string, LabMetrics & { device?: 'desktop' | 'mobile' }>>;

/** What the crawl did beyond its pages. */
export interface CrawlReport {
  /** URLs of the site found, crawled or not (at least this many). */
  pagesDiscovered: number;
  /** A page cap stopped the crawl with URLs left: the scores cover the pages crawled. */
  truncated: boolean;
  /** External links that could not be checked (not broken links, not scored), with the reason. */
  uncheckedLinks: UncheckedLink[];
}

export interface AuditOutcome {
  scores: AuditScores;
  /** Why the scores are what they are: health and each issue's cost (the API's "why this score"). */
  breakdown: ScoreBreakdown;
  /** Every applicable check (passing ones included) — what the scores were computed from. */
  aggregates: CheckAggregate[];
  /** Failing checks, most severe first: the audit's issues. */
  issues: CheckAggregate[];
  site: SiteFacts;
  /** What the crawl did beyond its pages: URLs found, whether a page cap cut it, links it could not check. */
  crawl: CrawlReport;
  /** URLs crawled, HTML pages, indexable pages, and what each cap left unchecked. */
  counts: AuditCounts;
  pagesCrawled: number;
  /** Crawled pages with no usable response (each a PAGE_FETCH_FAILED occurrence). */
  pagesFailed: number;
  vitals: VitalsRecord[];
  stopped: false;
  /**
   * The external link checks went on past the audit's pages (options.externalReadableAfterMs): this outcome is
   * readable, without the checks that read other hosts' answers (EXTERNAL_VERDICT_CODES, not evaluated), and
   * `foldExternal` waits for those answers and gives the final outcome (null when options.signal stopped them).
   */
  externalPending?: true;
  foldExternal?: () => Promise<AuditOutcome | null>;
}

/**
 * options.signal stopped the audit: the pages and page-level occurrences found until then were handed to the sink.
 * Nothing is concluded from part of a site: no site checks, lab measurements or scores.
 */
export interface StoppedAudit {
  stopped: true;
  pagesCrawled: number;
}

/**
 * The site could not be audited: its start URL failed (unreachable, refused, 4xx/5xx, not HTML, disallowed by
 * robots.txt) or no page answered. The message names the URL and the cause. Nothing is scored; the pages crawled
 * until then were handed to the sink. Deterministic for a given site, so an audit job is not retried for it.
 */
export class AuditFailedError extends Error {
  override name = 'AuditFailedError';
  constructor(
    message: string,
    readonly pagesCrawled: number,
    readonly pagesFailed: number,
  ) {
    super(message);
  }
}

/** Lab metrics for the start URL and this many more of the most linked pages. */
const LAB_EXTRA_PAGES = 2;

/**
 * Crawl + analyze + score, with no database: the same engine serves the worker and `seo audit <url>`.
 * Pages stream through: facts -> page checks -> a small summary; results are flushed to the sink in batches.
 * options.signal stops it (crawl and lab measurement alike).
 */
export function runAuditEngine(
  client: SafeHttpClient,
  options: Omit<CrawlOptions, 'signal'>,
  sink: AuditSink,
  labMeter?: LabMeter,
  extract?: PageFactsExtract,
  overrides?: CheckOverrides,
  renderer?: PageRenderer,
): Promise<AuditOutcome>;
export function runAuditEngine(
  client: SafeHttpClient,
  options: CrawlOptions,
  sink: AuditSink,
  labMeter?: LabMeter,
  extract?: PageFactsExtract,
  overrides?: CheckOverrides,
  renderer?: PageRenderer,
): Promise<AuditOutcome | StoppedAudit>;
export async function runAuditEngine(
  client: SafeHttpClient,
  options: CrawlOptions,
  sink: AuditSink,
  labMeter?: LabMeter,
  extract?: PageFactsExtract,
  // The project's check settings: disabled checks dropped, severities overridden, before anything counts them.
  overrides: CheckOverrides = new CheckOverrides(),
  /** Browser rendering mode (options.rendering 'browser'): without one, the audit fails with the reason. */
  renderer?: PageRenderer,
): Promise<AuditOutcome | StoppedAudit> {
  if (options.rendering === 'browser' && !renderer)
    throw new AuditFailedError(
      'Pages are to be rendered in a browser (rendering mode "browser"), but no Chromium is configured: set ' +
        'RENDER_CHROMIUM_PATH or CHROMIUM_PATH for the audit worker or the CLI (or use html rendering).',
      0,
      0,
    );
  const run = new AuditRunBuffer(sink, overrides, SITE_PASS_CODES);
  const signal = options.signal;
  const pageWeights = new Map<string, number>();
  const crawled = await crawlPages(run, { client, options, sink, labMeter, extract, renderer, pageWeights });
  const { site, pagesFailed } = crawled;
  const stoppedOutcome = async (): Promise<StoppedAudit> => {
    // What the crawl found before the stop is kept; nothing is concluded about the site from part of it.
    await run.flush(true);
    return { stopped: true, pagesCrawled: site.pagesCrawled };
  };
  if (site.aborted || signal?.aborted) return stoppedOutcome();
  if (site.startFailure || crawled.pagesAnswered === 0) {
    // No score from a site that could not be fetched: the pages seen are kept, the audit fails with the reason.
    await run.flush(true);
    throw new AuditFailedError(
      site.startFailure?.message ?? `No page of ${site.startUrl} could be fetched.`,
      site.pagesCrawled,
      pagesFailed,
    );
  }

  await sink.phase?.('ANALYZING');
  const pending = site.externalPending === true;
  await analyzeSite(run, site, overrides, sink, pending ? { drop: EXTERNAL_VERDICT_CODES } : {});

  await sink.phase?.('MEASURING');
  const vitals = await (crawled.labVitals ??
    measureVitals(site, run.store, run.inlinkCounts(), pageWeights, labMeter, signal));
  if (signal?.aborted) return stoppedOutcome();
  const lab = vitals.filter((v) => v.source === 'LAB');
  for (const v of lab) run.addResults(v.url, labChecks(v, pageWeights.get(v.url)));
  await sink.phase?.('SAVING');
  await run.flush(true);
  const measured = { site, pagesFailed, vitals, lab };
  const outcome = scoreRun(run, overrides, measured);
  if (!pending) return outcome;
  const foldExternal = async (): Promise<AuditOutcome | null> => {
    // The verdicts of other hosts, recorded in the link targets once their checks end: the checks that read them are
    // run now (the site pass again, only they kept), and the audit scored again with them.
    if ((await site.externalDone) !== 'done' || signal?.aborted) return null;
    await analyzeSite(run, site, overrides, sink, { keep: EXTERNAL_VERDICT_CODES });
    await run.flush(true);
    return scoreRun(run, overrides, measured);
  };
  return { ...outcome, externalPending: true, foldExternal };
}

/** What crawlPages needs beside the run's buffer. */
interface CrawlDeps {
  client: SafeHttpClient;
  options: CrawlOptions;
  sink: AuditSink;
  labMeter?: LabMeter;
  extract?: PageFactsExtract;
  renderer?: PageRenderer;
  /** Filled by the lab measurement: each measured URL's page weight. */
  pageWeights: Map<string, number>;
}

/** The crawl: each page checked, summarized and buffered as it arrives; lab vitals started once the pages are in. */
async function crawlPages(
  run: AuditRunBuffer,
  deps: CrawlDeps,
): Promise<{ site: SiteFacts; pagesFailed: number; pagesAnswered: number; labVitals?: Promise<VitalsRecord[]> }> {
  const { sink, options } = deps;
  let pagesFailed = 0;
  let pagesAnswered = 0;
  let labVitals: Promise<VitalsRecord[]> | undefined;
  // The crawl's URLs and the summaries' are one table: each URL of the site is one string.
  const crawler = new SiteCrawler(deps.client, options, deps.extract, deps.renderer, run.urls);
  const site = await crawler.run({
    onPage: async ({ fetch, facts: fetched, error }) => {
      if (error !== null) {
        fetch.fetchError = error;
        pagesFailed++;
      } else if (fetch.status > 0) pagesAnswered++;
      // A redirect to a URL recorded elsewhere (its own fetch, another site) is only a redirect here.
      const facts = fetch.redirectTargetSeparate ? null : fetched;
      const documentUrl = documentUrlOf(fetch);
      // A redirect to a URL recorded elsewhere keeps only the results about itself.
      run.addAttributed(
        fetch.url,
        fetch.redirectTargetSeparate ? null : documentUrl,
        runPageChecks(facts, fetch),
        'page',
      );
      const summary = summarizePage(facts, fetch);
      run.store.add(summary);
      if (summary.isHtml && documentUrl !== summary.url)
        run.movedDocuments.set(run.shared(summary.url), run.shared(documentUrl));
      run.pages.push(...pageRowsOf(fetch, documentUrl, facts, summary, error));
      // One push per row: a page's links (up to PAGE_FACT_LIMITS.links) are too many to spread as arguments.
      if (sink.links) for (const row of linkRowsOf(documentUrl, facts)) run.links.push(row);
      await run.flush();
    },
    onProgress: sink.progress ? (p) => sink.progress!(p) : undefined,
    // Lab vitals need the pages only: they are measured while the crawl waits for other hosts' answers (waiting that
    // takes no CPU from them), not beside the pages (whose CPU they would take, and which they need to choose from).
    onPagesDone: (start) => {
      labVitals = measureVitals(start, run.store, run.inlinkCounts(), deps.pageWeights, deps.labMeter, options.signal);
    },
  });
  return { site, pagesFailed, pagesAnswered, labVitals };
}

/**
 * The site pass: site checks, their per-page results, and the held statuses decided. Site results go to the
 * aggregator (which keeps a few occurrences of each) and the sink, in a function of their own: once it returns,
 * nothing holds a site check's every occurrence while the pages' results are folded in.
 */
async function analyzeSite(
  run: AuditRunBuffer,
  site: SiteFacts,
  overrides: CheckOverrides,
  sink: AuditSink,
  codes: { drop?: ReadonlySet<string>; keep?: ReadonlySet<string> },
): Promise<void> {
  // Only the codes asked for: the external verdicts wait (`drop`), or fold in on their own (`keep`).
  const wanted = <T extends { code: string }>(results: readonly T[]): T[] =>
    results.filter((r) => !codes.drop?.has(r.code) && (!codes.keep || codes.keep.has(r.code)));
  const recordSiteResults = async (output: SiteCheckOutput): Promise<SiteCheckOutput['pages']> => {
    const siteResults = overrides.siteResults(wanted(output.site));
    run.aggregator.addSiteResults(siteResults);
    for (const result of siteResults) {
      if (!result.applicable || !result.failed) continue;
      const occurrences = result.occurrences.length ? result.occurrences : [{ url: site.startUrl }];
      for (const o of occurrences)
        run.occurrences.push({ code: result.code, url: o.url, evidence: o.evidence ?? null });
      await run.flush();
    }
    return output.pages;
  };
  const sitePageChecks = await recordSiteResults(
    runSiteChecks({
      startUrl: site.startUrl,
      pages: run.store,
      robots: site.robots,
      sitemap: site.sitemap,
      favicon: site.favicon,
      llmsTxt: site.llmsTxt,
      hsts: { https: site.https, header: site.hstsHeader },
      ...(site.startResponse && { startResponse: { ...site.startResponse, https: site.https } }),
      linkTargets: site.linkTargets,
      crawlTruncated: site.crawlTruncated,
      ...(site.listMode && { listMode: true }),
      ...(sink.everyLinkInEvidence && { evidenceLinks: Number.POSITIVE_INFINITY }),
    }),
  );
  for (const page of sitePageChecks) {
    run.addAttributed(page.url, run.documentUrl(page.url), wanted(page.results), 'site');
    await run.flush();
  }
  run.settleHeldStatuses();
  await run.flush();
}

/** The score of a crawled, analysed and measured site, and the outcome the sink's owner stores. */
function scoreRun(
  run: AuditRunBuffer,
  overrides: CheckOverrides,
  measured: { site: SiteFacts; pagesFailed: number; vitals: VitalsRecord[]; lab: VitalsRecord[] },
): AuditOutcome {
  const { site, pagesFailed, vitals, lab } = measured;
  const { store, aggregator } = run;
  const aggregates = overrides.aggregates(aggregator.aggregates());
  // Scores are shares of the crawled HTML documents: link targets, PDFs and other resources are not pages.
  const htmlRows: number[] = [];
  for (let row = 0; row < store.size; row++) if (store.isHtml(row)) htmlRows.push(row);
  const htmlDocumentUrls = function* () {
    for (const row of htmlRows) yield run.documentUrl(store.url(row));
  };
  const { scores, breakdown } = scoreAudit(aggregates, {
    pages: {
      html: htmlRows.length,
      withCritical: aggregator.pagesWithCritical(htmlDocumentUrls()),
      shownWorse: aggregator.pagesShownWorse(htmlDocumentUrls()),
      indexability: indexabilityOf(store, htmlRows),
    },
    startUrlStatus: site.startStatus,
    overrides: overrides.applied,
    labMetrics: lab.length ? lab.map(toLabMetrics) : undefined,
  });
  for (const v of vitals) if (v.source === 'HTTP') v.performanceScore = scores.performance;
  const counts = auditCounts(site, store, htmlRows, lab.length);
  return {
    scores,
    breakdown,
    aggregates,
    issues: failingIssues(aggregates),
    site,
    crawl: crawlReport(site),
    counts,
    pagesCrawled: site.pagesCrawled,
    pagesFailed,
    vitals,
    stopped: false,
  };
}

/** The audit's counts (AuditCounts) from the crawl's facts and the page summaries. */
function auditCounts(
  site: SiteFacts,
  store: PageSummaryStore,
  htmlRows: readonly number[],
  labMeasured: number,
): AuditCounts {
  let indexablePages = 0;
  let labEligible = 0;
  for (const row of htmlRows) {
    if (store.indexable(row)) indexablePages++;
    const status = store.status(row);
    if (status >= 200 && status < 300) labEligible++;
  }
  const resources = new Set<number>();
  for (let row = 0; row < store.size; row++) store.forEachResource(row, (id) => resources.add(id));
  // Every distinct external target the crawl met (the page summaries keep those of the links read).
  let external = site.externalTargets;
  if (!external) {
    const ids = new Set<number>();
    for (let row = 0; row < store.size; row++) store.forEachExternalLink(row, (id) => ids.add(id));
    external = new Set([...ids].map((id) => store.urls.url(id)));
  }
  const answered = (info: LinkTargetInfo | undefined) =>
    info !== undefined &&
    info.couldNotCheck === undefined &&
    !info.blockedByRobots &&
    !info.blockedAddress &&
    (info.status !== null || info.failure !== undefined);
  // Readable before the external checks end (not yet folded in): a target without a verdict is still being checked.
  const stillOut = site.externalPending === true && !site.externalTargets;
  const externalLinks: Omit<Required<AuditCounts['externalLinks']>, 'pending' | 'workerStopped'> & {
    pending?: number;
  } = {
    found: external.size,
    checked: 0,
    couldNotCheck: 0,
    refusedByPolicy: 0,
    addressCap: 0,
    overCap: 0,
    outOfTime: 0,
    noNetwork: 0,
    fromCache: 0,
  };
  for (const url of external) {
    const info = site.linkTargets.get(url);
    if (answered(info)) {
      externalLinks.checked++;
      if (site.externalFromCache?.has(url)) externalLinks.fromCache++;
    } else if (info?.couldNotCheck !== undefined) {
      externalLinks.couldNotCheck++;
      if (info.refusedByPolicy) externalLinks.refusedByPolicy++;
      else if (info.addressCap) externalLinks.addressCap++;
    } else {
      const why = site.externalNotTried?.get(url);
      if (why === 'cap') externalLinks.overCap++;
      else if (why === 'time') externalLinks.outOfTime++;
      else if (why === 'noNetwork') externalLinks.noNetwork++;
      else if (stillOut) externalLinks.pending = (externalLinks.pending ?? 0) + 1;
    }
  }
  let resourcesChecked = 0;
  for (const id of resources) if (answered(site.linkTargets.get(store.urls.url(id)))) resourcesChecked++;
  const links = store.links;
  return {
    urlsCrawled: site.pagesCrawled,
    htmlPages: htmlRows.length,
    indexablePages,
    externalLinks,
    resources: { found: resources.size, checked: resourcesChecked },
    labPages: { measured: labMeasured, eligible: labEligible },
    // Links past a page's cap are not read (PAGE_FACT_LIMITS.links): counted here, said on every surface.
    links: { found: links.found, read: links.found - links.notRead, pagesOverCap: links.pagesOverCap },
  };
}

/**
 * The crawled 2xx HTML pages a search engine would index, and why the others not (noindex; a canonical naming another
 * URL, on another host or the same): 0 indexable pages caps the score (score-formula.ts, NO_INDEXABLE_PAGES).
 */
function indexabilityOf(store: PageSummaryStore, htmlRows: readonly number[]): Indexability {
  const counts: Indexability = { indexable: 0, noindex: 0, canonicalOtherHost: 0, canonicalSameHost: 0 };
  for (const row of htmlRows) {
    const status = store.status(row);
    if (status < 200 || status >= 300) continue;
    if (store.indexable(row)) counts.indexable++;
    else if (store.noindex(row)) counts.noindex++;
    else {
      const canonical = store.canonical(row);
      if (canonical === null) continue;
      if (hostOf(canonical) !== hostOf(store.finalUrl(row))) counts.canonicalOtherHost++;
      else counts.canonicalSameHost++;
    }
  }
  return counts;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

function crawlReport(site: SiteFacts): CrawlReport {
  const uncheckedLinks: CrawlReport['uncheckedLinks'] = [];
  for (const [url, info] of site.linkTargets)
    if (info.couldNotCheck !== undefined) uncheckedLinks.push({ url, reason: info.couldNotCheck });
  return { pagesDiscovered: site.pagesDiscovered, truncated: site.crawlTruncated, uncheckedLinks };
}

const toLabMetrics = (v: VitalsRecord): LabMetrics => ({
  lcpMs: v.lcpMs ?? undefined,
  cls: v.cls ?? undefined,
  inpMs: v.inpMs ?? undefined,
  tbtMs: v.tbtMs ?? undefined,
  fcpMs: v.fcpMs ?? undefined,
  ttfbMs: v.ttfbMs ?? undefined,
});

/**
 * Lab metric checks run through the page-check code path with only the metrics known. Page weight is
 * a lab measurement too (every subresource transferred); TTFB stays the crawler's own measurement.
 */
function labChecks(v: VitalsRecord, pageWeightBytes: number | undefined): CheckResult[] {
  const metrics: LabMetrics = { ...toLabMetrics(v), pageWeightBytes };
  return runPageChecks(null, {
    url: v.url,
    finalUrl: v.url,
    status: 200,
    depth: 0,
    redirects: [],
    bytes: 0,
    headers: {},
    labMetrics: metrics,
  }).filter((r) => LAB_CHECK_CODES.has(r.code));
}

async function measureVitals(
  site: StartPageFacts,
  store: PageSummaryStore,
  inlinks: UrlCounts,
  pageWeights: Map<string, number>,
  labMeter?: LabMeter,
  signal?: AbortSignal,
): Promise<VitalsRecord[]> {
  const empty = { lcpMs: null, cls: null, inpMs: null, tbtMs: null, fcpMs: null, performanceScore: null };
  if (!labMeter || site.startStatus === null || site.startStatus >= 400) {
    return site.startStatus === null
      ? []
      : [{ url: site.startUrl, source: 'HTTP', device: 'desktop', ttfbMs: site.startTtfbMs, ...empty }];
  }
  const candidates: number[] = [];
  // Never two URLs of one page (pageIdentityKeys): the start URL's keys are taken first, whatever it links to.
  const measuredPages = new Set<string>(pageIdentityKeys(site.startUrl, null, null));
  const identity = (row: number) => pageIdentityKeys(store.finalUrl(row), store.canonical(row), store.textHash(row));
  for (let row = 0; row < store.size; row++) {
    const status = store.status(row);
    if (store.url(row) === site.startUrl) for (const key of identity(row)) measuredPages.add(key);
    else if (store.isHtml(row) && status >= 200 && status < 300) candidates.push(row);
  }
  // The most linked pages, the indexable ones (their own canonical) before the URLs that name another, and a page's
  // own URL before one that redirects to it; among equals the shallower, then by URL: the crawl's order of pages
  // depends on which answered first, and the same site must be measured on the same pages.
  candidates.sort(
    (a, b) =>
      Number(store.indexable(b)) - Number(store.indexable(a)) ||
      Number(store.redirected(a)) - Number(store.redirected(b)) ||
      inlinks.countOf(store.urlId(b)) - inlinks.countOf(store.urlId(a)) ||
      store.depth(a) - store.depth(b) ||
      (store.url(a) < store.url(b) ? -1 : store.url(a) > store.url(b) ? 1 : 0),
  );
  const top: string[] = [];
  for (const row of candidates) {
    if (top.length >= LAB_EXTRA_PAGES) break;
    const keys = identity(row);
    if (keys.some((key) => measuredPages.has(key))) continue;
    for (const key of keys) measuredPages.add(key);
    top.push(store.url(row));
  }
  const urls = [site.startUrl, ...top];
  const measured = await labMeter(urls, signal).catch(() => new Map());
  return urls.map((url): VitalsRecord => {
    const m = measured.get(url);
    if (!m)
      return {
        url,
        source: 'HTTP',
        device: 'desktop',
        ttfbMs: url === site.startUrl ? site.startTtfbMs : null,
        ...empty,
      };
    if (m.pageWeightBytes !== undefined) pageWeights.set(url, m.pageWeightBytes);
    const record: VitalsRecord = {
      url,
      source: 'LAB',
      device: m.device ?? 'desktop',
      lcpMs: m.lcpMs ?? null,
      cls: m.cls ?? null,
      inpMs: m.inpMs ?? null,
      tbtMs: m.tbtMs ?? null,
      fcpMs: m.fcpMs ?? null,
      ttfbMs: m.ttfbMs ?? null,
      performanceScore: null,
    };
    const score = lighthousePerformanceScore(toLabMetrics(record));
    record.performanceScore = score === null ? null : Math.round(score * 100);
    return record;
  });
}
