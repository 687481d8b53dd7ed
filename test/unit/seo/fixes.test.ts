import { describe, expect, it } from 'vitest';
import { CHECK_CATALOG, CHECK_THRESHOLDS, isValidLangTag, type CheckCode } from '../../../src/seo/checks/index.js';
import {
  FIX_LIMITS,
  altFromFileName,
  correctLanguageTag,
  extractFixContext,
  fitDescription,
  guessLanguage,
  proposeDescription,
  proposeTitle,
  suggestFix,
  type FixPageContext,
  type FixProposal,
} from '../../../src/seo/fixes/index.js';

const PAGE_URL = 'https://www.oak-and-iron.co.uk/furniture/tables/Oak_Dining-Table';

const SAMPLE_HTML =
  `<!DOCTYPE html>
<html>
<head>
  <meta charset="utf-8">
  <title>Oak dining table | Oak &amp; Iron</title>
  <meta property="og:site_name" content="Oak &amp; Iron">
  <link rel="canonical" href="/furniture/tables/oak-dining-table">
  <link rel="alternate" hreflang="en-GB" href="/furniture/tables/oak-dining-table">
</head>
<body>
  <div class="cookie-banner"><p>We use cookies to improve your experience on this website. Accept all cookies?</p></div>
  <header><nav><a href="/">Home</a> <a href="/furniture/">Furniture</a></nav><p>Free delivery on orders ` +
  `over £500 across the whole mainland</p></header>
  <main>
    <h1>Solid oak dining table</h1>
    <p>Our solid oak dining table is handmade in Devon from FSC-certified timber, finished with natural ` +
  `oils and built to seat six people in comfort.</p>
    <p>Each table is made to order in 4–6 weeks. Choose a length from 160 to 240 cm, a rustic or smooth ` +
  `finish, and matching benches.</p>
    <p hidden>Hidden text that must not be used.</p>
    <script>var notText = "script text must not appear";</script>
    <h2>Dimensions &amp; finish</h2>
    <h4>Care guide</h4>
    <img src="/media/solid-oak-dining-table-1024x768.jpg" width="1024" height="768">
    <img src="/media/IMG_4032.JPG">
    <img src="/media/logo.svg" alt="">
    <a href="/furniture/tables/oak-benches">Read more</a>
  </main>
  <footer><p>© Oak &amp; Iron Ltd, registered in England and Wales, company number 01234567.</p></footer>
</body>
</html>`;

const PAGE: FixPageContext = extractFixContext(SAMPLE_HTML, PAGE_URL);

/** Evidence in the shape each check records it (page-checks.ts, site-checks.ts, link-target-checks.ts). */
const EVIDENCE: Record<CheckCode, Record<string, unknown>> = {
  META_TITLE_MISSING: { titleCount: 0 },
  META_BASICS_MISSING: { missing: ['description', 'viewport'] },
  META_TITLE_TOO_SHORT: { title: 'Tables', length: 6 },
  META_TITLE_TOO_LONG: {
    title: 'Solid oak dining table handmade in Devon from FSC-certified timber | Oak & Iron',
    length: 79,
  },
  META_TITLE_MULTIPLE: { count: 2, titles: ['Oak dining table | Oak & Iron', 'Home'] },
  META_TITLE_DUPLICATE: {
    title: 'Oak & Iron',
    duplicates: 2,
    sameAs: ['https://www.oak-and-iron.co.uk/', 'https://www.oak-and-iron.co.uk/about'],
  },
  META_DESCRIPTION_MISSING: { count: 0 },
  META_DESCRIPTION_TOO_SHORT: { description: 'Oak tables.', length: 11 },
  META_DESCRIPTION_TOO_LONG: {
    description: `${'Handmade oak dining tables from Devon, built to order. '.repeat(4)}`,
    length: 220,
  },
  META_DESCRIPTION_SAME_AS_TITLE: { description: 'Pruning roses in late winter, step by step' },
  META_DESCRIPTION_MULTIPLE: {
    count: 2,
    descriptions: [
      'Oak tables.',
      'Handmade solid oak dining tables from Devon, finished with natural oils and made to order.',
    ],
  },
  META_DESCRIPTION_DUPLICATE: {
    description: 'Oak furniture.',
    duplicates: 1,
    sameAs: ['https://www.oak-and-iron.co.uk/furniture/'],
  },
  META_TAGS_IN_BODY: { tags: ['title', 'link[rel=canonical]'] },
  META_VIEWPORT_MISSING: {},
  META_VIEWPORT_NO_ZOOM: {
    viewport: 'width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no',
    reason: 'user-scalable=no',
  },
  META_LANG_MISSING: {},
  META_LANG_INVALID: { lang: 'en_GB' },
  META_CHARSET_MISSING: {},
  META_DOCTYPE_MISSING: { doctype: '!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN"' },
  META_FAVICON_MISSING: { status: 404 },
  META_OPEN_GRAPH_MISSING: {},
  META_TWITTER_CARD_MISSING: {},
  META_JSONLD_INVALID: { count: 1, errors: ['Unexpected token } in JSON at position 120'] },
  META_JSONLD_REQUIRED_MISSING: { entities: [{ type: 'Product', missing: ['one of offers/review/aggregateRating'] }] },
  META_HREFLANG_INVALID: { values: ['en_GB', 'jp'] },
  META_HREFLANG_RELATIVE: { hrefs: ['/furniture/tables/oak-dining-table'] },
  META_HREFLANG_NO_SELF: { url: PAGE_URL },
  META_HREFLANG_NO_RETURN: { targetsWithoutReturn: ['https://www.oak-and-iron.de/moebel/tische/eichentisch'] },
  META_HREFLANG_NO_X_DEFAULT: {},
  META_JSONLD_NO_CONTEXT: { count: 1, contexts: [null] },
  META_JSONLD_TYPE_MISSING: { count: 1, entities: [{ keys: ['name', 'url'] }] },
  META_JSONLD_ORGANIZATION_INCOMPLETE: {
    entities: [{ type: 'Organization', problems: ['url is missing', 'logo is not an absolute URL: /media/logo.svg'] }],
  },
  META_JSONLD_ARTICLE_INCOMPLETE: { entities: [{ type: 'BlogPosting', missing: ['image', 'author'] }] },
  META_JSONLD_PRODUCT_NO_OFFER: { count: 1, products: ['Solid oak dining table'] },
  META_JSONLD_BREADCRUMB_INVALID: {
    entities: [{ type: 'BreadcrumbList', problems: ['itemListElement[1].item is not an absolute URL: /furniture/'] }],
  },
  META_JSONLD_FAQ_INVALID: { entities: [{ type: 'FAQPage', problems: ['mainEntity[0].acceptedAnswer is missing'] }] },
  META_JSONLD_DATE_INVALID: {
    count: 1,
    dates: [{ type: 'Article', property: 'datePublished', value: 'March 3, 2024' }],
  },
  META_HREFLANG_DUPLICATE: {
    duplicates: [{ lang: 'de', urls: ['https://www.oak-and-iron.de/tische', 'https://www.oak-and-iron.at/tische'] }],
  },
  META_HREFLANG_TO_BROKEN: {
    targets: [{ label: 'de', url: 'https://www.oak-and-iron.de/tische', status: 404, reason: 'status 404' }],
  },
  META_HREFLANG_TO_NON_INDEXABLE: {
    targets: [
      {
        label: 'fr',
        url: 'https://www.oak-and-iron.fr/tables?ref=1',
        status: 200,
        reason: 'canonicalized',
        canonical: 'https://www.oak-and-iron.fr/tables',
      },
    ],
  },
  META_HREFLANG_LANG_MISMATCH: { lang: 'en-GB', hreflang: ['de'] },
  META_VIEWPORT_NOT_RESPONSIVE: { viewport: 'width=1024', reason: 'fixed width=1024' },
  META_VIEWPORT_MULTIPLE: { count: 2 },
  META_OG_INCOMPLETE: { missing: ['og:type', 'og:url'] },
  META_OG_IMAGE_RELATIVE: { images: [{ property: 'og:image', value: '/media/oak-table.jpg' }] },
  META_OG_URL_MISMATCH: { ogUrl: 'https://www.oak-and-iron.co.uk/tables', canonical: PAGE_URL },
  META_TWITTER_CARD_INVALID: { card: 'photo' },
  CONTENT_H1_MISSING: {},
  CONTENT_H1_MULTIPLE: { count: 2, headings: ['Solid oak dining table', 'Oak & Iron'] },
  CONTENT_HEADING_SKIP: { from: 'h2', to: 'h4', text: 'Care guide' },
  CONTENT_THIN: { words: 74 },
  CONTENT_DUPLICATE: {
    words: 74,
    duplicates: 1,
    sameAs: ['https://www.oak-and-iron.co.uk/furniture/tables/Oak_Dining-Table?ref=nav'],
  },
  CONTENT_NEAR_DUPLICATE: {
    similarTo: 'https://www.oak-and-iron.co.uk/furniture/tables/walnut-dining-table',
    similarity: 95.3,
    hammingDistance: 3,
  },
  CONTENT_IMAGE_ALT_MISSING: {
    count: 2,
    images: [
      'https://www.oak-and-iron.co.uk/media/solid-oak-dining-table-1024x768.jpg',
      'https://www.oak-and-iron.co.uk/media/IMG_4032.JPG',
    ],
  },
  CONTENT_IMAGE_ALT_TOO_LONG: {
    count: 1,
    images: [{ src: 'https://www.oak-and-iron.co.uk/media/long.jpg', length: 140 }],
  },
  CONTENT_LINK_TEXT_GENERIC: { count: 1, links: [{ href: '/furniture/tables/oak-benches', text: 'Read more' }] },
  CONTENT_DUPLICATE_ID: { count: 2, sample: ['main', 'price'] },
  CONTENT_LOW_TEXT_RATIO: { ratio: 0.04, textBytes: 4_000, htmlBytes: 100_000 },
  CONTENT_IMAGE_ALT_FILENAME: {
    count: 2,
    images: [
      { src: 'https://www.oak-and-iron.co.uk/media/IMG_4032.JPG', alt: 'IMG_4032.JPG' },
      { src: 'https://www.oak-and-iron.co.uk/media/oak-bench-natural.jpg', alt: 'oak-bench-natural.jpg' },
    ],
  },
  CONTENT_IMAGE_EMPTY_SRC: { count: 1, images: [{ alt: 'Oak dining table in a farmhouse kitchen' }] },
  CONTENT_H1_DUPLICATE: {
    h1: 'Solid oak dining table',
    duplicates: 1,
    sameAs: ['https://www.oak-and-iron.co.uk/furniture/tables/oak-dining-table-extending'],
  },
  CONTENT_PLACEHOLDER_TEXT: { text: 'Dimensions Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do' },
  LINKS_INTERNAL_BROKEN: {
    count: 1,
    links: [{ url: 'https://www.oak-and-iron.co.uk/furniture/tables/old-table', status: 404 }],
  },
  CONTENT_IMAGE_BROKEN: {
    count: 1,
    images: [{ url: 'https://www.oak-and-iron.co.uk/media/oak-table.jpg', kind: 'image', status: 404 }],
  },
  TECH_RESOURCE_BROKEN: {
    count: 1,
    resources: [
      {
        url: 'https://cdn.oak-and-iron.co.uk/theme.css',
        kind: 'stylesheet',
        status: null,
        error: 'The server refused the connection',
      },
    ],
  },
  TECH_RESOURCE_PRIVATE_ADDRESS: {
    count: 1,
    resources: [{ url: 'http://192.168.1.20/media/logo.png', kind: 'image', status: null, error: 'refused address' }],
  },
  TECH_SITEMAP_BLOCKED_BY_ROBOTS: {
    rule: 'disallowed by robots.txt',
    robotsTxt: 'https://www.oak-and-iron.co.uk/robots.txt',
  },
  LINKS_EXTERNAL_BROKEN: { count: 1, links: [{ url: 'https://timber-supplier.example/certificates', status: 410 }] },
  LINKS_TO_REDIRECT: { count: 1, links: ['https://www.oak-and-iron.co.uk/furniture'] },
  LINKS_REDIRECT_CHAIN: {
    hops: 2,
    chain: [
      '301 http://oak-and-iron.co.uk/tables',
      '301 https://oak-and-iron.co.uk/tables',
      'https://www.oak-and-iron.co.uk/furniture/tables/',
    ],
  },
  LINKS_REDIRECT_LOOP: {
    chain: [
      '301 https://www.oak-and-iron.co.uk/a',
      '302 https://www.oak-and-iron.co.uk/b',
      'https://www.oak-and-iron.co.uk/a',
    ],
  },
  LINKS_ORPHAN: { inlinks: 0 },
  LINKS_DEAD_END: {},
  LINKS_TOO_MANY: { count: 240 },
  LINKS_INTERNAL_NOFOLLOW: { count: 1, links: ['https://www.oak-and-iron.co.uk/furniture/tables/oak-benches'] },
  LINKS_HTTPS_TO_HTTP: { count: 1, links: ['http://www.oak-and-iron.co.uk/care'] },
  LINKS_UNCRAWLABLE: { count: 1, links: [{ href: 'javascript:void(0)', text: 'Show more tables' }] },
  LINKS_DEPTH_HIGH: { depth: 6 },
  LINKS_PAGINATION_BROKEN: {
    targets: [
      {
        label: 'next',
        url: 'https://www.oak-and-iron.co.uk/furniture/tables?page=3',
        status: 404,
        reason: 'status 404',
      },
    ],
  },
  LINKS_PAGINATION_NOINDEX: {
    sources: ['meta'],
    links: [{ rel: 'next', url: 'https://www.oak-and-iron.co.uk/t?page=2' }],
  },
  LINKS_LOCALHOST: { count: 1, links: ['http://localhost:8080/furniture/chairs'] },
  LINKS_TEMPORARY_REDIRECT: {
    status: 302,
    from: 'https://www.oak-and-iron.co.uk/tables',
    to: 'https://www.oak-and-iron.co.uk/furniture/tables/',
  },
  LINKS_NO_ANCHOR_TEXT: { count: 1, links: ['https://www.oak-and-iron.co.uk/basket'] },
  LINKS_TO_NON_CANONICAL: {
    count: 1,
    links: [
      {
        url: 'https://www.oak-and-iron.co.uk/furniture/tables/oak-benches?colour=natural',
        canonical: 'https://www.oak-and-iron.co.uk/furniture/tables/oak-benches',
      },
    ],
  },
  LINKS_TO_NOINDEX: { count: 1, links: ['https://www.oak-and-iron.co.uk/furniture/search?q=oak'] },
  TECH_AMP_LINK_BROKEN: {
    targets: [
      { label: 'amphtml', url: 'https://www.oak-and-iron.co.uk/amp/tables', status: 500, reason: 'status 500' },
    ],
  },
  TECH_AMP_NO_CANONICAL: {},
  TECH_STATUS_4XX: { status: 404 },
  TECH_STATUS_5XX: { status: 502 },
  TECH_TIMEOUT: {},
  PAGE_FETCH_FAILED: { error: 'Could not connect to https://www.oak-and-iron.co.uk/a: connection refused' },
  TECH_NOINDEX: { sources: ['meta'], meta: ['noindex, follow'], header: [] },
  TECH_NOINDEX_SITEWIDE: { noindexPages: 48, htmlPages: 50, share: 0.96 },
  TECH_ROBOTS_MISSING: { status: 404 },
  TECH_ROBOTS_UNREACHABLE: { status: 503, timedOut: false },
  TECH_ROBOTS_BLOCKS_ALL: { rule: 'User-agent: * / Disallow: /' },
  TECH_ROBOTS_INVALID: { errors: ['line 3: unknown directive "Crawl-rate"'] },
  TECH_BLOCKED_BY_ROBOTS: { count: 1, links: ['https://www.oak-and-iron.co.uk/furniture/search?q=oak'] },
  TECH_SITEMAP_MISSING: { status: 404 },
  TECH_SITEMAP_INVALID: { reasons: ['does not parse or has errors'], errors: ['line 4: unclosed <url>'] },
  TECH_SITEMAP_NON_INDEXABLE: {
    reason: 'redirect',
    status: 200,
    finalUrl: 'https://www.oak-and-iron.co.uk/furniture/tables/oak-dining-table',
  },
  TECH_CANONICAL_MULTIPLE: {
    count: 2,
    canonicals: ['/furniture/tables/oak-dining-table', 'https://www.oak-and-iron.co.uk/'],
  },
  TECH_CANONICAL_RELATIVE: { href: '/furniture/tables/oak-dining-table' },
  TECH_CANONICAL_INVALID: { href: 'file:///srv/build/html/furniture/tables/oak-dining-table.html', count: 1 },
  TECH_CANONICAL_OTHER_HOST: {
    canonical: 'https://furniture-mirror.example/tables/oak-dining-table',
    host: 'furniture-mirror.example',
  },
  TECH_CANONICAL_MISMATCH: {
    html: 'https://www.oak-and-iron.co.uk/furniture/tables/oak-dining-table',
    header: 'https://www.oak-and-iron.co.uk/tables',
  },
  TECH_CANONICAL_MISSING: { sameAs: ['https://www.oak-and-iron.co.uk/furniture/index.html'] },
  TECH_CANONICAL_TO_BROKEN: { canonical: 'https://www.oak-and-iron.co.uk/furniture/tables/old', reason: 'status 404' },
  TECH_URL_UPPERCASE: { path: '/furniture/tables/Oak_Dining-Table' },
  TECH_URL_UNDERSCORE: { path: '/furniture/tables/Oak_Dining-Table' },
  TECH_URL_TOO_LONG: { length: 130 },
  TECH_HTTP_PAGE: { url: 'http://www.oak-and-iron.co.uk/' },
  TECH_MIXED_CONTENT: { count: 1, resources: [{ tag: 'img', url: 'http://cdn.oak-and-iron.co.uk/table.jpg' }] },
  TECH_HSTS_MISSING: { header: null },
  TECH_HTML_TOO_LARGE: { bytes: 1_500_000 },
  TECH_AI_SEARCH_BLOCKED: { agents: ['OAI-SearchBot', 'PerplexityBot'] },
  TECH_LLMS_TXT_MISSING: { status: 404 },
  TECH_CSP_MISSING: { reportOnly: true },
  TECH_CONTENT_TYPE_OPTIONS_MISSING: { header: 'no-sniff' },
  TECH_CLICKJACKING_UNPROTECTED: {
    reason: 'x-frame-options-invalid',
    header: 'ALLOW-FROM https://partners.oak-and-iron.co.uk',
  },
  TECH_HSTS_SHORT: { header: 'max-age=86400', maxAge: 86_400 },
  TECH_COOKIE_INSECURE: { count: 2, cookies: ['PHPSESSID', 'basket_id'] },
  TECH_META_REFRESH: {
    content: '5; url=/furniture/tables/',
    delay: 5,
    target: 'https://www.oak-and-iron.co.uk/furniture/tables/',
  },
  TECH_SOFT_404: { heading: 'Sorry, this table is no longer available', words: 23 },
  TECH_URL_DOUBLE_SLASH: { path: '/furniture//tables/Oak_Dining-Table' },
  TECH_URL_NON_ASCII: {
    path: '/furniture/tables/Ch%C3%AAne%20massif',
    decoded: '/furniture/tables/Chêne massif',
  },
  TECH_URL_SESSION_ID: { parameter: 'PHPSESSID' },
  TECH_CLIENT_RENDERED_SUSPECTED: { root: 'div#root', markers: ['__NEXT_DATA__'], words: 4 },
  RENDER_TITLE_CHANGED: { raw: 'Loading…', rendered: 'Oak dining table | Oak & Iron' },
  RENDER_TITLE_ONLY_RENDERED: { rendered: 'Oak dining table | Oak & Iron' },
  RENDER_DESCRIPTION_CHANGED: { raw: null, rendered: 'A solid oak dining table for eight.' },
  RENDER_CANONICAL_CHANGED: {
    raw: 'https://www.oak-and-iron.co.uk/furniture/tables/oak-dining-table',
    rendered: 'https://www.oak-and-iron.co.uk/tables',
  },
  RENDER_NOINDEX_CHANGED: { raw: 'noindex', rendered: 'index', rawMeta: ['noindex'], renderedMeta: [] },
  RENDER_NOFOLLOW_CHANGED: { raw: 'follow', rendered: 'nofollow', rawMeta: [], renderedMeta: ['nofollow'] },
  RENDER_H1_CHANGED: { raw: [], rendered: ['Oak dining table'] },
  RENDER_LINKS_ONLY_RENDERED: {
    count: 1,
    links: ['https://www.oak-and-iron.co.uk/furniture/chairs'],
    rawLinks: 3,
    renderedLinks: 4,
  },
  RENDER_CONTENT_NEEDS_JS: { rawWords: 0, renderedWords: 420 },
  RENDER_RESOURCE_BLOCKED_BY_ROBOTS: { count: 1, resources: ['https://www.oak-and-iron.co.uk/private/app.js'] },
  RENDER_CONSOLE_ERRORS: { count: 2, errors: ['TypeError: cart.items is not iterable'] },
  RENDER_FAILED_REQUESTS: {
    count: 1,
    requests: [{ url: 'https://www.oak-and-iron.co.uk/api/stock', reason: 'HTTP 500' }],
  },
  PERF_LCP: { lcpMs: 4_200 },
  PERF_CLS: { cls: 0.31 },
  PERF_INP: { inpMs: 350 },
  PERF_TBT: { tbtMs: 900 },
  PERF_FCP: { fcpMs: 2_400 },
  PERF_TTFB: { ttfbMs: 1_900 },
  PERF_DOM_SIZE: { elements: 3_400 },
  PERF_PAGE_WEIGHT: { bytes: 5_000_000 },
  PERF_IMAGE_TOO_LARGE: {
    count: 1,
    images: [{ url: 'https://www.oak-and-iron.co.uk/media/IMG_4032.JPG', bytes: 900_000 }],
  },
  PERF_IMAGE_NO_DIMENSIONS: { count: 1, images: ['https://www.oak-and-iron.co.uk/media/IMG_4032.JPG'] },
  PERF_NO_COMPRESSION: { count: 1, urls: ['https://www.oak-and-iron.co.uk/assets/app.css'] },
  PERF_RENDER_BLOCKING: { scripts: 2, stylesheets: 5, resources: ['/assets/jquery.js', '/assets/theme.css'] },
  PERF_NO_CACHE_HEADERS: {
    count: 2,
    urls: ['https://www.oak-and-iron.co.uk/assets/app.css', 'https://www.oak-and-iron.co.uk/fonts/serif.woff2'],
  },
  PERF_IMAGE_LEGACY_FORMAT: {
    count: 1,
    images: [
      {
        url: 'https://www.oak-and-iron.co.uk/media/solid-oak-dining-table-1024x768.jpg',
        bytes: 412_000,
        type: 'image/jpeg',
      },
    ],
  },
  PERF_LCP_IMAGE_LAZY: {
    src: 'https://www.oak-and-iron.co.uk/media/solid-oak-dining-table-1024x768.jpg',
    width: '1024',
    loading: 'lazy',
  },
  PERF_IMAGES_NOT_LAZY: { images: 24, eager: 21 },
};

const ALL_CODES = CHECK_CATALOG.map((check) => check.code);
/** Template slips and filler a user should never see in a fix. */
const PLACEHOLDER_RE = new RegExp(
  String.raw`\bTODO\b|\bTBD\b|FIXME|lorem ipsum|\bplaceholder\b|\bundefined\b|` +
    String.raw`(?<!\/dev\/|onload=)\bnull\b|\bNaN\b|\[object Object\]|example\.com`,
  'i',
);

function allText(proposal: FixProposal): string {
  return [proposal.summary, ...proposal.steps, proposal.code ?? ''].join('\n');
}

function expectWellFormed(proposal: FixProposal): void {
  expect(proposal.summary.trim().length).toBeGreaterThan(10);
  expect(proposal.summary.length).toBeLessThanOrEqual(FIX_LIMITS.summaryChars);
  expect(proposal.steps.length).toBeGreaterThanOrEqual(1);
  expect(proposal.steps.length).toBeLessThanOrEqual(FIX_LIMITS.steps);
  for (const step of proposal.steps) {
    expect(step.trim().length).toBeGreaterThan(10);
    expect(step.length).toBeLessThanOrEqual(FIX_LIMITS.stepChars);
  }
  if (proposal.code !== undefined) {
    expect(proposal.code.trim()).not.toBe('');
    expect(proposal.code.length).toBeLessThanOrEqual(FIX_LIMITS.codeChars);
  }
  expect(allText(proposal)).not.toMatch(PLACEHOLDER_RE);
}

describe('suggestFix covers the whole catalog', () => {
  it.each(ALL_CODES)('%s: a concrete fix with page context and evidence', (code) => {
    const proposal = suggestFix({ code, url: PAGE_URL, evidence: EVIDENCE[code], page: PAGE });
    expectWellFormed(proposal);
    expect(allText(proposal)).not.toContain('your-site');
  });

  it.each(ALL_CODES)('%s: still a fix without page context or evidence', (code) => {
    const proposal = suggestFix({ code, url: PAGE_URL, evidence: null, page: null });
    expectWellFormed(proposal);
  });

  it.each(ALL_CODES)('%s: tolerates mistyped evidence', (code) => {
    const junk = {
      count: 'many',
      images: 'x',
      links: [null, 3, { url: 7 }],
      chain: {},
      titles: [1],
      errors: 'boom',
      status: '500',
      entities: [{ type: 3, missing: 'x' }],
    };
    expectWellFormed(suggestFix({ code, url: 'not a url', evidence: junk, page: null }));
  });

  it('gives every code its own summary (no shared generic advice)', () => {
    const summaries = ALL_CODES.map(
      (code) => suggestFix({ code, url: PAGE_URL, evidence: EVIDENCE[code], page: PAGE }).summary,
    );
    expect(new Set(summaries).size).toBe(summaries.length);
  });

  it('rejects a code outside the catalog', () => {
    expect(() => suggestFix({ code: 'NOT_A_CODE' as CheckCode, url: PAGE_URL, evidence: null, page: null })).toThrow(
      RangeError,
    );
  });
});

describe('meta description proposals', () => {
  const description = (
    code: CheckCode,
    page: FixPageContext | null,
    evidence: Record<string, unknown> | null = null,
  ) => {
    const proposal = suggestFix({ code, url: PAGE_URL, evidence, page });
    const match = /^<meta name="description" content="([^"]*)">$/.exec(proposal.code ?? '');
    expect(match, proposal.code).not.toBeNull();
    return unescape(match![1]);
  };

  it('draws a 70–160 character description from the opening paragraph, ending on a word boundary', () => {
    const text = description('META_DESCRIPTION_MISSING', PAGE);
    expect(text.length).toBeGreaterThanOrEqual(CHECK_THRESHOLDS.descriptionMinChars);
    expect(text.length).toBeLessThanOrEqual(CHECK_THRESHOLDS.descriptionMaxChars);
    const source = PAGE.paragraphs.join(' ');
    const body = text.replace(/…$/, '');
    expect(source.startsWith(body)).toBe(true);
    expect(source.slice(body.length)).toMatch(/^(\W|$)/);
    expect(text).not.toMatch(/cookies|delivery|registered/i);
  });

  it.each([
    [
      'a sentence end inside the band',
      'Short opening sentence that is long enough to pass seventy characters. Then a second sentence runs ' +
        'well past the limit of one hundred and sixty characters easily.',
    ],
    ['one long sentence', `The table ${'is sturdy and beautiful and '.repeat(10)}ends here.`],
  ])('fits long prose within 160 characters (%s)', (_label, prose) => {
    const text = fitDescription(prose);
    expect(text.length).toBeGreaterThanOrEqual(70);
    expect(text.length).toBeLessThanOrEqual(160);
    const body = text.replace(/…$/, '');
    expect(prose.startsWith(body)).toBe(true);
    expect(prose.slice(body.length)).toMatch(/^(\W|$)/);
  });

  it('ends on a full sentence when one falls inside the band', () => {
    expect(
      fitDescription(
        'Short opening sentence that is long enough to pass seventy characters. Then a second sentence runs ' +
          'well past the limit of one hundred and sixty characters easily.',
      ),
    ).toBe('Short opening sentence that is long enough to pass seventy characters.');
  });

  it('escapes quotes, ampersands and angle brackets in the tag', () => {
    const page = {
      ...PAGE,
      paragraphs: [
        'Tom & Jerry\'s "classic" <oak> tables are built to last for generations, with joints cut by hand in ' +
          'our workshop.',
      ],
    };
    const proposal = suggestFix({ code: 'META_DESCRIPTION_MISSING', url: PAGE_URL, evidence: null, page });
    expect(proposal.code).toContain('Tom &amp; Jerry&#39;s &quot;classic&quot; &lt;oak&gt; tables');
    expect(proposal.code!.match(/"/g)).toHaveLength(4);
  });

  it('shortens a long existing description instead of replacing it', () => {
    const text = description('META_DESCRIPTION_TOO_LONG', PAGE, EVIDENCE.META_DESCRIPTION_TOO_LONG);
    expect(text.length).toBeLessThanOrEqual(160);
    expect(text.length).toBeGreaterThanOrEqual(70);
    expect(text.startsWith('Handmade oak dining tables from Devon, built to order.')).toBe(true);
  });

  it('extends a short existing description with page text', () => {
    const text = description('META_DESCRIPTION_TOO_SHORT', PAGE, EVIDENCE.META_DESCRIPTION_TOO_SHORT);
    expect(text.startsWith('Oak tables. Our solid oak dining table')).toBe(true);
    expect(text.length).toBeGreaterThanOrEqual(70);
    expect(text.length).toBeLessThanOrEqual(160);
  });

  it('falls back to the headings when the page has little text, and says so when still short', () => {
    const sparse: FixPageContext = {
      ...PAGE,
      paragraphs: ['Call us.'],
      h1: ['Contact'],
      headings: [{ level: 1, text: 'Contact' }],
      title: 'Contact',
      siteName: null,
    };
    // Too little text: an honest short draft from the page itself, flagged, never padded with invented claims.
    expect(proposeDescription(sparse, 'https://a.io/contact')).toEqual({
      text: 'Contact. Call us.',
      source: 'outline',
      complete: false,
    });
    const fix = suggestFix({
      code: 'META_DESCRIPTION_MISSING',
      url: 'https://a.io/contact',
      evidence: null,
      page: sparse,
    });
    expect(fix.code).toBe('<meta name="description" content="Contact. Call us.">');
    expect(fix.steps.join(' ')).toMatch(/only 17 characters: extend it to at least 70/);

    const rich: FixPageContext = {
      ...sparse,
      h1: ['Solid oak dining tables'],
      headings: [
        { level: 1, text: 'Solid oak dining tables' },
        { level: 2, text: 'Handmade in Devon' },
        { level: 2, text: 'Sizes from 160 to 240 cm' },
        { level: 2, text: 'Delivery and care' },
      ],
    };
    const outline = proposeDescription(rich, PAGE_URL);
    expect(outline).toMatchObject({ source: 'outline', complete: true });
    expect(outline.text).toContain(
      'Solid oak dining tables: Handmade in Devon, Sizes from 160 to 240 cm and Delivery and care',
    );
    expect(outline.text.length).toBeLessThanOrEqual(160);
  });
});

describe('title proposals', () => {
  it.each([
    ['new', EVIDENCE.META_TITLE_MISSING, 'META_TITLE_MISSING'],
    ['extend', EVIDENCE.META_TITLE_TOO_SHORT, 'META_TITLE_TOO_SHORT'],
    ['shorten', EVIDENCE.META_TITLE_TOO_LONG, 'META_TITLE_TOO_LONG'],
  ] as const)('%s: a <title> of 30–60 characters from the h1 and site name', (_mode, evidence, code) => {
    const proposal = suggestFix({ code, url: PAGE_URL, evidence, page: PAGE });
    const match = /^<title>(.*)<\/title>$/.exec(proposal.code ?? '');
    expect(match).not.toBeNull();
    const text = unescape(match![1]);
    expect(text.length).toBeGreaterThanOrEqual(CHECK_THRESHOLDS.titleMinChars);
    expect(text.length).toBeLessThanOrEqual(CHECK_THRESHOLDS.titleMaxChars);
  });

  it('combines the h1 with og:site_name and escapes it', () => {
    expect(proposeTitle(PAGE, PAGE_URL)).toEqual({ text: 'Solid oak dining table | Oak & Iron', complete: true });
    expect(suggestFix({ code: 'META_TITLE_MISSING', url: PAGE_URL, evidence: null, page: PAGE }).code).toBe(
      '<title>Solid oak dining table | Oak &amp; Iron</title>',
    );
  });

  it('drops trailing title segments, then cuts at a word, to fit 60 characters', () => {
    const long = { ...PAGE, title: 'Solid oak dining table handmade in Devon from FSC-certified timber | Oak & Iron' };
    const text = proposeTitle(long, PAGE_URL, 'shorten').text;
    expect(text.length).toBeLessThanOrEqual(60);
    expect(text.length).toBeGreaterThanOrEqual(30);
    expect('Solid oak dining table handmade in Devon from FSC-certified timber'.startsWith(text)).toBe(true);
  });

  it('guesses the brand from the host when the page names none', () => {
    const page = {
      ...PAGE,
      siteName: null,
      h1: ['Tables'],
      headings: [
        { level: 1, text: 'Tables' },
        { level: 2, text: 'Made to order in Devon' },
      ],
    };
    const title = proposeTitle(page, 'https://www.blue-widgets.com/tables');
    expect(title.text).toBe('Tables: Made to order in Devon | Blue Widgets');
    expect(title.complete).toBe(true);
  });
});

describe('page-specific fixes', () => {
  it('TECH_CANONICAL_RELATIVE: the exact absolute canonical tag', () => {
    const fix = suggestFix({
      code: 'TECH_CANONICAL_RELATIVE',
      url: PAGE_URL,
      evidence: { href: '../tables/oak-dining-table?a=1&b=2' },
      page: PAGE,
    });
    expect(fix.code).toBe(
      '<link rel="canonical" href="https://www.oak-and-iron.co.uk/furniture/tables/oak-dining-table?a=1&amp;b=2">',
    );
  });

  it('TECH_CANONICAL_MULTIPLE keeps the first canonical, made absolute', () => {
    const fix = suggestFix({
      code: 'TECH_CANONICAL_MULTIPLE',
      url: PAGE_URL,
      evidence: EVIDENCE.TECH_CANONICAL_MULTIPLE,
      page: PAGE,
    });
    expect(fix.code).toBe(
      '<link rel="canonical" href="https://www.oak-and-iron.co.uk/furniture/tables/oak-dining-table">',
    );
  });

  it('CONTENT_IMAGE_ALT_MISSING lists each image by URL with an alt from its file name', () => {
    const fix = suggestFix({
      code: 'CONTENT_IMAGE_ALT_MISSING',
      url: PAGE_URL,
      evidence: EVIDENCE.CONTENT_IMAGE_ALT_MISSING,
      page: PAGE,
    });
    expect(fix.steps[0]).toContain('https://www.oak-and-iron.co.uk/media/solid-oak-dining-table-1024x768.jpg');
    expect(fix.steps[0]).toContain('alt="Solid oak dining table"');
    expect(fix.steps[1]).toContain('https://www.oak-and-iron.co.uk/media/IMG_4032.JPG');
    expect(fix.steps[1]).toMatch(/file name says nothing/);
    const lines = fix.code!.split('\n');
    expect(lines[0]).toBe('<img src="/media/solid-oak-dining-table-1024x768.jpg" alt="Solid oak dining table">');
    expect(lines[1]).toMatch(
      /^<img src="\/media\/IMG_4032\.JPG" alt="Solid oak dining table \(describe the picture\)">$/,
    );
  });

  it.each([
    ['/uploads/2024/05/red-oak-table-1024x768.jpg', 'Red oak table'],
    ['https://cdn.x.io/img/Blue_Widget@2x.png?v=3', 'Blue Widget'],
    ['/a/RED-OAK.JPG', 'Red oak'],
    ['/photos/IMG_1234.jpg', null],
    ['/media/5f2b9c0e1a7d4e3f9b8c.webp', null],
    ['/x/caf%C3%A9-terrace.jpg', 'Café terrace'],
  ])('altFromFileName(%s) = %s', (src, alt) => {
    expect(altFromFileName(src)).toBe(alt);
  });

  it('META_VIEWPORT_MISSING gives the exact tag; NO_ZOOM strips only the zoom blockers', () => {
    expect(suggestFix({ code: 'META_VIEWPORT_MISSING', url: PAGE_URL, evidence: null, page: PAGE }).code).toBe(
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
    );
    expect(
      suggestFix({ code: 'META_VIEWPORT_NO_ZOOM', url: PAGE_URL, evidence: EVIDENCE.META_VIEWPORT_NO_ZOOM, page: PAGE })
        .code,
    ).toBe('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it.each([
    ['og:locale', { locale: 'de_DE' }, 'https://x.io/', 'de-DE'],
    [
      'German text',
      {
        paragraphs: [
          'Der Tisch ist aus Eiche und wird für Sie mit der Hand gebaut, die Beine sind aus Stahl und nicht aus Holz.',
        ],
      },
      'https://x.io/',
      'de',
    ],
    ['English text', {}, PAGE_URL, 'en'],
    ['country domain', { paragraphs: [], h1: [], title: null }, 'https://shop.example.fr/', 'fr'],
  ] as const)('META_LANG_MISSING guesses from %s', (_label, overrides, url, tag) => {
    const page = { ...PAGE, hreflang: [], locale: null, ...overrides } as FixPageContext;
    expect(guessLanguage(page, url).tag).toBe(tag);
    const fix = suggestFix({ code: 'META_LANG_MISSING', url, evidence: null, page });
    expect(fix.code).toBe(`<html lang="${tag}">`);
    expect(isValidLangTag(tag)).toBe(true);
  });

  it.each([
    ['en_GB', 'en-GB'],
    ['English', 'en'],
    ['jp', 'ja'],
    ['en-UK', 'en-GB'],
    ['x_default', 'x-default'],
    ['zz-top-nonsense', null],
  ])('correctLanguageTag(%s) = %s', (value, tag) => {
    expect(correctLanguageTag(value)).toBe(tag);
  });

  it('META_LANG_INVALID proposes the corrected tag', () => {
    expect(suggestFix({ code: 'META_LANG_INVALID', url: PAGE_URL, evidence: { lang: 'en_GB' }, page: PAGE }).code).toBe(
      '<html lang="en-GB">',
    );
  });

  it('LINKS_REDIRECT_CHAIN redirects every hop straight to the final URL (nginx and Apache)', () => {
    const fix = suggestFix({
      code: 'LINKS_REDIRECT_CHAIN',
      url: PAGE_URL,
      evidence: EVIDENCE.LINKS_REDIRECT_CHAIN,
      page: PAGE,
    });
    expect(fix.code).toContain('location = /tables { return 301 https://www.oak-and-iron.co.uk/furniture/tables/; }');
    expect(fix.code).toContain('Redirect 301 /tables https://www.oak-and-iron.co.uk/furniture/tables/');
  });

  it('TECH_HSTS_MISSING and PERF_NO_COMPRESSION give nginx and Apache lines', () => {
    const hsts = suggestFix({
      code: 'TECH_HSTS_MISSING',
      url: 'https://www.oak-and-iron.co.uk/',
      evidence: { header: null },
      page: null,
    }).code!;
    expect(hsts).toContain('add_header Strict-Transport-Security "max-age=31536000; includeSubDomains" always;');
    expect(hsts).toContain('Header always set Strict-Transport-Security');
    const gzip = suggestFix({
      code: 'PERF_NO_COMPRESSION',
      url: PAGE_URL,
      evidence: EVIDENCE.PERF_NO_COMPRESSION,
      page: null,
    }).code!;
    expect(gzip).toContain('gzip on;');
    expect(gzip).toContain('AddOutputFilterByType DEFLATE');
  });

  it('TECH_ROBOTS_MISSING and TECH_SITEMAP_MISSING use the site origin', () => {
    const robots = suggestFix({
      code: 'TECH_ROBOTS_MISSING',
      url: 'https://www.oak-and-iron.co.uk/robots.txt',
      evidence: { status: 404 },
      page: null,
    });
    expect(robots.code).toBe('User-agent: *\nAllow: /\n\nSitemap: https://www.oak-and-iron.co.uk/sitemap.xml');
    const sitemap = suggestFix({
      code: 'TECH_SITEMAP_MISSING',
      url: 'https://www.oak-and-iron.co.uk/sitemap.xml',
      evidence: { status: 404 },
      page: null,
    });
    expect(sitemap.code).toContain('<loc>https://www.oak-and-iron.co.uk/</loc>');
  });

  it('PERF_NO_CACHE_HEADERS covers the file types of the evidence', () => {
    const fix = suggestFix({
      code: 'PERF_NO_CACHE_HEADERS',
      url: PAGE_URL,
      evidence: EVIDENCE.PERF_NO_CACHE_HEADERS,
      page: null,
    });
    expect(fix.code).toContain('location ~* \\.(css|woff2)$ {');
    expect(fix.code).toContain('<FilesMatch "\\.(css|woff2)$">');
  });

  it.each([
    ['PERF_LCP', 'lcpMs', 4_200, '4.2 s'],
    ['PERF_INP', 'inpMs', 350, '350 ms'],
    ['PERF_CLS', 'cls', 0.31, '0.31'],
    ['PERF_TTFB', 'ttfbMs', 1_900, '1.9 s'],
  ] as const)('%s reports the measured value and metric-specific steps', (code, field, value, shown) => {
    const fix = suggestFix({ code, url: PAGE_URL, evidence: { [field]: value }, page: PAGE });
    expect(fix.summary).toContain(shown);
    expect(fix.steps[0]).toContain(shown);
  });

  it('PERF_LCP preloads the likely hero image of the page', () => {
    const fix = suggestFix({ code: 'PERF_LCP', url: PAGE_URL, evidence: { lcpMs: 4_200 }, page: PAGE });
    expect(fix.code).toContain(
      '<link rel="preload" as="image" href="/media/solid-oak-dining-table-1024x768.jpg" fetchpriority="high">',
    );
  });

  it('CONTENT_DUPLICATE canonicalizes to the simplest URL of the group', () => {
    const fix = suggestFix({
      code: 'CONTENT_DUPLICATE',
      url: PAGE_URL,
      evidence: EVIDENCE.CONTENT_DUPLICATE,
      page: PAGE,
    });
    expect(fix.code).toBe(`<link rel="canonical" href="${PAGE_URL}">`);
    const other = suggestFix({
      code: 'CONTENT_DUPLICATE',
      url: `${PAGE_URL}?ref=nav`,
      evidence: { sameAs: [PAGE_URL] },
      page: PAGE,
    });
    expect(other.code).toBe(`<link rel="canonical" href="${PAGE_URL}">`);
    expect(other.summary).toContain('Canonicalize this duplicate');
  });

  it('META_JSONLD_REQUIRED_MISSING builds BreadcrumbList items from the URL path', () => {
    const fix = suggestFix({
      code: 'META_JSONLD_REQUIRED_MISSING',
      url: PAGE_URL,
      evidence: { entities: [{ type: 'BreadcrumbList', missing: ['itemListElement'] }] },
      page: PAGE,
    });
    const json = JSON.parse(fix.code!.replace(/^<script[^>]*>|<\/script>$/g, ''));
    expect(json['@type']).toBe('BreadcrumbList');
    expect(json.itemListElement.map((item: { name: string }) => item.name)).toEqual([
      'Home',
      'Furniture',
      'Tables',
      'Solid oak dining table',
    ]);
  });

  it('bounds long evidence so one value cannot blow up a step', () => {
    const url = `https://x.io/${'a'.repeat(3_000)}`;
    const fix = suggestFix({
      code: 'LINKS_INTERNAL_BROKEN',
      url: PAGE_URL,
      evidence: { count: 1, links: [{ url, status: 404 }] },
      page: null,
    });
    expectWellFormed(fix);
  });
});

describe('extractFixContext', () => {
  it('collects the head facts, resolving URLs against the page', () => {
    expect(PAGE).toMatchObject({
      url: PAGE_URL,
      title: 'Oak dining table | Oak & Iron',
      description: null,
      lang: null,
      canonical: 'https://www.oak-and-iron.co.uk/furniture/tables/oak-dining-table',
      siteName: 'Oak & Iron',
      hreflang: [{ lang: 'en-GB', href: 'https://www.oak-and-iron.co.uk/furniture/tables/oak-dining-table' }],
    });
  });

  it('collects headings and h1 in document order', () => {
    expect(PAGE.h1).toEqual(['Solid oak dining table']);
    expect(PAGE.headings).toEqual([
      { level: 1, text: 'Solid oak dining table' },
      { level: 2, text: 'Dimensions & finish' },
      { level: 4, text: 'Care guide' },
    ]);
  });

  it('keeps only visible content paragraphs (no banner, chrome, hidden or script text)', () => {
    expect(PAGE.paragraphs).toEqual([
      'Our solid oak dining table is handmade in Devon from FSC-certified timber, finished with natural oils ' +
        'and built to seat six people in comfort.',
      'Each table is made to order in 4–6 weeks. Choose a length from 160 to 240 cm, a rustic or smooth ' +
        'finish, and matching benches.',
    ]);
  });

  it('collects images with alt (null when absent) and links with their text', () => {
    expect(PAGE.images).toEqual([
      {
        src: '/media/solid-oak-dining-table-1024x768.jpg',
        url: 'https://www.oak-and-iron.co.uk/media/solid-oak-dining-table-1024x768.jpg',
        alt: null,
      },
      { src: '/media/IMG_4032.JPG', url: 'https://www.oak-and-iron.co.uk/media/IMG_4032.JPG', alt: null },
      { src: '/media/logo.svg', url: 'https://www.oak-and-iron.co.uk/media/logo.svg', alt: '' },
    ]);
    expect(PAGE.links).toContainEqual({
      href: '/furniture/tables/oak-benches',
      url: 'https://www.oak-and-iron.co.uk/furniture/tables/oak-benches',
      text: 'Read more',
    });
  });

  it('reads lang, description, <base> and lazy images; ignores an svg <title>', () => {
    const html =
      `<html lang="de"><head><base href="https://cdn.x.io/de/"><meta name="description" content="  ` +
      `Eichentische   aus Devon "></head>
      <body><svg><title>icon</title></svg><title>late</title><img src="data:image/gif;base64,R0lG" ` +
      `data-src="tisch.jpg" alt="Tisch"><p>Text<br>mehr</p></body></html>`;
    const page = extractFixContext(html, 'https://x.io/de/tische');
    expect(page.lang).toBe('de');
    expect(page.description).toBe('Eichentische aus Devon');
    expect(page.title).toBe('late');
    expect(page.images).toEqual([{ src: 'tisch.jpg', url: 'https://cdn.x.io/de/tisch.jpg', alt: 'Tisch' }]);
    expect(page.paragraphs).toEqual(['Text mehr']);
  });

  it('falls back to text blocks when the page has no <p>', () => {
    const page = extractFixContext(
      '<body><main><div>First block of text</div><ul><li>An item</li></ul></main></body>',
      'https://x.io/',
    );
    expect(page.paragraphs).toEqual(['First block of text', 'An item']);
  });

  // Its speed against the parse alone (no per-text walk of the open elements) is a matter for a benchmark: the
  // timing comparison that stood here failed on a loaded machine. The test keeps the answers on such markup.
  it('reads deeply nested markup: the paragraph text, no title from inside svg', () => {
    const depth = 20_000;
    const html =
      `<body><p>${'<span>x '.repeat(depth)}${'</span>'.repeat(depth)}</p` +
      `>${'<svg><title>t</title>'.repeat(5_000)}</body>`;
    const page = extractFixContext(html, 'https://x.io/');
    expect(page.paragraphs[0].startsWith('x x x')).toBe(true);
    expect(page.title).toBeNull();
  });

  it('bounds paragraphs by count and characters', () => {
    const many = Array.from({ length: 50 }, (_, i) => `<p>Paragraph ${i} ${'word '.repeat(100)}</p>`).join('');
    const page = extractFixContext(`<body>${many}</body>`, 'https://x.io/');
    expect(page.paragraphs.length).toBeLessThanOrEqual(FIX_LIMITS.paragraphs);
    expect(page.paragraphs.join('').length).toBeLessThanOrEqual(FIX_LIMITS.paragraphChars);
    const images = extractFixContext(`<body>${'<img src="/a.png">'.repeat(500)}</body>`, 'https://x.io/').images;
    expect(images).toHaveLength(FIX_LIMITS.images);
  });
});

function unescape(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
