/** What the fix engines (rules and language model) know about one failing check on one page. */
export interface FixInput {
  /** A catalog code (checks/index.ts CheckCode; a string here, so the fixes import nothing derived from the checks). */
  code: string;
  /** The page (or file, for site checks) the issue occurrence is about. */
  url: string;
  /** The occurrence's evidence as the check recorded it (shape per code, see page-checks.ts / site-checks.ts). */
  evidence: Record<string, unknown> | null;
  /** Facts of the page's HTML, when it could be read; site checks and failed fetches have none. */
  page: FixPageContext | null;
}

export interface FixHeading {
  level: number;
  text: string;
}

export interface FixImage {
  /** `src` as written (or `data-src` for lazy images without one). */
  src: string;
  /** Resolved absolute URL; null when unresolvable. */
  url: string | null;
  /** null when the attribute is absent; "" marks a decorative image. */
  alt: string | null;
}

export interface FixLink {
  href: string;
  /** Resolved absolute URL without fragment; null for javascript:, mailto: and unresolvable hrefs. */
  url: string | null;
  text: string;
}

/** A small, bounded digest of one HTML page: enough to write page-specific fixes, never the whole document. */
export interface FixPageContext {
  url: string;
  title: string | null;
  description: string | null;
  h1: string[];
  headings: FixHeading[];
  /**
   * First visible paragraphs of body text, bounded: those of <main> (else <article>) when the page marks one;
   * navigation, menus, breadcrumbs, site header and footer, skip links and consent banners never.
   */
  paragraphs: string[];
  lang: string | null;
  /** Resolved canonical URL (the href as written when it does not resolve). */
  canonical: string | null;
  images: FixImage[];
  links?: FixLink[];
  /** og:site_name, the brand used in title proposals. */
  siteName?: string | null;
  /** og:locale (e.g. en_US), a language hint. */
  locale?: string | null;
  /** og:image, resolved. */
  ogImage?: string | null;
  hreflang?: { lang: string; href: string }[];
  /** The brand affix the site's other pages put in their titles; title proposals follow it. */
  sitePattern?: SiteTitlePattern | null;
  /**
   * META_TITLE_DUPLICATE: every crawled page sharing this page's title (this page too), with its h1, and which of
   * the titles the twins may be given the site already has (lower case): each twin is proposed a title of its own.
   */
  titleTwins?: { url: string; h1: string | null }[];
  takenTitles?: string[];
}

/** How a site brands its titles, read from its other pages' titles (site-title-pattern.ts). */
export interface SiteTitlePattern {
  position: 'suffix' | 'prefix';
  /** Exactly as the titles write it, separator included: " | Acme" (suffix) or "Acme: " (prefix). */
  affix: string;
  /** The affix without its separator: "Acme". */
  brand: string;
  /** " | ", " — ", ": "…, spaces included. */
  separator: string;
  /** How many of `total` distinct titles carry the affix. */
  support: number;
  total: number;
}

/** A fix: what to do, in order, and a snippet to paste when one applies. */
export interface FixProposal {
  summary: string;
  steps: string[];
  code?: string;
}

/** Bounds of the page digest and of a proposal (the same bounds the API and the LLM answer obey). */
export const FIX_LIMITS = {
  paragraphs: 10,
  paragraphChars: 2_000,
  headings: 40,
  headingChars: 200,
  images: 50,
  links: 100,
  linkTextChars: 100,
  hreflang: 30,
  metaChars: 1_000,
  urlChars: 2_048,
  summaryChars: 500,
  steps: 10,
  stepChars: 500,
  codeChars: 4_000,
} as const;
