import { normalizeUrl } from '../page/index.js';
import { hstsVerdict, parseResponseHeaders } from '../headers/response-verdicts.js';
import type { CheckCode, SiteCheckCode } from './check-catalog.js';
import { CHECK_THRESHOLDS as T } from './check-thresholds.js';
import type {
  CheckResult,
  LinkTargetInfo,
  Occurrence,
  PageCheckResults,
  PageSummary,
  RobotsSiteInput,
  SiteCheckInput,
  SiteCheckOutput,
  SiteCheckResult,
} from './check.types.js';
import { LINK_TARGET_CODES, evaluateLinkTargets } from './link-target-checks.js';
import { HYGIENE_SITE_EVALUATORS } from './hygiene-checks.js';
import { findNearDuplicates } from './near-duplicate-index.js';
import { sitemapListingOutcome } from './page-indexability.js';
import { STRUCTURED_SITE_EVALUATORS } from './structured-international-checks.js';

const SAMPLE = 3;
const SITEMAP_MAX_URLS = 50_000;
const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

/** What every site evaluator reads: the input, the documents deduplicated by final URL, and robots.txt's state. */
export interface SiteContext {
  input: SiteCheckInput;
  pages: readonly PageSummary[];
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

/** Decides one site-scope code for the whole crawl. */
export type SiteEvaluator = (ctx: SiteContext) => SiteCheckResult;

/**
 * One evaluator per site-scope code, in report order. Page-scope codes live in PAGE_EVALUATORS
 * (page-checks.ts); check-evaluators.ts joins both into the registry of every catalog code.
 */
export const SITE_EVALUATORS: Readonly<Record<SiteCheckCode, SiteEvaluator>> = {
  TECH_ROBOTS_MISSING: ({ robots }) => {
    if (!robots) return notApplicable('TECH_ROBOTS_MISSING');
    return result('TECH_ROBOTS_MISSING', robots.status === 404 || robots.status === 410, [
      { url: robots.url, evidence: { status: robots.status } },
    ]);
  },
  TECH_ROBOTS_UNREACHABLE: ({ robots }) => {
    if (!robots) return notApplicable('TECH_ROBOTS_UNREACHABLE');
    return result('TECH_ROBOTS_UNREACHABLE', robots.unreachable, [
      { url: robots.url, evidence: { status: robots.status, timedOut: robots.robots.timedOut ?? false } },
    ]);
  },
  TECH_ROBOTS_BLOCKS_ALL: ({ robots }) => {
    if (!robots?.parsed) return notApplicable('TECH_ROBOTS_BLOCKS_ALL');
    return result('TECH_ROBOTS_BLOCKS_ALL', robots.robots.blocksAll === true, [
      { url: robots.url, evidence: { rule: 'User-agent: * / Disallow: /' } },
    ]);
  },
  TECH_ROBOTS_INVALID: ({ robots }) => {
    if (!robots?.parsed) return notApplicable('TECH_ROBOTS_INVALID');
    return result('TECH_ROBOTS_INVALID', robots.robots.invalid === true, [
      { url: robots.url, evidence: { errors: (robots.robots.errors ?? []).slice(0, 5) } },
    ]);
  },
  TECH_AI_SEARCH_BLOCKED: ({ robots }) => {
    if (!robots?.parsed) return notApplicable('TECH_AI_SEARCH_BLOCKED');
    const ai = robots.robots.aiBlockedAgents ?? [];
    return result('TECH_AI_SEARCH_BLOCKED', ai.length > 0, [{ url: robots.url, evidence: { agents: ai } }]);
  },
  TECH_SITEMAP_MISSING: ({ input }) => {
    const sitemap = input.sitemap;
    if (!sitemap) return notApplicable('TECH_SITEMAP_MISSING');
    const declared = sitemap.declared ?? input.robots?.sitemaps ?? [];
    const missing = declared.length === 0 && sitemap.defaultStatus !== 200 && !sitemap.analysis;
    return result('TECH_SITEMAP_MISSING', missing, [
      { url: siteUrl(input, '/sitemap.xml'), evidence: { status: sitemap.defaultStatus ?? null } },
    ]);
  },
  TECH_SITEMAP_INVALID: ({ input }) => {
    const analysis = input.sitemap?.analysis;
    if (!analysis) return notApplicable('TECH_SITEMAP_INVALID');
    const declared = input.sitemap?.declared ?? input.robots?.sitemaps ?? [];
    const reasons: string[] = [];
    if (!analysis.valid) reasons.push('does not parse or has errors');
    if (analysis.urlCount > SITEMAP_MAX_URLS) reasons.push(`${analysis.urlCount} URLs (limit 50,000)`);
    if (analysis.sizeBytes > SITEMAP_MAX_BYTES) reasons.push(`${analysis.sizeBytes} bytes (limit 50 MiB)`);
    if ((analysis.otherHostUrls ?? 0) > 0) reasons.push(`${analysis.otherHostUrls} URLs of other hosts`);
    return result('TECH_SITEMAP_INVALID', reasons.length > 0, [
      {
        url: declared[0] ?? siteUrl(input, '/sitemap.xml'),
        evidence: { reasons, errors: (analysis.errors ?? []).slice(0, 5) },
      },
    ]);
  },
  META_FAVICON_MISSING: ({ input, pages }) => {
    const home = startPage(input, pages);
    if (!input.favicon && !home?.isHtml) return notApplicable('META_FAVICON_MISSING');
    const present = home?.hasIconLink === true || input.favicon?.status === 200;
    return result('META_FAVICON_MISSING', !present, [
      { url: siteUrl(input, '/favicon.ico'), evidence: { status: input.favicon?.status ?? null } },
    ]);
  },
  TECH_LLMS_TXT_MISSING: ({ input }) => {
    if (!input.llmsTxt) return notApplicable('TECH_LLMS_TXT_MISSING');
    return result('TECH_LLMS_TXT_MISSING', input.llmsTxt.status !== 200, [
      { url: siteUrl(input, '/llms.txt'), evidence: { status: input.llmsTxt.status } },
    ]);
  },
  TECH_HSTS_MISSING: ({ input }) => {
    if (!input.hsts) return notApplicable('TECH_HSTS_MISSING');
    const header = input.hsts.header;
    // The verdict the headers tool gives for the same response (response-verdicts.ts).
    const verdict = hstsVerdict(
      parseResponseHeaders(header === null ? {} : { 'strict-transport-security': header }),
      input.hsts.https,
    );
    if (!verdict.applies) return notApplicable('TECH_HSTS_MISSING');
    const evidence: Record<string, unknown> = { header };
    if (!verdict.enabled && verdict.reason !== 'absent')
      evidence.reason = verdict.reason === 'invalid' ? `invalid: ${verdict.error}` : 'max-age=0';
    return result('TECH_HSTS_MISSING', !verdict.enabled, [{ url: input.startUrl, evidence }]);
  },
  TECH_NOINDEX_SITEWIDE: ({ input, pages }) => noindexSitewideCheck(input, pages),
  META_TITLE_DUPLICATE: ({ pages }) =>
    duplicateFieldCheck('META_TITLE_DUPLICATE', pages, (page) => page.title, 'title'),
  META_DESCRIPTION_DUPLICATE: ({ pages }) =>
    duplicateFieldCheck('META_DESCRIPTION_DUPLICATE', pages, (page) => page.description, 'description'),
  CONTENT_DUPLICATE: ({ pages }) => duplicateContentCheck(pages),
  TECH_CANONICAL_MISSING: ({ pages }) => canonicalMissingCheck(pages),
  CONTENT_NEAR_DUPLICATE: ({ pages }) => nearDuplicateCheck(pages),
  LINKS_ORPHAN: ({ input }) => orphanCheck(input),
  TECH_SITEMAP_BLOCKED_BY_ROBOTS: ({ input }) => sitemapBlockedCheck(input),
  META_HREFLANG_NO_RETURN: ({ pages }) => hreflangReturnCheck(pages),
  // Hreflang, amphtml and rel=next/prev targets (structured-international-checks.ts)
  ...STRUCTURED_SITE_EVALUATORS,
  CONTENT_H1_DUPLICATE: ({ pages }) =>
    duplicateFieldCheck('CONTENT_H1_DUPLICATE', pages, (page) => page.h1 ?? null, 'h1'),
  // Security headers of the start page (hygiene-checks.ts)
  ...HYGIENE_SITE_EVALUATORS,
};

/**
 * Site-scope checks (robots.txt, sitemap, favicon, HSTS, llms.txt, site-wide noindex) and cross-page
 * checks over page summaries (duplicates, near duplicates, orphans, hreflang return links), plus the
 * page-scope checks that need crawl-wide data: link target statuses (from the crawled pages and
 * `input.linkTargets`), canonical targets and sitemap membership, through the same evaluators as the page
 * pass. Cost is linear in pages and links, except near-duplicate search, which is banded and budgeted
 * (see findNearDuplicates).
 */
export function runSiteChecks(input: SiteCheckInput): SiteCheckOutput {
  const pages = uniqueByFinalUrl(input.pages);
  const ctx: SiteContext = { input, pages, robots: robotsState(input) };
  const site = (Object.keys(SITE_EVALUATORS) as SiteCheckCode[]).map((code) => SITE_EVALUATORS[code](ctx));
  return { site, pages: crawlPageChecks(input, new Set(pages)) };
}

function result(code: CheckCode, failed: boolean, occurrences: Occurrence[], applicablePages = 1): SiteCheckResult {
  return { code, applicable: true, failed, occurrences: failed ? occurrences : [], applicablePages };
}

function notApplicable(code: CheckCode): SiteCheckResult {
  return { code, applicable: false, failed: false, occurrences: [], applicablePages: 0 };
}

function siteUrl(input: SiteCheckInput, path: string): string {
  try {
    return new URL(path, input.startUrl).href;
  } catch {
    return input.startUrl;
  }
}

/**
 * A redirect source and its target can both be listed; the document at a final URL counts once,
 * represented by its direct fetch when there is one.
 */
function uniqueByFinalUrl(pages: readonly PageSummary[]): PageSummary[] {
  const chosen = new Map<string, PageSummary>();
  for (const page of pages) {
    const key = normalizeUrl(page.finalUrl) ?? page.finalUrl;
    const current = chosen.get(key);
    if (!current || (current.redirected && !page.redirected)) chosen.set(key, page);
  }
  const keep = new Set(chosen.values());
  return pages.filter((page) => keep.has(page));
}

function robotsState(input: SiteCheckInput): RobotsState | null {
  const robots = input.robots;
  if (!robots) return null;
  const status = robots.status;
  const unreachable = robots.timedOut === true || status === null || status >= 500 || status === 429;
  const parsed = !unreachable && status !== null && status >= 200 && status < 300;
  return { url: siteUrl(input, '/robots.txt'), status, unreachable, parsed, robots };
}

function startPage(input: SiteCheckInput, pages: readonly PageSummary[]): PageSummary | undefined {
  const start = normalizeUrl(input.startUrl);
  return (
    pages.find((page) => normalizeUrl(page.url) === start || normalizeUrl(page.finalUrl) === start) ??
    pages.find((page) => page.depth === 0)
  );
}

function noindexSitewideCheck(input: SiteCheckInput, pages: readonly PageSummary[]): SiteCheckResult {
  const html = pages.filter((page) => page.isHtml && page.status >= 200 && page.status < 300);
  if (html.length === 0) return notApplicable('TECH_NOINDEX_SITEWIDE');
  const noindex = html.filter((page) => page.noindex).length;
  const share = noindex / html.length;
  return result(
    'TECH_NOINDEX_SITEWIDE',
    share >= T.noindexSitewideShare,
    [
      {
        url: input.startUrl,
        evidence: { noindexPages: noindex, htmlPages: html.length, share: Math.round(share * 1000) / 1000 },
      },
    ],
    html.length,
  );
}

/** Groups indexable pages by a normalized key; every member of a group of 2+ is an occurrence. */
function groupDuplicates(
  pages: readonly PageSummary[],
  keyOf: (page: PageSummary) => string | null,
): { applicable: number; groups: PageSummary[][] } {
  // A key seen once maps to its page; an array is made only for a second page (most keys are unique).
  const groups = new Map<string, PageSummary | PageSummary[]>();
  // One document under URL variants (/ and /index.html) is one page here: TECH_CANONICAL_MISSING reports it.
  const documents = new Set<string>();
  let applicable = 0;
  for (const page of pages) {
    if (!page.indexable) continue;
    const key = keyOf(page);
    if (key === null) continue;
    if (page.textHash) {
      const document = `${documentKey(page.finalUrl)} ${page.textHash}`;
      if (documents.has(document)) continue;
      documents.add(document);
    }
    applicable++;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, page);
    else if (Array.isArray(group)) group.push(page);
    else groups.set(key, [group, page]);
  }
  const duplicates: PageSummary[][] = [];
  for (const group of groups.values()) if (Array.isArray(group)) duplicates.push(group);
  return { applicable, groups: duplicates };
}

function duplicateOccurrences(
  groups: PageSummary[][],
  evidenceOf: (page: PageSummary) => Record<string, unknown>,
): Occurrence[] {
  const occurrences: Occurrence[] = [];
  for (const group of groups) {
    // The sample is drawn from the group's first SAMPLE + 1 pages: a group of n pages costs O(n), not O(n²) (one h1
    // shared by 100,000 pages must not stall the site pass).
    const head = group.slice(0, SAMPLE + 1);
    for (const page of group) {
      const others = othersIn(head, page);
      occurrences.push({
        url: page.finalUrl,
        evidence: { ...evidenceOf(page), duplicates: group.length - 1, sameAs: others },
      });
    }
  }
  return occurrences;
}

/** Up to SAMPLE URLs of a group's first SAMPLE + 1 pages other than `page` (in group order). */
function othersIn(head: readonly PageSummary[], page: PageSummary): string[] {
  const others: string[] = [];
  for (const other of head) if (other !== page && others.length < SAMPLE) others.push(other.finalUrl);
  return others;
}

function duplicateFieldCheck(
  code: 'META_TITLE_DUPLICATE' | 'META_DESCRIPTION_DUPLICATE' | 'CONTENT_H1_DUPLICATE',
  pages: readonly PageSummary[],
  field: (page: PageSummary) => string | null,
  name: string,
): SiteCheckResult {
  const { applicable, groups } = groupDuplicates(pages, (page) => {
    const value = field(page)?.replace(/\s+/g, ' ').trim().toLowerCase();
    return value ? value : null;
  });
  if (applicable === 0) return notApplicable(code);
  const occurrences = duplicateOccurrences(groups, (page) => ({ [name]: field(page) }));
  return result(code, occurrences.length > 0, occurrences, applicable);
}

function duplicateContentCheck(pages: readonly PageSummary[]): SiteCheckResult {
  const { applicable, groups } = groupDuplicates(pages, (page) =>
    page.textHash && page.wordCount > 0 ? page.textHash : null,
  );
  if (applicable === 0) return notApplicable('CONTENT_DUPLICATE');
  const occurrences = duplicateOccurrences(groups, (page) => ({ words: page.wordCount }));
  return result('CONTENT_DUPLICATE', occurrences.length > 0, occurrences, applicable);
}

/**
 * One document answering under URL variants — `/docs/` and `/docs/index.html`, `/a` and `/a/` — with the same text:
 * each variant that does not name a canonical URL leaves search engines to pick one. A variant that names one (any
 * one: a wrong target is TECH_CANONICAL_TO_BROKEN's business) is fine.
 */
function canonicalMissingCheck(pages: readonly PageSummary[]): SiteCheckResult {
  const groups = new Map<string, PageSummary[]>();
  let applicable = 0;
  for (const page of pages) {
    if (!page.isHtml || page.status < 200 || page.status >= 300 || !page.textHash) continue;
    applicable++;
    const key = documentKey(page.finalUrl);
    if (key === null) continue;
    const id = `${key} ${page.textHash}`;
    const group = groups.get(id);
    if (group) group.push(page);
    else groups.set(id, [page]);
  }
  if (applicable === 0) return notApplicable('TECH_CANONICAL_MISSING');
  const occurrences: Occurrence[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const head = group.slice(0, SAMPLE + 1);
    for (const page of group) {
      if (page.canonical !== null) continue;
      occurrences.push({ url: page.finalUrl, evidence: { sameAs: othersIn(head, page) } });
    }
  }
  return result('TECH_CANONICAL_MISSING', occurrences.length > 0, occurrences, applicable);
}

/** The URL a document would have without its directory-index file name and trailing slash. */
function documentKey(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  parsed.hash = '';
  parsed.pathname = parsed.pathname.replace(/\/(index|default)\.(html?|php|aspx?)$/i, '/').replace(/(.)\/$/, '$1');
  return parsed.href;
}

/**
 * Near duplicates among indexable pages with enough text. Exact duplicates are CONTENT_DUPLICATE's
 * business: they are collapsed to one representative first, and a match of a representative marks
 * every page sharing its text. Similarity reported = share of equal SimHash bits.
 */
function nearDuplicateCheck(pages: readonly PageSummary[]): SiteCheckResult {
  const byHash = new Map<string, PageSummary[]>();
  for (const page of pages) {
    if (!page.indexable || !page.simhash || !page.textHash || page.wordCount < T.nearDuplicateMinWords) continue;
    const group = byHash.get(page.textHash);
    if (group) group.push(page);
    else byHash.set(page.textHash, [page]);
  }
  const representatives = [...byHash.values()];
  const applicable = representatives.reduce((sum, group) => sum + group.length, 0);
  if (applicable === 0) return notApplicable('CONTENT_NEAR_DUPLICATE');
  const matches = findNearDuplicates(
    representatives.map((group) => group[0].simhash!),
    { maxDistance: T.nearDuplicateMaxHamming, maxComparisons: T.nearDuplicateMaxComparisons },
  );
  const occurrences: Occurrence[] = [];
  matches.forEach((match, index) => {
    if (!match) return;
    const partner = representatives[match.partner][0];
    const similarity = Math.round((1 - match.distance / 64) * 1000) / 10;
    for (const page of representatives[index]) {
      occurrences.push({
        url: page.finalUrl,
        evidence: { similarTo: partner.finalUrl, similarity, hammingDistance: match.distance },
      });
    }
  });
  return result('CONTENT_NEAR_DUPLICATE', occurrences.length > 0, occurrences, applicable);
}

function orphanCheck(input: SiteCheckInput): SiteCheckResult {
  const sitemapUrls = input.sitemap?.urls;
  // List mode follows no link: no page's inlinks are known.
  if (!sitemapUrls || sitemapUrls.length === 0 || input.pages.length === 0 || input.crawlTruncated || input.listMode)
    return notApplicable('LINKS_ORPHAN');
  // Pages share most link targets: normalize each distinct one once, not once per link.
  const targets = new Set<string>();
  for (const page of input.pages) for (const target of page.internalLinks) targets.add(target);
  const linked = new Set<string>();
  for (const target of targets) linked.add(normalizeUrl(target) ?? target);
  // A link to a URL that redirects is an inlink of the redirect's target.
  for (const page of input.pages) {
    const from = normalizeUrl(page.url);
    if (page.redirected && from !== null && linked.has(from)) linked.add(normalizeUrl(page.finalUrl) ?? page.finalUrl);
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
    if (!linked.has(url)) occurrences.push({ url, evidence: { inlinks: 0 } });
  }
  if (applicable === 0) return notApplicable('LINKS_ORPHAN');
  return result('LINKS_ORPHAN', occurrences.length > 0, occurrences, applicable);
}

/**
 * Sitemap URLs robots.txt disallows (the crawler lists them; they are also among `urls`): applies once both were read.
 */
function sitemapBlockedCheck(input: SiteCheckInput): SiteCheckResult {
  const urls = input.sitemap?.urls ?? [];
  const blocked = input.sitemap?.blockedByRobots ?? [];
  const robotsStatus = input.robots?.status ?? null;
  // Without a readable robots.txt there are no rules to block a URL (4xx) or the whole site is shut (5xx).
  if (urls.length === 0 || robotsStatus === null || robotsStatus < 200 || robotsStatus >= 300)
    return notApplicable('TECH_SITEMAP_BLOCKED_BY_ROBOTS');
  const occurrences = blocked.map((url): Occurrence => ({
    url,
    evidence: { rule: 'disallowed by robots.txt', robotsTxt: siteUrl(input, '/robots.txt') },
  }));
  return result('TECH_SITEMAP_BLOCKED_BY_ROBOTS', occurrences.length > 0, occurrences, urls.length);
}

function hreflangReturnCheck(pages: readonly PageSummary[]): SiteCheckResult {
  // Most sites have no hreflang at all: then there is no need to index every page by URL.
  if (!pages.some((page) => page.indexable && page.hreflang.length > 0))
    return notApplicable('META_HREFLANG_NO_RETURN');
  const byUrl = new Map<string, PageSummary>();
  for (const page of pages) {
    byUrl.set(normalizeUrl(page.finalUrl) ?? page.finalUrl, page);
    const requested = normalizeUrl(page.url);
    if (requested !== null && !byUrl.has(requested)) byUrl.set(requested, page);
  }
  const occurrences: Occurrence[] = [];
  let applicable = 0;
  for (const page of pages) {
    if (!page.indexable || page.hreflang.length === 0) continue;
    const self = normalizeUrl(page.finalUrl);
    const missing: string[] = [];
    let known = 0;
    for (const entry of page.hreflang) {
      const targetUrl = normalizeUrl(entry.url);
      if (targetUrl === null || targetUrl === self) continue;
      const target = byUrl.get(targetUrl);
      if (!target || !target.isHtml || target.status < 200 || target.status >= 300) continue;
      known++;
      const returns = target.hreflang.some((back) => normalizeUrl(back.url) === self);
      if (!returns && missing.length < 5) missing.push(target.finalUrl);
    }
    if (known === 0) continue;
    applicable++;
    if (missing.length > 0) occurrences.push({ url: page.finalUrl, evidence: { targetsWithoutReturn: missing } });
  }
  if (applicable === 0) return notApplicable('META_HREFLANG_NO_RETURN');
  return result('META_HREFLANG_NO_RETURN', occurrences.length > 0, occurrences, applicable);
}

/**
 * Link-target checks once per document (`documents`: pages deduplicated by final URL) and the
 * sitemap-membership check for every listed URL, redirect sources included.
 */
function* crawlPageChecks(input: SiteCheckInput, documents: ReadonlySet<PageSummary>): Generator<PageCheckResults> {
  const known = new Map<string, LinkTargetInfo>();
  for (const page of input.pages) {
    const final = normalizeUrl(page.finalUrl);
    // A crawled HTML document's canonical (null: none) lets link checks tell a page from its duplicates.
    const canonical = page.isHtml ? { canonical: page.canonical } : {};
    if (final !== null && !known.has(final))
      known.set(final, { status: page.status === 0 ? null : page.status, noindex: page.noindex, ...canonical });
    const requested = normalizeUrl(page.url);
    if (requested !== null && requested !== final) {
      known.set(requested, {
        status: page.status === 0 ? null : page.status,
        redirected: page.redirected,
        noindex: page.noindex,
      });
    }
  }
  const extra = input.linkTargets;
  const lookup = (url: string): LinkTargetInfo | undefined => known.get(url) ?? extra?.get(url);
  const sitemap = input.sitemap?.urls ? new Set(input.sitemap.urls.map((url) => normalizeUrl(url) ?? url)) : null;

  for (const page of input.pages) {
    const results: CheckResult[] = [];
    if (documents.has(page) && page.isHtml && page.status >= 200 && page.status < 300) {
      const outcomes = evaluateLinkTargets(
        {
          selfUrl: page.finalUrl,
          selfNoindex: page.noindex,
          internalLinks: page.internalLinks,
          externalLinks: page.externalLinks,
          canonical: page.canonical,
          resources: page.resources,
        },
        lookup,
      );
      for (const code of LINK_TARGET_CODES) {
        const outcome = outcomes[code];
        if (outcome === null) continue;
        const entry: CheckResult = { code, applicable: true, failed: outcome.failed };
        if (outcome.evidence) entry.evidence = outcome.evidence;
        results.push(entry);
      }
    }
    const listed =
      page.inSitemap ??
      (sitemap !== null &&
        (sitemap.has(normalizeUrl(page.url) ?? page.url) || sitemap.has(normalizeUrl(page.finalUrl) ?? page.finalUrl)));
    if (listed) {
      const outcome = sitemapListingOutcome(page);
      const entry: CheckResult = { code: 'TECH_SITEMAP_NON_INDEXABLE', applicable: true, failed: outcome.failed };
      if (outcome.evidence) entry.evidence = outcome.evidence;
      results.push(entry);
    }
    if (results.length > 0) yield { url: page.url, results };
  }
}
