import {
  nonIndexableReason,
  pageRenderingRecord,
  structuredDataTypes,
  wasRedirected,
  type PageFetch,
  type PageRenderingRecord,
  type PageSummary,
} from '../seo/checks/index.js';
import { firstHeader, linksNotRead, normalizeUrl, type LinkPosition, type PageFacts } from '../seo/page/index.js';
import type { PageExtraction } from '../seo/extraction/index.js';

/**
 * What a crawled URL turned out to be. Only HTML documents are pages (scored, counted as pages); the others are
 * listed so that a person can see them: redirects with their target, error answers, other files (PDFs, images),
 * and URLs that got no usable response.
 */
export type AuditPageKind = 'HTML' | 'REDIRECT' | 'ERROR' | 'FILE' | 'FAILED';

/** What the page view shows of a URL beyond the explorer's columns (the `audit_page.details` document). */
export interface AuditPageDetails {
  /** Redirect responses from this URL, in order; the row's finalUrl is where they ended. */
  redirects?: { url: string; status: number }[];
  contentType?: string;
  /** The robots.txt verdict on this URL for the crawler's user agent. */
  robotsTxt?: 'allowed' | 'disallowed' | 'no-rules';
  /** `<meta name="robots">` / googlebot contents and X-Robots-Tag values, as written. */
  robotsMeta?: string[];
  xRobotsTag?: string[];
  /** Why the document is not indexable (noindex, canonicalized, error-status…); absent when it is. */
  nonIndexable?: string;
  h1?: string[];
  lang?: string;
  hreflang?: { lang: string; url: string }[];
  structuredData?: string[];
  resources?: { url: string; kind: string }[];
  /** The HTML was over the crawler's size cap: only its first `bytes` were analysed. */
  bodyCapped?: boolean;
  /** The page's links (`<a>`, `<area>`), read or not (an analysed document's). */
  linkCount?: number;
  /** Of linkCount, the links past the per-page cap (PAGE_FACT_LIMITS.links): not followed, checked or listed. */
  linksNotRead?: number;
}

export interface AuditPageRow {
  url: string;
  finalUrl: string;
  statusCode: number | null;
  kind: AuditPageKind;
  depth: number;
  title: string | null;
  metaDescription: string | null;
  canonical: string | null;
  indexable: boolean;
  wordCount: number;
  responseTimeMs: number | null;
  bytes: number;
  contentHash: string | null;
  outlinks: number;
  error: string | null;
  details: AuditPageDetails | null;
  /** Browser rendering mode: the raw HTML beside the rendered page (`audit_page.rendering`); absent in html mode. */
  rendering?: PageRenderingRecord | null;
  /** The project's custom extractors' results by key (`audit_page.extraction`); absent without extractors. */
  extraction?: PageExtraction | null;
}

/** One followable link of a crawled page: the audit's link graph, read as a page's inlinks and outlinks. */
export interface AuditLinkRow {
  sourceUrl: string;
  targetUrl: string;
  /** Visible text, or the aria-label, or the alt of an image inside the link. */
  anchor: string;
  rel: string | null;
  internal: boolean;
  /** Where on the source page the link sits (`audit_link.position`). */
  position: AuditLinkPosition;
}

/** LinkFact's position as stored and served (`audit_link.position`, the GraphQL LinkPosition enum). */
export type AuditLinkPosition = Uppercase<LinkPosition>;

/**
 * The URL the fetched document is recorded under: the final URL when redirects led to another URL (the redirecting
 * URL gets a REDIRECT row of its own), else the URL as queued.
 */
export function documentUrlOf(fetch: PageFetch): string {
  if (fetch.redirectLoop || fetch.fetchError !== undefined || !wasRedirected(fetch)) return fetch.url;
  return normalizeUrl(fetch.finalUrl) ?? fetch.finalUrl;
}

const MAX_DETAIL_RESOURCES = 100;
const MAX_DETAIL_HREFLANG = 50;

/**
 * The explorer rows of one fetch (`documentUrl`: documentUrlOf(fetch)): a REDIRECT row for a URL that redirected
 * elsewhere, then (unless the target has a fetch of its own) the row of what the redirects ended on, or of the URL
 * itself when there were none.
 */
export function pageRowsOf(
  fetch: PageFetch,
  documentUrl: string,
  facts: PageFacts | null,
  summary: PageSummary,
  error: string | null,
): AuditPageRow[] {
  const rows: AuditPageRow[] = [];
  if (documentUrl !== fetch.url) {
    rows.push({
      ...emptyRow(fetch),
      statusCode: fetch.redirects[0].status,
      kind: 'REDIRECT',
      finalUrl: documentUrl,
      details: { redirects: fetch.redirects.map((hop) => ({ url: hop.url, status: hop.status })) },
    });
    if (fetch.redirectTargetSeparate) return rows;
  }
  const base = emptyRow(fetch);
  const details: AuditPageDetails = {};
  if (documentUrl === fetch.url && fetch.redirects.length)
    details.redirects = fetch.redirects.map((hop) => ({ url: hop.url, status: hop.status }));
  const contentType = firstHeader(fetch.headers, 'content-type');
  if (contentType) details.contentType = contentType;
  if (fetch.robotsTxt) details.robotsTxt = fetch.robotsTxt;
  const row: AuditPageRow = {
    ...base,
    url: documentUrl,
    finalUrl: fetch.finalUrl,
    kind: kindOf(fetch, facts, error),
    title: summary.title,
    metaDescription: summary.description,
    canonical: summary.canonical,
    indexable: summary.indexable,
    wordCount: summary.wordCount,
    contentHash: summary.textHash,
    outlinks: summary.internalLinks.length + summary.externalLinks.length,
    error,
    details,
    rendering: pageRenderingRecord(fetch, facts),
    extraction: facts?.extraction ?? null,
  };
  if (facts) {
    const robotsMeta = [...facts.robots.meta, ...facts.robots.googlebotMeta];
    if (robotsMeta.length) details.robotsMeta = robotsMeta;
    if (facts.robots.header.length) details.xRobotsTag = facts.robots.header;
    const h1 = facts.headings.filter((h) => h.level === 1).map((h) => h.text);
    if (h1.length) details.h1 = h1;
    if (facts.lang) details.lang = facts.lang;
    const hreflang = facts.hreflang.filter((h) => h.url !== null).slice(0, MAX_DETAIL_HREFLANG);
    if (hreflang.length) details.hreflang = hreflang.map((h) => ({ lang: h.lang, url: h.url! }));
    const types = structuredDataTypes(facts.jsonLd);
    if (types.length) details.structuredData = types;
    const resources = facts.resources.slice(0, MAX_DETAIL_RESOURCES);
    if (resources.length) details.resources = resources.map((r) => ({ url: r.url, kind: r.kind }));
    if (fetch.bodyCapped) details.bodyCapped = true;
    details.linkCount = facts.linkCount;
    const notRead = linksNotRead(facts);
    if (notRead > 0) details.linksNotRead = notRead;
  }
  const reason = fetch.status > 0 ? nonIndexableReason(facts, fetch) : null;
  if (reason !== null) details.nonIndexable = reason;
  rows.push(row);
  return rows;
}

/** The page's followable links (http(s), any host), as written: one row per link, duplicates included. */
export function linkRowsOf(sourceUrl: string, facts: PageFacts | null): AuditLinkRow[] {
  if (!facts) return [];
  const rows: AuditLinkRow[] = [];
  for (const link of facts.links) {
    if (link.kind !== 'http' || link.url === null) continue;
    rows.push({
      sourceUrl,
      targetUrl: link.url,
      anchor: link.label ?? link.text,
      rel: link.rel ?? null,
      internal: link.internal,
      position: link.position.toUpperCase() as AuditLinkPosition,
    });
  }
  return rows;
}

function kindOf(fetch: PageFetch, facts: PageFacts | null, error: string | null): AuditPageKind {
  if (error !== null || fetch.status === 0) return 'FAILED';
  if (fetch.status >= 300 && fetch.status < 400) return 'REDIRECT';
  if (fetch.status >= 400 || fetch.status < 200) return 'ERROR';
  return facts ? 'HTML' : 'FILE';
}

function emptyRow(fetch: PageFetch): AuditPageRow {
  return {
    url: fetch.url,
    finalUrl: fetch.finalUrl,
    statusCode: fetch.status || null,
    kind: 'FAILED',
    depth: fetch.depth,
    title: null,
    metaDescription: null,
    canonical: null,
    indexable: false,
    wordCount: 0,
    responseTimeMs: fetch.responseMs ?? null,
    bytes: fetch.bytes,
    contentHash: null,
    outlinks: 0,
    error: null,
    details: null,
  };
}

/** One failing check on one URL, with its evidence: a row of issue_occurrence. */
export interface OccurrenceRecord {
  code: string;
  url: string;
  evidence: Record<string, unknown> | null;
}
