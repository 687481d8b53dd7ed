/**
 * What the site-scope evaluators (each definition's `evaluate`) read and share: the site context built once per crawl
 * by runSiteChecks (site-checks.ts), the duplicate, orphan and hreflang passes over page summaries, and the crawl's
 * page checks from summaries. Imports no definition.
 */
import { normalizeUrl } from '../page/index.js';
import { CHECK_THRESHOLDS as T } from './check-thresholds.js';
import type {
  CheckResult,
  LinkTargetInfo,
  Occurrence,
  PageCheckResults,
  RobotsSiteInput,
  SiteCheckInput,
  SiteCheckResult,
} from './check.types.js';
import { LINK_TARGET_VERDICTS, evaluateLinkTargets, type LinkTargetVerdict } from './link-target-checks.js';
import { findNearDuplicateHalves } from './near-duplicate-index.js';
import { sitemapListingOutcome } from './page-indexability.js';
import type { PageSummaryStore } from './page-summary-store.js';
import { type TextField } from './page-summary-store.js';
import type { SitePages } from './site-pages.js';
import { type Classes } from './site-pages.js';

const SAMPLE = 3;
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

/**
 * What every site evaluator reads: the input, the crawled pages (with the documents among them, deduplicated by final
 * URL), and robots.txt's state.
 */
export interface SiteContext {
  input: SiteCheckInput;
  pages: SitePages;
  robots: RobotsState | null;
}

export interface RobotsState {
  url: string;
  status: number | null;
  /** RFC 9309 §2.3.1.4: 5xx and unreachable mean "disallow all"; Google treats 429 like 5xx. */
  unreachable: boolean;
  /** A 2xx answer whose rules were read: only then do rule-based checks apply. */
  parsed: boolean;
  robots: RobotsSiteInput;
}

/**
 * What a site evaluator returns: a SiteCheckResult whose code is any string here (the registry, site-checks.ts, pairs
 * each with its definition's code), so no helper's type depends on the catalog derived from the definitions.
 */
export type SiteVerdict = Omit<SiteCheckResult, 'code'> & { code: string };

/**
 * Decides one site-scope code for the whole crawl. The shared passes below take the code they decide from the
 * definition that calls them.
 */
export type SiteEvaluator = (ctx: SiteContext) => SiteVerdict;

export function result(code: string, failed: boolean, occurrences: Occurrence[], applicablePages = 1): SiteVerdict {
  return { code, applicable: true, failed, occurrences: failed ? occurrences : [], applicablePages };
}

export function notApplicable(code: string): SiteVerdict {
  return { code, applicable: false, failed: false, occurrences: [], applicablePages: 0 };
}

export function siteUrl(input: SiteCheckInput, path: string): string {
  try {
    return new URL(path, input.startUrl).href;
  } catch {
    return input.startUrl;
  }
}

export function robotsState(input: SiteCheckInput): RobotsState | null {
  const robots = input.robots;
  if (!robots) return null;
  const status = robots.status;
  const unreachable = robots.timedOut === true || status === null || status >= 500 || status === 429;
  const parsed = !unreachable && status !== null && status >= 200 && status < 300;
  return { url: siteUrl(input, '/robots.txt'), status, unreachable, parsed, robots };
}

/** The start page among the documents (by requested or final URL, else the first at depth 0); -1 when none. */
export function startPage(input: SiteCheckInput, pages: SitePages): number {
  const start = normalizeUrl(input.startUrl);
  // No page's normalized URL is a string the store lacks; null matches pages whose URL does not normalize.
  const startId = start === null ? -1 : pages.store.urls.idOf(start);
  if (start === null || startId !== -1)
    for (const row of pages.unique) if (pages.normUrl(row) === startId || pages.normFinal(row) === startId) return row;
  for (const row of pages.unique) if (pages.store.depth(row) === 0) return row;
  return -1;
}

function isOkHtml(store: PageSummaryStore, row: number): boolean {
  const status = store.status(row);
  return store.isHtml(row) && status >= 200 && status < 300;
}

export function noindexSitewideCheck(code: string, input: SiteCheckInput, pages: SitePages): SiteVerdict {
  const store = pages.store;
  let html = 0;
  let noindex = 0;
  for (const row of pages.unique) {
    if (!isOkHtml(store, row)) continue;
    html++;
    if (store.noindex(row)) noindex++;
  }
  if (html === 0) return notApplicable(code);
  const share = noindex / html;
  return result(
    code,
    share >= T.noindexSitewideShare,
    [
      {
        url: input.startUrl,
        evidence: { noindexPages: noindex, htmlPages: html, share: Math.round(share * 1000) / 1000 },
      },
    ],
    html,
  );
}

/**
 * Groups indexable documents by a key (`keys.of[row]`: the row's class of equal keys, -1 for none); every member of a
 * group of 2+ is an occurrence. Groups come in the order of their first page, pages in crawl order.
 */
function groupDuplicates(pages: SitePages, keys: Classes): { applicable: number; groups: number[][] } {
  const store = pages.store;
  // One document under URL variants (/ and /index.html) is one page here: TECH_CANONICAL_MISSING reports it.
  const documents = pages.documents();
  const counted = new Uint8Array(documents.count);
  const groups = new RowGroups(pages.size, keys.count);
  let applicable = 0;
  for (const row of pages.unique) {
    if (!store.indexable(row)) continue;
    const key = keys.of[row];
    if (key === -1) continue;
    if (store.hasTextHash(row)) {
      const document = documents.of[row];
      if (counted[document]) continue;
      counted[document] = 1;
    }
    applicable++;
    groups.add(key, row);
  }
  return { applicable, groups: groups.list(2) };
}

/**
 * Rows grouped by a key (0 .. keys - 1) as they are added: each group's first and last row, and a chain from row to
 * row. Typed arrays only, however many groups.
 */
class RowGroups {
  private readonly firsts: Int32Array;
  private readonly lasts: Int32Array;
  private readonly sizes: Int32Array;
  private readonly next: Int32Array;
  /** Keys in the order of their first row. */
  private readonly order: Int32Array;
  private keys = 0;

  constructor(rows: number, keys: number) {
    this.firsts = new Int32Array(keys).fill(-1);
    this.lasts = new Int32Array(keys);
    this.sizes = new Int32Array(keys);
    this.next = new Int32Array(rows).fill(-1);
    this.order = new Int32Array(keys);
  }

  add(key: number, row: number): void {
    if (this.firsts[key] === -1) {
      this.firsts[key] = row;
      this.order[this.keys++] = key;
    } else this.next[this.lasts[key]] = row;
    this.lasts[key] = row;
    this.sizes[key]++;
  }

  /** The groups of at least `min` rows, in the order of their first row; rows in the order they were added. */
  list(min: number): number[][] {
    const out: number[][] = [];
    for (let i = 0; i < this.keys; i++) {
      const key = this.order[i];
      if (this.sizes[key] < min) continue;
      const group: number[] = [];
      for (let row = this.firsts[key]; row !== -1; row = this.next[row]) group.push(row);
      out.push(group);
    }
    return out;
  }
}

function duplicateOccurrences(
  store: PageSummaryStore,
  groups: number[][],
  evidenceOf: (row: number) => Record<string, unknown>,
): Occurrence[] {
  const occurrences: Occurrence[] = [];
  for (const group of groups) {
    // The sample is drawn from the group's first SAMPLE + 1 pages: a group of n pages costs O(n), not O(n²) (one h1
    // shared by 100,000 pages must not stall the site pass).
    const head = group.slice(0, SAMPLE + 1);
    for (const row of group) {
      const others = othersIn(store, head, row);
      occurrences.push({
        url: store.finalUrl(row),
        evidence: { ...evidenceOf(row), duplicates: group.length - 1, sameAs: others },
      });
    }
  }
  return occurrences;
}

/** Up to SAMPLE final URLs of a group's first SAMPLE + 1 pages other than `row` (in group order). */
function othersIn(store: PageSummaryStore, head: readonly number[], row: number): string[] {
  const others: string[] = [];
  for (const other of head) if (other !== row && others.length < SAMPLE) others.push(store.finalUrl(other));
  return others;
}

export function duplicateFieldCheck(code: string, pages: SitePages, field: TextField, name: string): SiteVerdict {
  const { applicable, groups } = groupDuplicates(pages, pages.textKeys(field));
  if (applicable === 0) return notApplicable(code);
  const store = pages.store;
  const occurrences = duplicateOccurrences(store, groups, (row) => ({ [name]: store.text(field, row) }));
  return result(code, occurrences.length > 0, occurrences, applicable);
}

export function duplicateContentCheck(code: string, pages: SitePages): SiteVerdict {
  const store = pages.store;
  const textHashes = pages.textHashes();
  const withWords: Classes = {
    of: textHashes.of.map((key, row) => (key !== -1 && store.wordCount(row) > 0 ? key : -1)),
    count: textHashes.count,
  };
  const { applicable, groups } = groupDuplicates(pages, withWords);
  if (applicable === 0) return notApplicable(code);
  const occurrences = duplicateOccurrences(store, groups, (row) => ({ words: store.wordCount(row) }));
  return result(code, occurrences.length > 0, occurrences, applicable);
}

/**
 * One document answering under URL variants — `/docs/` and `/docs/index.html`, `/a` and `/a/` — with the same text:
 * each variant that does not name a canonical URL leaves search engines to pick one. A variant that names one (any
 * one: a wrong target is TECH_CANONICAL_TO_BROKEN's business) is fine.
 */
export function canonicalMissingCheck(code: string, pages: SitePages): SiteVerdict {
  const store = pages.store;
  const documents = pages.documents();
  const groups = new RowGroups(pages.size, documents.count);
  let applicable = 0;
  for (const row of pages.unique) {
    if (!isOkHtml(store, row) || !store.hasTextHash(row)) continue;
    applicable++;
    // A final URL that does not parse has no document key.
    if (pages.docKey(row) === -1) continue;
    groups.add(documents.of[row], row);
  }
  if (applicable === 0) return notApplicable(code);
  const occurrences: Occurrence[] = [];
  for (const group of groups.list(2)) {
    const head = group.slice(0, SAMPLE + 1);
    for (const row of group) {
      if (store.canonical(row) !== null) continue;
      occurrences.push({ url: store.finalUrl(row), evidence: { sameAs: othersIn(store, head, row) } });
    }
  }
  return result(code, occurrences.length > 0, occurrences, applicable);
}

/**
 * Near duplicates among indexable pages with enough text. Exact duplicates are CONTENT_DUPLICATE's
 * business: they are collapsed to one representative first, and a match of a representative marks
 * every page sharing its text. Similarity reported = share of equal SimHash bits.
 */
export function nearDuplicateCheck(code: string, pages: SitePages): SiteVerdict {
  const store = pages.store;
  const textHashes: Classes = pages.textHashes();
  // Pages grouped by text hash, groups in the order of their first page: firsts[g] and a chain through `next`.
  const groupOf = new Int32Array(textHashes.count).fill(-1);
  const firsts: number[] = [];
  const lasts: number[] = [];
  const next = new Int32Array(pages.size).fill(-1);
  let applicable = 0;
  for (const row of pages.unique) {
    if (!store.indexable(row) || !store.hasSimhash(row) || !store.hasTextHash(row)) continue;
    if (store.wordCount(row) < T.nearDuplicateMinWords) continue;
    applicable++;
    const hashClass = textHashes.of[row];
    const group = groupOf[hashClass];
    if (group === -1) {
      groupOf[hashClass] = firsts.length;
      firsts.push(row);
      lasts.push(row);
    } else {
      next[lasts[group]] = row;
      lasts[group] = row;
    }
  }
  if (applicable === 0) return notApplicable(code);
  const high = new Uint32Array(firsts.length);
  const low = new Uint32Array(firsts.length);
  firsts.forEach((row, i) => ([high[i], low[i]] = store.simhash(row)));
  const matches = findNearDuplicateHalves(high, low, {
    maxDistance: T.nearDuplicateMaxHamming,
    maxComparisons: T.nearDuplicateMaxComparisons,
  });
  const occurrences: Occurrence[] = [];
  matches.forEach((match, index) => {
    if (!match) return;
    const partner = store.finalUrl(firsts[match.partner]);
    const similarity = Math.round((1 - match.distance / 64) * 1000) / 10;
    for (let row = firsts[index]; row !== -1; row = next[row]) {
      occurrences.push({
        url: store.finalUrl(row),
        evidence: { similarTo: partner, similarity, hammingDistance: match.distance },
      });
    }
  });
  return result(code, occurrences.length > 0, occurrences, applicable);
}

export function orphanCheck(code: string, input: SiteCheckInput, pages: SitePages): SiteVerdict {
  const sitemapUrls = input.sitemap?.urls;
  const store = pages.store;
  // List mode follows no link: no page's inlinks are known.
  if (!sitemapUrls || sitemapUrls.length === 0 || store.size === 0 || input.crawlTruncated || input.listMode)
    return notApplicable(code);
  const urls = store.urls;
  // Pages share most link targets: normalize each distinct one once, not once per link.
  const targets = new Uint8Array(urls.size);
  for (let row = 0; row < store.size; row++) store.forEachInternalLink(row, (id) => (targets[id] = 1));
  const linked = new Set<number>();
  for (let id = 0; id < targets.length; id++) {
    if (!targets[id]) continue;
    const normalized = normalizeUrl(urls.url(id));
    linked.add(normalized === null ? id : urls.intern(normalized));
  }
  // A link to a URL that redirects is an inlink of the redirect's target.
  for (let row = 0; row < store.size; row++) {
    const from = pages.normUrl(row);
    if (store.redirected(row) && from !== -1 && linked.has(from)) linked.add(pages.finalKey(row));
  }
  const start = normalizeUrl(input.startUrl);
  // A URL robots.txt disallows was never fetched: it is reported as blocked (TECH_SITEMAP_BLOCKED_BY_ROBOTS),
  // and whether anything links to it is unknowable from the pages the crawler was allowed to read.
  const blocked = new Set((input.sitemap?.blockedByRobots ?? []).map((url) => normalizeUrl(url) ?? url));
  const occurrences: Occurrence[] = [];
  let applicable = 0;
  for (const raw of sitemapUrls) {
    const url = normalizeUrl(raw);
    if (url === null || url === start || blocked.has(url)) continue;
    applicable++;
    if (!linked.has(urls.idOf(url))) occurrences.push({ url, evidence: { inlinks: 0 } });
  }
  if (applicable === 0) return notApplicable(code);
  return result(code, occurrences.length > 0, occurrences, applicable);
}

/**
 * Sitemap URLs robots.txt disallows (the crawler lists them; they are also among `urls`): applies once both were read.
 */
export function sitemapBlockedCheck(code: string, input: SiteCheckInput): SiteVerdict {
  const urls = input.sitemap?.urls ?? [];
  const blocked = input.sitemap?.blockedByRobots ?? [];
  const robotsStatus = input.robots?.status ?? null;
  // Without a readable robots.txt there are no rules to block a URL (4xx) or the whole site is shut (5xx).
  if (urls.length === 0 || robotsStatus === null || robotsStatus < 200 || robotsStatus >= 300)
    return notApplicable(code);
  const occurrences = blocked.map((url): Occurrence => ({
    url,
    evidence: { rule: 'disallowed by robots.txt', robotsTxt: siteUrl(input, '/robots.txt') },
  }));
  return result(code, occurrences.length > 0, occurrences, urls.length);
}

export function hreflangReturnCheck(code: string, pages: SitePages): SiteVerdict {
  const store = pages.store;
  // Most sites have no hreflang at all: then there is no need to index every page by URL.
  const sources = [...store.rowsWithLinkExtras()].filter(
    (row) => pages.isUnique(row) && store.indexable(row) && store.hreflang(row).length > 0,
  );
  if (sources.length === 0) return notApplicable(code);
  // The documents by final URL, and by requested URL where no final URL is the same.
  const byUrl = new Int32Array(store.urls.size).fill(-1);
  for (const row of pages.unique) {
    byUrl[pages.finalKey(row)] = row;
    const requested = pages.normUrl(row);
    if (requested !== -1 && byUrl[requested] === -1) byUrl[requested] = row;
  }
  const pageAt = (url: string): number => {
    const id = store.urls.idOf(url);
    return id === -1 || id >= byUrl.length ? -1 : byUrl[id];
  };
  const occurrences: Occurrence[] = [];
  let applicable = 0;
  for (const row of sources) {
    const self = normalizeUrl(store.finalUrl(row));
    const missing: string[] = [];
    let known = 0;
    for (const entry of store.hreflang(row)) {
      const targetUrl = normalizeUrl(entry.url);
      if (targetUrl === null || targetUrl === self) continue;
      const target = pageAt(targetUrl);
      if (target === -1 || !isOkHtml(store, target)) continue;
      known++;
      const returns = store.hreflang(target).some((back) => normalizeUrl(back.url) === self);
      if (!returns && missing.length < 5) missing.push(store.finalUrl(target));
    }
    if (known === 0) continue;
    applicable++;
    if (missing.length > 0) occurrences.push({ url: store.finalUrl(row), evidence: { targetsWithoutReturn: missing } });
  }
  if (applicable === 0) return notApplicable(code);
  return result(code, occurrences.length > 0, occurrences, applicable);
}

const KNOWN_FINAL = 1;
const KNOWN_REQUESTED = 2;

/** The page-scope checks the site pass decides (their definitions' `sitePass`), by what decides them. */
export interface SitePassChecks {
  /** A link-target verdict -> the code it decides. */
  linkTargets: ReadonlyMap<LinkTargetVerdict, string>;
  /** The code the sitemap listing of a page decides. */
  sitemapListing: string | null;
}

/**
 * Link-target checks once per document (`pages.unique`: pages deduplicated by final URL) and the
 * sitemap-membership check for every listed URL, redirect sources included.
 */
export function* crawlPageChecks(
  input: SiteCheckInput,
  pages: SitePages,
  checks: SitePassChecks,
): Generator<PageCheckResults> {
  const store = pages.store;
  const linkTargetChecks = LINK_TARGET_VERDICTS.flatMap((verdict) => {
    const code = checks.linkTargets.get(verdict);
    return code === undefined ? [] : [[verdict, code] as const];
  });
  const sitemapListing = checks.sitemapListing;
  // What the crawl knows of each URL it fetched (by normalized URL): a page's final URL tells its status, noindex and
  // (crawled HTML) canonical, which lets link checks tell a page from its duplicates; a requested URL that redirected
  // elsewhere tells its status and that it redirected.
  const knownRow = new Int32Array(store.urls.size).fill(-1);
  const knownKind = new Uint8Array(store.urls.size);
  for (let row = 0; row < store.size; row++) {
    const final = pages.normFinal(row);
    if (final !== -1 && knownRow[final] === -1) {
      knownRow[final] = row;
      knownKind[final] = KNOWN_FINAL;
    }
    const requested = pages.normUrl(row);
    if (requested !== -1 && requested !== final) {
      knownRow[requested] = row;
      knownKind[requested] = KNOWN_REQUESTED;
    }
  }
  // A target's info, made the first time a link asks for it (its page's row does not change in this phase).
  const infoOf = new Array<LinkTargetInfo | undefined>(knownRow.length);
  const known = (url: string): LinkTargetInfo | undefined => {
    const id = store.urls.idOf(url);
    const row = id === -1 || id >= knownRow.length ? -1 : knownRow[id];
    if (row === -1) return undefined;
    let info = infoOf[id];
    if (info !== undefined) return info;
    const status = store.status(row) === 0 ? null : store.status(row);
    if (knownKind[id] === KNOWN_REQUESTED)
      info = { status, redirected: store.redirected(row), noindex: store.noindex(row) };
    else if (store.isHtml(row)) info = { status, noindex: store.noindex(row), canonical: store.canonical(row) };
    else info = { status, noindex: store.noindex(row) };
    infoOf[id] = info;
    return info;
  };
  const extra = input.linkTargets;
  const lookup = (url: string): LinkTargetInfo | undefined => known(url) ?? extra?.get(url);
  // Every page's links point into the same set of targets: each target and canonical is normalized once.
  const normalized = new Map<string, string | null>();
  const normalize = (url: string): string | null => {
    let value = normalized.get(url);
    if (value === undefined) {
      value = normalizeUrl(url);
      // Most are already normal: the table then keeps no second copy of the text.
      normalized.set(url, (value = value === url ? url : value));
    }
    return value;
  };
  // Built only for a page whose summary does not say whether the sitemap lists it.
  let sitemap: Set<string> | null | undefined;
  const listedInSitemap = (row: number): boolean => {
    sitemap ??= input.sitemap?.urls ? new Set(input.sitemap.urls.map((url) => normalizeUrl(url) ?? url)) : null;
    if (sitemap === null) return false;
    const url = store.url(row);
    const finalUrl = store.finalUrl(row);
    return sitemap.has(normalizeUrl(url) ?? url) || sitemap.has(normalizeUrl(finalUrl) ?? finalUrl);
  };

  for (let row = 0; row < store.size; row++) {
    const results: CheckResult[] = [];
    if (pages.isUnique(row) && isOkHtml(store, row)) {
      const outcomes = evaluateLinkTargets(
        {
          selfUrl: store.finalUrl(row),
          selfNoindex: store.noindex(row),
          internalLinks: store.internalLinks(row),
          externalLinks: store.externalLinks(row),
          canonical: store.canonical(row),
          resources: store.resources(row),
        },
        lookup,
        input.evidenceLinks,
        normalize,
      );
      for (const [verdict, code] of linkTargetChecks) {
        const outcome = outcomes[verdict];
        if (outcome === null) continue;
        const entry: CheckResult = { code, applicable: true, failed: outcome.failed };
        if (outcome.evidence) entry.evidence = outcome.evidence;
        if (outcome.causes) entry.causes = outcome.causes;
        results.push(entry);
      }
    }
    const listed = sitemapListing !== null && (store.inSitemap(row) ?? listedInSitemap(row));
    if (listed) {
      const outcome = sitemapListingOutcome({
        redirected: store.redirected(row),
        status: store.status(row),
        finalUrl: store.finalUrl(row),
        isHtml: store.isHtml(row),
        noindex: store.noindex(row),
        indexable: store.indexable(row),
      });
      const entry: CheckResult = { code: sitemapListing, applicable: true, failed: outcome.failed };
      if (outcome.evidence) entry.evidence = outcome.evidence;
      results.push(entry);
    }
    if (results.length > 0) yield { url: store.url(row), results };
  }
}
