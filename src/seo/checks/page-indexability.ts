import { isSameSite, normalizeUrl, type PageFacts } from '../page/index.js';
import type { PageFetch } from './check.types.js';
import type { CheckOutcome } from './check-outcome.js';
import { refreshRedirectTarget } from './meta-refresh.js';

/**
 * `canonicalized`: the page names another URL of its own site as canonical; `canonical-other-host`: a URL of another
 * host (www. and the bare host count as one), so the site as audited does not hold the indexed copy.
 */
export type NonIndexableReason =
  'error-status' | 'redirect' | 'not-html' | 'noindex' | 'canonicalized' | 'canonical-other-host' | 'no-response';

/**
 * The page's effective canonical: the first HTML one, else the Link header one. Only an http(s) URL counts: search
 * engines ignore a `file:` (or other non-web) canonical, as they do one that does not resolve (TECH_CANONICAL_INVALID).
 */
export function effectiveCanonical(facts: PageFacts | null): string | null {
  if (!facts) return null;
  const html = facts.canonicals.find((canonical) => isWebUrl(canonical.url))?.url;
  return html ?? (isWebUrl(facts.headerCanonical) ? facts.headerCanonical : null);
}

/** An absolute http(s) URL with a host: the only kind of canonical search engines follow. */
export function isWebUrl(url: string | null): url is string {
  if (url === null || !/^https?:/i.test(url)) return false;
  try {
    return new URL(url).hostname !== '';
  } catch {
    return false;
  }
}

/** The canonical's host when it is another site's than the page's (www. and the bare host count as one). */
export function canonicalOtherHost(canonical: string, pageUrl: string): string | null {
  try {
    const target = new URL(canonical);
    return isSameSite(target, new URL(pageUrl)) ? null : target.host;
  } catch {
    return null;
  }
}

/**
 * Why a search engine would not index the document at `finalUrl`, or null when it would: it must answer
 * 2xx with HTML, without noindex, without an instant meta refresh to another URL, and be its own canonical (or have
 * none). Redirects followed on the way
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
  // An instant meta refresh to another URL: a redirect stub, treated by search engines as the redirect it is.
  if (refreshRedirectTarget(facts, page.finalUrl) !== null) return 'redirect';
  if (facts.robots.noindex) return 'noindex';
  const canonical = effectiveCanonical(facts);
  if (canonical !== null) {
    const target = normalizeUrl(canonical);
    if (target !== null && target !== normalizeUrl(page.finalUrl))
      return canonicalOtherHost(canonical, page.finalUrl) === null ? 'canonicalized' : 'canonical-other-host';
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
