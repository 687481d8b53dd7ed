/**
 * Every number a check compares against, in one table (docs/scores.md). Sources: Lighthouse, SEOnaut,
 * Screaming Frog, web.dev Core Web Vitals bands.
 */
export const CHECK_THRESHOLDS = {
  titleMinChars: 30,
  titleMaxChars: 60,
  descriptionMinChars: 70,
  descriptionMaxChars: 160,
  /** CONTENT_THIN: fewer visible words than this on an indexable page. */
  thinContentWords: 200,
  maxLinksPerPage: 100,
  maxUrlChars: 115,
  maxClickDepth: 4,
  maxAltChars: 100,
  maxHtmlBytes: 1024 * 1024,
  /** CONTENT_LOW_TEXT_RATIO: visible text bytes / HTML bytes below this. */
  minTextRatio: 0.1,
  maxImageBytes: 200 * 1024,
  /** META_VIEWPORT_NO_ZOOM: maximum-scale below this blocks zooming (Lighthouse). */
  minMaximumScale: 5,
  redirectChainHops: 2,
  /** TECH_NOINDEX_SITEWIDE: share of crawled HTML pages that are noindex. */
  noindexSitewideShare: 0.9,
  /** PERF_RENDER_BLOCKING: more blocking stylesheets in <head> than this ("many"). */
  maxBlockingStylesheets: 3,
  /** PERF_NO_COMPRESSION: bodies smaller than this gain nothing from compression (Lighthouse ignores them too). */
  compressionMinBytes: 1_400,
  /** CONTENT_NEAR_DUPLICATE: similarity at or above this share. */
  nearDuplicateSimilarity: 0.9,
  /**
   * SimHash bits that may differ for a near duplicate. 3 of 64 bits (95% bit agreement) is the
   * distance Manku et al. (WWW 2007) found to separate near-duplicate web pages; on 3-word shingles
   * it corresponds to roughly 90% or more shared content, the docs/scores.md threshold.
   */
  nearDuplicateMaxHamming: 3,
  /** Pages with fewer words are too short for a SimHash to mean anything; they are not compared. */
  nearDuplicateMinWords: 50,
  /** Pairwise SimHash comparisons allowed per audit, so adversarial bucket sizes stay bounded. */
  nearDuplicateMaxComparisons: 5_000_000,
  /** TECH_CLIENT_RENDERED_SUSPECTED: an empty app root on a page with fewer visible words than this. */
  clientShellMaxWords: 100,
  /** TECH_CLIENT_RENDERED_SUSPECTED: framework markers (no empty root) on a page with fewer words than this. */
  frameworkShellMaxWords: 20,
  /** RENDER_CONTENT_NEEDS_JS: judged on rendered pages with at least this many words… */
  renderedContentMinWords: 50,
  /** …and fails when the raw HTML holds less than this share of the rendered page's words. */
  rawContentMinShare: 0.5,
  /** PERF_IMAGE_LEGACY_FORMAT: a JPEG/PNG/GIF/BMP over this size (Lighthouse's modern-formats audit: 8 KiB saved). */
  legacyImageMinBytes: 100 * 1024,
  /**
   * PERF_LCP_IMAGE_LAZY: the likely LCP image is the first <img> declaring a width of at least this many CSS px…
   * …that starts within this many characters of visible body text (about 150 words: the first screen).
   */
  lcpImageMinWidth: 300,
  lcpImageMaxTextBefore: 1_000,
  /** PERF_IMAGES_NOT_LAZY: more images than this, none lazy after the first `eagerImages`. */
  lazyImagesMinCount: 10,
  eagerImages: 3,
  /** TECH_SOFT_404: a not-found title or h1 on a page with fewer words than this (templates carry nav, footers). */
  soft404MaxWords: 300,
  /** …and a heading of at most this many words (an article about 404 errors has a longer, topical one). */
  soft404MaxHeadingWords: 8,
  /** TECH_HSTS_SHORT: max-age below one year (the preload list's minimum; Mozilla Observatory's bar). */
  hstsMinMaxAge: 31_536_000,
  /**
   * Core Web Vitals and lab metric bands (web.dev; DOM size: Lighthouse's dom-size audit, which warns over 800 and
   * fails over 1,400 elements): good up to `good`, needs improvement above it (a NOTICE on that page), poor above
   * `poor` (a WARNING on that page). No measured value takes a page out of search, so none is CRITICAL
   * (docs/scores.md, severity rule); each page is charged at its own band. By metric: PERF_LCP's band is `lcp`.
   */
  metrics: {
    lcp: { good: 2_500, poor: 4_000, unit: 'ms' },
    cls: { good: 0.1, poor: 0.25, unit: '' },
    inp: { good: 200, poor: 500, unit: 'ms' },
    tbt: { good: 200, poor: 600, unit: 'ms' },
    fcp: { good: 1_800, poor: 3_000, unit: 'ms' },
    ttfb: { good: 800, poor: 1_800, unit: 'ms' },
    domSize: { good: 800, poor: 1_400, unit: 'nodes' },
    pageWeight: { good: 2_667 * 1024, poor: 4_000 * 1024, unit: 'bytes' },
  },
} as const;

/** A banded metric, by name (its check's `evaluate` and fix read its band here). */
export type BandedMetric = keyof typeof CHECK_THRESHOLDS.metrics;
