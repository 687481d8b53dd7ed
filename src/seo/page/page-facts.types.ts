import type { ExtractorSpec, PageExtraction } from '../extraction/index.js';
/** Response headers as the crawler or a tool received them; names are matched case-insensitively. */
export type HeaderMap = Readonly<Record<string, string | string[] | undefined>>;

export interface PageContext {
  /** URL the document was served from (after redirects); relative URLs resolve against it. */
  url: string;
  headers?: HeaderMap;
  status?: number;
  /** The project's custom extractors (src/seo/extraction): absent, the page costs nothing more. */
  extraction?: PageExtractionRequest;
}

export interface PageExtractionRequest {
  specs: ExtractorSpec[];
  /** The time budget of the page's extractors (EXTRACTION_LIMITS.pageBudgetMs when absent). */
  budgetMs?: number;
  /**
   * Set on a page analysed again after a hard stop: the index (in specs) of the extractor that overran, which with
   * every extractor after it is `'timeout'` without running.
   */
  timedOutFrom?: number;
}

/** Bounds that keep one page's facts small whatever the document holds. */
export const PAGE_FACT_LIMITS = {
  /**
   * Links read per page (`<a>`/`<area>`; PageFacts.links): every link of any real page (a manual's largest index
   * page has ~10,500). A guard against a hostile page (5 MiB of `<a href=1>` is ~400,000 links): the links past it
   * are counted (linkCount) and said on the page view and in the audit's counts, never silently dropped.
   */
  links: 100_000,
  /**
   * Characters of resolved link URLs read per page, the second guard: a short href resolves against a `<base>` of up
   * to 2,048 characters, so 100,000 links could hold 200 MB of URLs. Links past it are not read either.
   */
  linkUrlChars: 8_000_000,
  images: 1_000,
  /** Distinct subresource URLs kept per page (images, scripts, stylesheets, icons, media). */
  resources: 300,
  headings: 300,
  titles: 10,
  descriptions: 10,
  canonicals: 10,
  hreflang: 500,
  openGraphKeys: 60,
  twitterKeys: 40,
  jsonLdBlocks: 50,
  jsonLdBlockBytes: 512 * 1024,
  ids: 20_000,
  samples: 10,
  /** Characters kept of a heading, link text or attribute value. */
  textChars: 300,
  /** Characters kept of a title or meta description (long enough to measure any realistic one). */
  metaTextChars: 1_000,
  urlChars: 2_048,
} as const;

export interface RobotsDirectives {
  /** `content` of every `<meta name="robots">`, as written. */
  meta: string[];
  /** `content` of every `<meta name="googlebot">`. */
  googlebotMeta: string[];
  /** X-Robots-Tag header values, as received. */
  header: string[];
  /** Effective for Google (generic or googlebot-specific, meta or header). */
  noindex: boolean;
  nofollow: boolean;
  /** Where noindex came from, empty when indexable. */
  noindexSources: ('meta' | 'googlebot-meta' | 'header')[];
}

export interface CanonicalFact {
  href: string;
  /** Resolved absolute URL, null when unresolvable. */
  url: string | null;
  inBody: boolean;
}

export interface HreflangFact {
  lang: string;
  href: string;
  url: string | null;
  source: 'html' | 'header';
}

export type JsonLdBlock = { ok: true; value: unknown } | { ok: false; error: string; skipped?: boolean };

export interface HeadingFact {
  level: number;
  text: string;
}

export interface ImageFact {
  src: string;
  url: string | null;
  /** null when the attribute is absent; "" is a valid decorative alt. */
  alt: string | null;
  hasWidth: boolean;
  hasHeight: boolean;
  /** The width and height attributes as written (clipped), when present: the size the page declares. */
  width?: string;
  height?: string;
  /** The loading attribute, lower-cased, when present ("lazy", "eager"). */
  loading?: string;
  /** A script lazy-loads it: the real URL is in data-src or data-srcset. */
  scriptLazy?: true;
  /** No src, srcset, data-src or data-srcset with a non-blank value: the element shows nothing. */
  noSource?: true;
  /** Characters of visible body text before the element (how far down the page it starts). */
  textBefore?: number;
}

/**
 * `http`: a crawlable http(s) link; `fragment`: same-page link (`#id`, `#`, an empty href); `other`: valid non-web
 * scheme (mailto:, tel:, a `javascript:` action) or an anchor with a role or name; `uncrawlable` (Lighthouse's
 * crawlable-anchors rules): `javascript:void(0)`, `file:`, unparsable, or an `<a>` without href that acts as a link
 * (an onclick, or target/rel/download… that only an href gives meaning to).
 */
export type LinkKind = 'http' | 'fragment' | 'other' | 'uncrawlable';

/**
 * Where on the page a link sits: in the page's header (banner), a navigation block, the content, an aside
 * (complementary) or the page's footer (contentinfo); see LinkPositionTracker for the rules.
 */
export type LinkPosition = 'header' | 'navigation' | 'content' | 'aside' | 'footer';

export const LINK_POSITIONS: readonly LinkPosition[] = ['header', 'navigation', 'content', 'aside', 'footer'];

export interface LinkFact {
  href: string;
  kind: LinkKind;
  /** Absolute URL without fragment (kind `http` only). */
  url: string | null;
  /** Same site as the page (www. and bare host count as one site). */
  internal: boolean;
  /** Visible text, or the alt of an image inside the link when it has no text. */
  text: string;
  /** aria-label when present (it replaces the text for assistive tech and for generic-text checks). */
  label: string | null;
  nofollow: boolean;
  /** The rel attribute as written (collapsed, clipped), when the link has one. */
  rel?: string;
  position: LinkPosition;
}

/** What a subresource is, as the tag that loads it says. */
export type ResourceKind = 'image' | 'script' | 'stylesheet' | 'font' | 'icon' | 'media' | 'other';

/** A subresource the page loads: `<img>` src/srcset, `<script src>`, `<link rel=stylesheet|icon|preload>`, media... */
export interface ResourceFact {
  /** Absolute http(s) URL without fragment. */
  url: string;
  kind: ResourceKind;
  /** The element (and attribute) that references it, e.g. "img[srcset]". */
  tag: string;
}

export interface MixedContentFact {
  tag: string;
  url: string;
}

export interface PageFacts {
  url: string;
  /** The custom extractors' results by key, when the context asked for them. */
  extraction?: PageExtraction;
  /** URL relative links resolve against (`<base href>` or the page URL). */
  baseUrl: string;
  htmlBytes: number;
  /** Doctype declaration as written, e.g. "!DOCTYPE html"; null when absent. */
  doctype: string | null;
  hasHtmlDoctype: boolean;
  lang: string | null;
  titles: string[];
  titleCount: number;
  descriptions: string[];
  descriptionCount: number;
  /** Head-only tags found inside `<body>`: "title", "meta[name=description]", "link[rel=canonical]"... */
  headTagsInBody: string[];
  robots: RobotsDirectives;
  canonicals: CanonicalFact[];
  canonicalCount: number;
  /** Canonical from the HTTP `Link` header, resolved; null when absent. */
  headerCanonical: string | null;
  viewport: string | null;
  charset: { value: string; source: 'meta' | 'http-equiv' | 'header' } | null;
  metaRefresh: string | null;
  openGraph: Record<string, string>;
  twitter: Record<string, string>;
  hreflang: HreflangFact[];
  jsonLd: JsonLdBlock[];
  headings: HeadingFact[];
  headingCount: number;
  h1Count: number;
  /** Words of visible body text (tokens with a letter or digit; script/style/noscript/template/svg excluded). */
  wordCount: number;
  /** UTF-8 bytes of the visible text with whitespace collapsed. */
  textBytes: number;
  /** SHA-1 (hex) of the lowercased, whitespace-normalized visible text; exact-duplicate key. */
  textHash: string;
  /** 64-bit SimHash (16 hex digits) of 3-word shingles; near-duplicate key. */
  simhash: string;
  images: ImageFact[];
  imageCount: number;
  /** The links read, in document order: the first PAGE_FACT_LIMITS.links (fewer when their URLs reach linkUrlChars). */
  links: LinkFact[];
  /** Distinct http(s) subresources the page references, in document order (capped). */
  resources: ResourceFact[];
  /**
   * Every `<a>`/`<area>` with an href (or onclick-only `<a>`), including those past the cap: `linkCount -
   * links.length` links were not read (linksNotRead), so not followed, checked or in the link graph.
   */
  linkCount: number;
  duplicateIds: { count: number; sample: string[] };
  renderBlocking: { scripts: number; stylesheets: number; sample: string[] };
  mixedContent: { count: number; sample: MixedContentFact[] };
  domElements: number;
  /**
   * Elements opened deeper than MAX_ELEMENT_DEPTH (512) nest no further: each was added as a sibling, as a browser
   * does (depth-capped-parser.ts). Absent when none was.
   */
  nestingFlattened?: number;
  hasFavicon: boolean;
  /** `<meta name="viewport">` elements (the first one's content is `viewport`). */
  viewportCount?: number;
  /** The document is an AMP page: `<html amp>` or `<html ⚡>`. */
  amp?: boolean;
  /** The first `<link rel="amphtml">`: the AMP version of this page; null when none. */
  ampHtml?: { href: string; url: string | null } | null;
  /** `<link rel="next">` and `<link rel="prev">` (or "previous") of a paginated series, in document order (capped). */
  pagination?: { rel: 'next' | 'prev'; href: string; url: string | null }[];
  /** The first "lorem ipsum" in the visible text, with a little context; null when none. */
  placeholderText: string | null;
  /** Signs of an app shell that scripts fill in (TECH_CLIENT_RENDERED_SUSPECTED). */
  clientRendering: ClientRenderingFact;
}

/** Links of the page past the per-page cap (PAGE_FACT_LIMITS.links, linkUrlChars): not followed, checked or listed. */
export function linksNotRead(facts: Pick<PageFacts, 'linkCount' | 'links'>): number {
  return Math.max(0, facts.linkCount - facts.links.length);
}

/**
 * What suggests a document is rendered in the browser: its first app root element left empty (`div#root`, `#app`,
 * `#__next`, `#__nuxt`, `#___gatsby`, `<app-root>`; a short placeholder such as "Loading…" counts as empty), and the
 * framework markers found (`data-reactroot`, `ng-version`, `ng-app`, `data-v-app`, `__NEXT_DATA__`, `window.__NUXT__`).
 */
export interface ClientRenderingFact {
  /** The empty root as a selector ("div#root", "app-root"); null when none. */
  emptyRoot: string | null;
  markers: string[];
}
