import type { ResourceKind } from '../page/index.js';

/**
 * The small per-page record the crawler keeps for site-wide checks (never the HTML). Link lists hold every distinct
 * target of the links the page's facts read; a page with more links than are read says how many were not
 * (`linksNotRead`).
 */
export interface PageSummary {
  url: string;
  finalUrl: string;
  status: number;
  depth: number;
  redirected: boolean;
  isHtml: boolean;
  indexable: boolean;
  noindex: boolean;
  /** Resolved canonical (HTML first, then Link header); null when none. */
  canonical: string | null;
  title: string | null;
  description: string | null;
  /** Text of the first h1 (CONTENT_H1_DUPLICATE); absent or null when none. */
  h1?: string | null;
  textHash: string | null;
  simhash: string | null;
  wordCount: number;
  hasIconLink: boolean;
  /** Internal http(s) link targets without fragment, deduplicated, self excluded: all of the links read. */
  internalLinks: string[];
  /** External link targets, deduplicated: all of the links read. */
  externalLinks: string[];
  /** A 2xx HTML page's links (`<a>`/`<area>`), read or not (PageFacts.linkCount); absent for other URLs. */
  linkCount?: number;
  /** Of linkCount, the links past the per-page cap, not read (not followed, checked or listed); absent when none. */
  linksNotRead?: number;
  /** Resolvable hreflang alternates. */
  hreflang: { lang: string; url: string }[];
  /** Subresources the page loads (images, scripts, stylesheets, icons, media), deduplicated, bounded. */
  resources: { url: string; kind: ResourceKind }[];
  inSitemap?: boolean;
  /** Resolved `<link rel="amphtml">` target (TECH_AMP_LINK_BROKEN); absent or null when none. */
  ampHtml?: string | null;
  /** Resolved `<link rel="next|prev">` targets (LINKS_PAGINATION_BROKEN), bounded. */
  pagination?: { rel: 'next' | 'prev'; url: string }[];
}
