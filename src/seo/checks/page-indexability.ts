import { normalizeUrl, type PageFacts } from '../page/index.js';
import type { PageFetch } from './check.types.js';
import type { CheckOutcome } from './check-outcome.js';

export type NonIndexableReason = 'error-status' | 'redirect' | 'not-html' | 'noindex' | 'canonicalized' | 'no-response';

/** The page's effective canonical: the first HTML one, else the Link header one. */
export function effectiveCanonical(facts: PageFacts | null): string | null {
  if (!facts) return null;
  return facts.canonicals.find((canonical) => canonical.url !== null)?.url ?? facts.headerCanonical;
}

/**
 * Why a search engine would not index the document at `finalUrl`, or null when it would: it must answer
 * 2xx with HTML, without noindex, and be its own canonical (or have none). Redirects followed on the way
 * concern the linked URL, not the document; `wasRedirected` tells those apart.
 */
export function nonIndexableReason(
  facts: PageFacts | null,
  page: Pick<PageFetch, 'finalUrl' | 'status'>,
): NonIndexableReason | null {
  if (page.status === 0) return 'no-response';
  if (page.status >= 300 && page.status < 400) return 'redirect';
  if (page.status < 200 || page.status >= 300) return 'error-status';
  if (!facts) return 'not-html';
  if (facts.robots.noindex) return 'noindex';
  const canonical = effectiveCanonical(facts);
  if (canonical !== null) {
    const target = normalizeUrl(canonical);
    if (target !== null && target !== normalizeUrl(page.finalUrl)) return 'canonicalized';
  }
  return null;
}

/** The linked URL is not the document's URL: a redirect was followed to reach it. */
export function wasRedirected(page: Pick<PageFetch, 'url' | 'finalUrl' | 'redirects'>): boolean {
  return page.redirects.length > 0 && normalizeUrl(page.url) !== normalizeUrl(page.finalUrl);
}

/**
 * What TECH_SITEMAP_NON_INDEXABLE reads of a listed URL: PageSummary's fields, or the same derived in the page pass.
 */
export interface ListedDocument {
  /** The listed URL redirected to another document. */
  redirected: boolean;
  status: number;
  finalUrl: string;
  isHtml: boolean;
  noindex: boolean;
  /** 2xx HTML without noindex that is its own canonical (nonIndexableReason is null). */
  indexable: boolean;
}

/**
 * TECH_SITEMAP_NON_INDEXABLE for one URL the sitemap lists; the page pass and the site pass both decide through
 * it. A PDF or image in a sitemap is fine: only HTML can carry noindex or a canonical.
 */
export function sitemapListingOutcome(listed: ListedDocument): NonNullable<CheckOutcome> {
  const { status } = listed;
  const reason: NonIndexableReason | null = listed.redirected
    ? 'redirect'
    : status === 0
      ? 'no-response'
      : status >= 300 && status < 400
        ? 'redirect'
        : status < 200 || status >= 300
          ? 'error-status'
          : listed.noindex
            ? 'noindex'
            : listed.isHtml && !listed.indexable
              ? 'canonicalized'
              : null;
  return reason === null
    ? { failed: false }
    : { failed: true, evidence: { reason, status, finalUrl: listed.finalUrl } };
}
