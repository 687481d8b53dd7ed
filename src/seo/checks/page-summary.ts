import { linksNotRead, normalizeUrl, type PageFacts } from '../page/index.js';
import type { PageFetch, PageSummary } from './check.types.js';
import { effectiveCanonical, nonIndexableReason, wasRedirected } from './page-indexability.js';

/**
 * Bounds of the lists a summary keeps. Link targets have none: every distinct target of the links the page's facts
 * read (PAGE_FACT_LIMITS.links) is kept, as URL ids of the store (4 bytes each), so the broken-link, redirect and
 * orphan checks and the inlink counts see every link read, and a broken target is always a broken link of its pages.
 */
export interface SummaryLimits {
  maxHreflang?: number;
  /** Subresources kept per page (broken image and resource checks see only these). */
  maxResources?: number;
}

const DEFAULT_LIMITS: Required<SummaryLimits> = {
  maxHreflang: 100,
  maxResources: 100,
};

/** Reduces a fetched page to the small record site-wide checks need; the HTML and facts can then be dropped. */
export function summarizePage(facts: PageFacts | null, page: PageFetch, limits: SummaryLimits = {}): PageSummary {
  const { maxHreflang, maxResources } = { ...DEFAULT_LIMITS, ...limits };
  const ok = page.status >= 200 && page.status < 300;
  const self = normalizeUrl(page.finalUrl);
  const internal = new Set<string>();
  const external = new Set<string>();
  const hreflang: PageSummary['hreflang'] = [];
  const resources: PageSummary['resources'] = [];
  if (facts && ok) {
    for (const link of facts.links) {
      if (link.kind !== 'http' || link.url === null || link.url === self) continue;
      (link.internal ? internal : external).add(link.url);
    }
    for (const entry of facts.hreflang) {
      if (hreflang.length >= maxHreflang) break;
      if (entry.url !== null) hreflang.push({ lang: entry.lang, url: entry.url });
    }
    for (const resource of facts.resources) {
      if (resources.length >= maxResources) break;
      resources.push({ url: resource.url, kind: resource.kind });
    }
  }
  const summary: PageSummary = {
    url: page.url,
    finalUrl: page.finalUrl,
    status: page.status,
    depth: page.depth,
    redirected: wasRedirected(page),
    isHtml: facts !== null,
    indexable: ok && nonIndexableReason(facts, page) === null,
    noindex: facts?.robots.noindex ?? false,
    canonical: effectiveCanonical(facts),
    title: facts?.titles[0] ?? null,
    description: facts?.descriptions[0] ?? null,
    h1: facts?.headings.find((heading) => heading.level === 1)?.text ?? null,
    textHash: facts ? facts.textHash : null,
    simhash: facts ? facts.simhash : null,
    wordCount: facts?.wordCount ?? 0,
    hasIconLink: facts?.hasFavicon ?? false,
    internalLinks: [...internal],
    externalLinks: [...external],
    hreflang,
    resources,
  };
  if (facts && ok) {
    summary.linkCount = facts.linkCount;
    const notRead = linksNotRead(facts);
    if (notRead > 0) summary.linksNotRead = notRead;
  }
  if (page.inSitemap !== undefined) summary.inSitemap = page.inSitemap;
  if (facts && ok && facts.ampHtml?.url) summary.ampHtml = facts.ampHtml.url;
  const series = facts && ok ? (facts.pagination ?? []).filter((link) => link.url !== null) : [];
  if (series.length > 0) summary.pagination = series.map((link) => ({ rel: link.rel, url: link.url! }));
  return summary;
}
