import { normalizeUrl, type PageFacts } from '../page/index.js';
import type { PageFetch, PageSummary } from './check.types.js';
import { effectiveCanonical, nonIndexableReason, wasRedirected } from './page-indexability.js';

export interface SummaryLimits {
  /** Internal link targets kept per page (orphan, broken-link and redirect checks see only these). */
  maxInternalLinks?: number;
  /**
   * External link targets kept per page: the broken-link checks judge only these. Every distinct target is checked
   * (ExternalLinks), so the cap is high: a release-notes page of the PostgreSQL manual links ~400.
   */
  maxExternalLinks?: number;
  maxHreflang?: number;
  /** Subresources kept per page (broken image and resource checks see only these). */
  maxResources?: number;
}

const DEFAULT_LIMITS: Required<SummaryLimits> = {
  maxInternalLinks: 500,
  maxExternalLinks: 1000,
  maxHreflang: 100,
  maxResources: 100,
};

/** Reduces a fetched page to the small record site-wide checks need; the HTML and facts can then be dropped. */
export function summarizePage(facts: PageFacts | null, page: PageFetch, limits: SummaryLimits = {}): PageSummary {
  const { maxInternalLinks, maxExternalLinks, maxHreflang, maxResources } = { ...DEFAULT_LIMITS, ...limits };
  const ok = page.status >= 200 && page.status < 300;
  const self = normalizeUrl(page.finalUrl);
  const internal = new Set<string>();
  const external = new Set<string>();
  const hreflang: PageSummary['hreflang'] = [];
  const resources: PageSummary['resources'] = [];
  if (facts && ok) {
    for (const link of facts.links) {
      if (link.kind !== 'http' || link.url === null || link.url === self) continue;
      if (link.internal) {
        if (internal.size < maxInternalLinks) internal.add(link.url);
      } else if (external.size < maxExternalLinks) {
        external.add(link.url);
      }
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
  if (page.inSitemap !== undefined) summary.inSitemap = page.inSitemap;
  if (facts && ok && facts.ampHtml?.url) summary.ampHtml = facts.ampHtml.url;
  const series = facts && ok ? (facts.pagination ?? []).filter((link) => link.url !== null) : [];
  if (series.length > 0) summary.pagination = series.map((link) => ({ rel: link.rel, url: link.url! }));
  return summary;
}
