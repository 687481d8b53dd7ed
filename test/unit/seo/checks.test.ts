import { describe, expect, it } from 'vitest';
import {
  CHECK_CATALOG,
  CHECK_THRESHOLDS,
  CHECKS_BY_CODE,
  PAGE_CHECK_CODES,
  aggregateChecks,
  failingIssues,
  metaTagsReport,
  runPageChecks,
  type CheckResult,
  type LinkTargetInfo,
  type PageCheckCode,
  type PageFetch,
} from '../../../src/seo/checks/index.js';
import { extractPageFacts } from '../../../src/seo/page/index.js';

const PAGE_URL = 'https://example.com/good-page';
const WORDS = Array.from({ length: 230 }, (_, i) => `word${i}`).join(' ');
const GOOD_TITLE = 'Blue widgets for every workshop | Example'; // 41 characters
const GOOD_DESCRIPTION =
  'Compare blue widgets by size, material and price, and find the right one for your workshop today.'; // 97

interface DocOptions {
  doctype?: string | null;
  lang?: string | null;
  charset?: boolean;
  viewport?: string | null;
  title?: string | null;
  description?: string | null;
  og?: boolean;
  twitter?: boolean;
  head?: string;
  body?: string;
}

/** Open Graph's required four (after `head`, so a fixture's own og: tags come first and win). */
const OPEN_GRAPH =
  '<meta property="og:title" content="Blue widgets"><meta property="og:type" content="website">' +
  `<meta property="og:url" content="${PAGE_URL}"><meta property="og:image" content="https://example.com/w.png">`;

/** A document that passes every page check; fixtures change one thing at a time. */
function doc(o: DocOptions = {}): string {
  const doctype = o.doctype === undefined ? '<!DOCTYPE html>' : (o.doctype ?? '');
  const lang = o.lang === undefined ? ' lang="en"' : o.lang === null ? '' : ` lang="${o.lang}"`;
  const viewport = o.viewport === undefined ? 'width=device-width, initial-scale=1' : o.viewport;
  const title = o.title === undefined ? GOOD_TITLE : o.title;
  const description = o.description === undefined ? GOOD_DESCRIPTION : o.description;
  const body =
    o.body ??
    `<h1>Blue widgets</h1><h2>Sizes</h2><p>${WORDS}</p>
     <a href="/other">Widget sizes explained</a>
     <img src="/widget.png" alt="A blue widget" width="40" height="30">`;
  return `${doctype}<html${lang}><head>
    ${o.charset === false ? '' : '<meta charset="utf-8">'}
    ${viewport === null ? '' : `<meta name="viewport" content="${viewport}">`}
    ${title === null ? '' : `<title>${title}</title>`}
    ${description === null ? '' : `<meta name="description" content="${description}">`}
    ${o.twitter === false ? '' : '<meta name="twitter:card" content="summary">'}
    ${o.head ?? ''}
    ${o.og === false ? '' : OPEN_GRAPH}
  </head><body>${body}</body></html>`;
}

const bodyWith = (extra: string): string =>
  `<h1>Blue widgets</h1><p>${WORDS}</p><a href="/other">Widget sizes explained</a>${extra}`;

interface Case {
  /** HTML of the page; null for a response without HTML (error, timeout, non-HTML). */
  html?: string | null;
  page?: Partial<PageFetch>;
}

function fetchOf(page: Partial<PageFetch> = {}): PageFetch {
  return {
    url: PAGE_URL,
    finalUrl: page.url ?? PAGE_URL,
    status: 200,
    depth: 1,
    redirects: [],
    bytes: 5_000,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' },
    ...page,
  };
}

function run(testCase: Case): CheckResult[] {
  const page = fetchOf(testCase.page);
  const html = testCase.html === undefined ? doc() : testCase.html;
  const facts =
    html === null ? null : extractPageFacts(html, { url: page.finalUrl, headers: page.headers, status: page.status });
  return runPageChecks(facts, page);
}

const targets = (entries: Record<string, LinkTargetInfo>): ReadonlyMap<string, LinkTargetInfo> =>
  new Map(Object.entries(entries));
const okTargets = targets({ 'https://example.com/other': { status: 200 } });
const hreflangSet = (...links: [string, string][]): string =>
  links.map(([lang, href]) => `<link rel="alternate" hreflang="${lang}" href="${href}">`).join('');
const productLd = (product: object): string =>
  `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', ...product })}</script>`;

/** One failing and one passing case per page-scope check. Typed as a Record: a missing code does not compile. */
const ld = (value: object): string => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
const ARTICLE = {
  '@context': 'https://schema.org',
  '@type': 'Article',
  headline: 'Blue widgets',
  image: 'https://example.com/w.png',
  author: { '@type': 'Person', name: 'Ada' },
  datePublished: '2024-03-03',
};
const crumbs = (...items: object[]) =>
  ld({ '@context': 'https://schema.org', '@type': 'BreadcrumbList', itemListElement: items });
const faq = (answer: object) =>
  ld({
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: [{ '@type': 'Question', name: 'Why?', ...answer }],
  });

/** One failing and one passing case for each code of structured-international-checks.ts. */
const STRUCTURED_FIXTURES = {
  META_JSONLD_NO_CONTEXT: {
    fail: { html: doc({ head: ld({ ...ARTICLE, '@context': undefined }) }) },
    pass: { html: doc({ head: ld({ ...ARTICLE, '@context': { '@vocab': 'http://schema.org/' } }) }) },
  },
  META_JSONLD_TYPE_MISSING: {
    fail: { html: doc({ head: ld({ '@context': 'https://schema.org', name: 'Widgets' }) }) },
    pass: { html: doc({ head: ld({ '@context': 'https://schema.org', '@graph': [ARTICLE, { '@id': '#org' }] }) }) },
  },
  META_JSONLD_ORGANIZATION_INCOMPLETE: {
    fail: {
      html: doc({
        head: productLd({ '@type': 'Organization', name: 'Acme', url: 'https://example.com/', logo: '/l.png' }),
      }),
    },
    pass: { html: doc({ head: productLd({ '@type': 'Store', name: 'Acme', address: { streetAddress: '1 Road' } }) }) },
  },
  META_JSONLD_ARTICLE_INCOMPLETE: {
    fail: { html: doc({ head: ld({ ...ARTICLE, author: undefined, '@type': 'BlogPosting' }) }) },
    pass: { html: doc({ head: ld(ARTICLE) }) },
  },
  META_JSONLD_PRODUCT_NO_OFFER: {
    fail: { html: doc({ head: productLd({ '@type': 'Product', name: 'Widget' }) }) },
    pass: {
      html: doc({ head: productLd({ '@type': 'Product', name: 'Widget', aggregateRating: { ratingValue: 4 } }) }),
    },
  },
  META_JSONLD_BREADCRUMB_INVALID: {
    fail: { html: doc({ head: crumbs({ position: 1, name: 'Home', item: '/' }, { position: 3, name: 'Widgets' }) }) },
    pass: {
      html: doc({
        head: crumbs({ position: 1, name: 'Home', item: 'https://example.com/' }, { position: '2', name: 'W' }),
      }),
    },
  },
  META_JSONLD_FAQ_INVALID: {
    fail: { html: doc({ head: faq({ acceptedAnswer: { '@type': 'Answer' } }) }) },
    pass: { html: doc({ head: faq({ acceptedAnswer: [{ '@type': 'Answer', text: 'Because.' }] }) }) },
  },
  META_JSONLD_DATE_INVALID: {
    fail: { html: doc({ head: ld({ ...ARTICLE, datePublished: 'March 3, 2024' }) }) },
    pass: { html: doc({ head: ld({ ...ARTICLE, dateModified: '2024-03-03T09:30:00+01:00' }) }) },
  },
  META_HREFLANG_DUPLICATE: {
    fail: {
      html: doc({ head: hreflangSet(['en', PAGE_URL], ['EN', 'https://example.com/en'], ['x-default', PAGE_URL]) }),
    },
    pass: { html: doc({ head: hreflangSet(['en', PAGE_URL], ['en', `${PAGE_URL}#top`], ['x-default', PAGE_URL]) }) },
  },
  META_HREFLANG_LANG_MISMATCH: {
    fail: { html: doc({ head: hreflangSet(['de', PAGE_URL], ['x-default', PAGE_URL]) }) },
    pass: { html: doc({ lang: 'en-US', head: hreflangSet(['en-gb', PAGE_URL], ['x-default', PAGE_URL]) }) },
  },
  META_VIEWPORT_NOT_RESPONSIVE: {
    fail: { html: doc({ viewport: 'width=1024' }) },
    pass: { html: doc({ viewport: 'initial-scale=1' }) },
  },
  META_VIEWPORT_MULTIPLE: {
    fail: { html: doc({ head: '<meta name="viewport" content="width=device-width">' }) },
    pass: {},
  },
  META_OG_INCOMPLETE: {
    fail: { html: doc({ og: false, head: '<meta property="og:title" content="Blue widgets">' }) },
    pass: { html: doc({ head: '<meta property="og:image:url" content="https://example.com/w.png">' }) },
  },
  META_OG_IMAGE_RELATIVE: {
    fail: { html: doc({ head: '<meta property="og:image" content="//cdn.example.com/w.png">' }) },
    pass: {},
  },
  META_OG_URL_MISMATCH: {
    fail: { html: doc({ head: `<link rel="canonical" href="${PAGE_URL}"><meta property="og:url" content="/other">` }) },
    pass: { html: doc({ head: '<link rel="canonical" href="/good-page">' }) },
  },
  META_TWITTER_CARD_INVALID: {
    fail: { html: doc({ twitter: false, head: '<meta name="twitter:card" content="photo">' }) },
    pass: {},
  },
  TECH_AMP_NO_CANONICAL: {
    fail: { html: doc().replace('<html lang="en">', '<html \u26a1 lang="en">') },
    pass: {
      html: doc({ head: `<link rel="canonical" href="${PAGE_URL}">` }).replace(
        '<html lang="en">',
        '<html amp lang="en">',
      ),
    },
  },
  LINKS_PAGINATION_NOINDEX: {
    fail: { html: doc({ head: '<link rel="next" href="?page=3"><meta name="robots" content="noindex">' }) },
    pass: { html: doc({ head: '<link rel="prev" href="?page=1"><link rel="next" href="?page=3">' }) },
  },
} satisfies Partial<Record<PageCheckCode, { fail: Case; pass: Case }>>;

/** Browser rendering mode: the page's facts are the rendered doc(), `raw` the HTML as served (rendering-checks.ts). */
function rendered(raw: string, extra: Partial<NonNullable<PageFetch['rendering']>> = {}): Partial<PageFetch> {
  const facts = extractPageFacts(raw, { url: PAGE_URL, headers: { 'content-type': 'text/html; charset=utf-8' } });
  const rendering = { raw: facts, renderMs: 300, consoleErrors: [], consoleErrorCount: 0, failedRequests: [] };
  return { rendering: { ...rendering, failedRequestCount: 0, blockedByRobots: [], ...extra } };
}

const RENDERING_FIXTURES = {
  TECH_CLIENT_RENDERED_SUSPECTED: {
    fail: { html: doc({ body: '<div id="root"></div><script src="/app.js"></script>' }) },
    pass: {},
  },
  RENDER_TITLE_CHANGED: {
    fail: { page: rendered(doc({ title: 'Loading the shop' })) },
    pass: { page: rendered(doc()) },
  },
  RENDER_TITLE_ONLY_RENDERED: { fail: { page: rendered(doc({ title: null })) }, pass: { page: rendered(doc()) } },
  RENDER_DESCRIPTION_CHANGED: {
    fail: { page: rendered(doc({ description: null })) },
    pass: { page: rendered(doc()) },
  },
  RENDER_CANONICAL_CHANGED: {
    fail: { page: rendered(doc({ head: `<link rel="canonical" href="${PAGE_URL}">` })) },
    pass: {
      html: doc({ head: `<link rel="canonical" href="${PAGE_URL}">` }),
      page: rendered(doc({ head: `<link rel="canonical" href="${PAGE_URL}">` })),
    },
  },
  RENDER_NOINDEX_CHANGED: {
    fail: { page: rendered(doc({ head: '<meta name="robots" content="noindex">' })) },
    pass: { page: rendered(doc()) },
  },
  RENDER_NOFOLLOW_CHANGED: {
    fail: { page: rendered(doc({ head: '<meta name="robots" content="nofollow">' })) },
    pass: { page: rendered(doc()) },
  },
  RENDER_H1_CHANGED: {
    fail: { page: rendered(doc({ body: bodyWith('').replace('Blue widgets', 'Loading') })) },
    pass: { page: rendered(doc()) },
  },
  RENDER_LINKS_ONLY_RENDERED: {
    fail: { page: rendered(doc({ body: `<h1>Blue widgets</h1><p>${WORDS}</p>` })) },
    pass: { page: rendered(doc()) },
  },
  RENDER_CONTENT_NEEDS_JS: {
    fail: { page: rendered(doc({ body: '<h1>Blue widgets</h1><a href="/other">Widget sizes explained</a>' })) },
    pass: { page: rendered(doc()) },
  },
  RENDER_RESOURCE_BLOCKED_BY_ROBOTS: {
    fail: { page: rendered(doc(), { blockedByRobots: ['https://example.com/private/app.js'] }) },
    pass: { page: rendered(doc()) },
  },
  RENDER_CONSOLE_ERRORS: {
    fail: { page: rendered(doc(), { consoleErrors: ['TypeError: x is not a function'], consoleErrorCount: 1 }) },
    pass: { page: rendered(doc()) },
  },
  RENDER_FAILED_REQUESTS: {
    fail: {
      page: rendered(doc(), {
        failedRequests: [{ url: 'https://example.com/api', reason: 'HTTP 500' }],
        failedRequestCount: 1,
      }),
    },
    pass: { page: rendered(doc()) },
  },
} satisfies Partial<Record<PageCheckCode, { fail: Case; pass: Case }>>;

/** A page of `count` gallery images, lazy from `lazyFrom` on (null: none lazy). */
const gallery = (count: number, lazyFrom: number | null): string =>
  Array.from(
    { length: count },
    (_, i) =>
      `<img src="/g${i}.png" alt="Widget ${i}" width="40" height="30"` +
      `${lazyFrom !== null && i >= lazyFrom ? ' loading="lazy"' : ''}>`,
  ).join('');
/** The hero image right under the h1: the likely LCP element (hygiene-checks.ts, likelyLcpImage). */
const heroBody = (attributes: string): string =>
  `<h1>Blue widgets</h1><img src="/hero.jpg" alt="Blue widgets on a workbench" width="800" height="400"${attributes}>` +
  `<p>${WORDS}</p><a href="/other">Widget sizes explained</a>`;
const imageResource = (type: string, bytes: number): Partial<PageFetch> => ({
  resources: [
    { url: 'https://example.com/widget.png', kind: 'image', status: 200, bytes, headers: { 'content-type': type } },
  ],
});
const withCookie = (cookie: string): Partial<PageFetch> => ({
  headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'set-cookie': [cookie] },
});

/** One failing and one passing case for each page code of hygiene-checks.ts (content-security-checks.test.ts). */
const HYGIENE_FIXTURES = {
  CONTENT_IMAGE_ALT_FILENAME: {
    fail: { html: doc({ body: bodyWith('<img src="/x.png" alt="IMG_1234.jpg" width="1" height="1">') }) },
    pass: {},
  },
  CONTENT_IMAGE_EMPTY_SRC: {
    fail: { html: doc({ body: bodyWith('<img src="" alt="A blue widget" width="1" height="1">') }) },
    // A lazy loader keeps the URL in data-src until it sets src.
    pass: { html: doc({ body: bodyWith('<img src="" data-src="/x.png" alt="A blue widget" width="1" height="1">') }) },
  },
  CONTENT_PLACEHOLDER_TEXT: {
    fail: { html: doc({ body: bodyWith('<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>') }) },
    // Only visible text counts, not a script's strings.
    pass: { html: doc({ body: bodyWith('<script>const demo = "lorem ipsum dolor";</script>') }) },
  },
  LINKS_TEMPORARY_REDIRECT: {
    fail: {
      page: {
        url: 'https://example.com/old-page',
        finalUrl: PAGE_URL,
        redirects: [{ url: 'https://example.com/old-page', status: 302 }],
      },
    },
    pass: {
      page: {
        url: 'https://example.com/old-page',
        finalUrl: PAGE_URL,
        redirects: [{ url: 'https://example.com/old-page', status: 301 }],
      },
    },
  },
  LINKS_NO_ANCHOR_TEXT: {
    fail: { html: doc({ body: bodyWith('<a href="/cart"><img src="/cart.png" alt="" width="1" height="1"></a>') }) },
    pass: { html: doc({ body: bodyWith('<a href="/cart" aria-label="Shopping cart"><i class="icon"></i></a>') }) },
  },
  LINKS_TO_NON_CANONICAL: {
    fail: {
      page: {
        linkTargets: targets({ 'https://example.com/other': { status: 200, canonical: 'https://example.com/sizes' } }),
      },
    },
    pass: {
      page: {
        linkTargets: targets({ 'https://example.com/other': { status: 200, canonical: 'https://example.com/other' } }),
      },
    },
  },
  LINKS_TO_NOINDEX: {
    fail: {
      page: { linkTargets: targets({ 'https://example.com/other': { status: 200, noindex: true, canonical: null } }) },
    },
    pass: {
      page: { linkTargets: targets({ 'https://example.com/other': { status: 200, noindex: false, canonical: null } }) },
    },
  },
  TECH_COOKIE_INSECURE: {
    fail: { page: withCookie('session=abc123; Path=/; HttpOnly') },
    pass: { page: withCookie('session=abc123; Path=/; Secure; HttpOnly') },
  },
  TECH_META_REFRESH: {
    fail: { html: doc({ head: '<meta http-equiv="refresh" content="0; url=https://example.com/new-page">' }) },
    pass: {},
  },
  TECH_SOFT_404: {
    fail: {
      html: doc({
        title: 'Page not found',
        body: '<h1>Page not found</h1><p>Sorry, this page is gone.</p><a href="/other">Home</a>',
      }),
    },
    // A short page is not a soft 404 unless its title or h1 says the page is missing.
    pass: {
      html: doc({ body: '<h1>Contact us</h1><p>Call us on weekdays.</p><a href="/other">Home</a>' }),
    },
  },
  TECH_URL_DOUBLE_SLASH: { fail: { page: { url: 'https://example.com/shop//good-page' } }, pass: {} },
  TECH_URL_NON_ASCII: {
    fail: { page: { url: 'https://example.com/caf%C3%A9-widgets' } },
    // The path is judged, not the query.
    pass: { page: { url: 'https://example.com/good-page?q=caf%C3%A9' } },
  },
  TECH_URL_SESSION_ID: {
    fail: { page: { url: `${PAGE_URL}?PHPSESSID=9f2c4e1ab7d3` } },
    // A short `sid` is a site or section id, not a session.
    pass: { page: { url: `${PAGE_URL}?sid=12` } },
  },
  PERF_IMAGE_LEGACY_FORMAT: {
    fail: { page: imageResource('image/png', 150 * 1024) },
    pass: { page: imageResource('image/webp', 150 * 1024) },
  },
  PERF_LCP_IMAGE_LAZY: {
    fail: { html: doc({ body: heroBody(' loading="lazy"') }) },
    pass: { html: doc({ body: heroBody(' fetchpriority="high"') }) },
  },
  PERF_IMAGES_NOT_LAZY: {
    fail: { html: doc({ body: bodyWith(gallery(12, null)) }) },
    pass: { html: doc({ body: bodyWith(gallery(12, 3)) }) },
  },
} satisfies Partial<Record<PageCheckCode, { fail: Case; pass: Case }>>;

const FIXTURES: Record<PageCheckCode, { fail: Case; pass: Case }> = {
  META_TITLE_MISSING: { fail: { html: doc({ title: null }) }, pass: {} },
  META_TITLE_TOO_SHORT: { fail: { html: doc({ title: 'Widgets' }) }, pass: {} },
  META_TITLE_TOO_LONG: {
    fail: { html: doc({ title: 'Blue widgets, red widgets and green widgets for every workshop' }) },
    pass: {},
  },
  META_TITLE_MULTIPLE: { fail: { html: doc({ head: '<title>Another title</title>' }) }, pass: {} },
  META_DESCRIPTION_MISSING: { fail: { html: doc({ description: '  ' }) }, pass: {} },
  META_DESCRIPTION_TOO_SHORT: { fail: { html: doc({ description: 'Blue widgets.' }) }, pass: {} },
  META_DESCRIPTION_TOO_LONG: {
    fail: { html: doc({ description: `${GOOD_DESCRIPTION} ${GOOD_DESCRIPTION}` }) },
    pass: {},
  },
  META_DESCRIPTION_MULTIPLE: {
    fail: { html: doc({ head: '<meta name="description" content="Second description">' }) },
    pass: {},
  },
  META_DESCRIPTION_SAME_AS_TITLE: {
    fail: {
      html: doc({ title: 'Blue widgets for every workshop', description: '  blue Widgets for every workshop ' }),
    },
    pass: {},
  },
  META_TAGS_IN_BODY: {
    fail: { html: doc({ body: bodyWith('<link rel="canonical" href="https://example.com/good-page">') }) },
    pass: {},
  },
  META_VIEWPORT_MISSING: { fail: { html: doc({ viewport: null }) }, pass: {} },
  // Two of the four basics missing; one alone is its own check only.
  META_BASICS_MISSING: {
    fail: { html: doc({ viewport: null, description: null }) },
    pass: { html: doc({ viewport: null }) },
  },
  META_VIEWPORT_NO_ZOOM: { fail: { html: doc({ viewport: 'width=device-width, maximum-scale=1' }) }, pass: {} },
  META_LANG_MISSING: { fail: { html: doc({ lang: null }) }, pass: {} },
  META_LANG_INVALID: { fail: { html: doc({ lang: 'english' }) }, pass: { html: doc({ lang: 'pt-BR' }) } },
  META_CHARSET_MISSING: {
    fail: { html: doc({ charset: false }), page: { headers: { 'content-type': 'text/html' } } },
    pass: { html: doc({ charset: false }) },
  },
  META_DOCTYPE_MISSING: { fail: { html: doc({ doctype: null }) }, pass: {} },
  META_OPEN_GRAPH_MISSING: { fail: { html: doc({ og: false }) }, pass: {} },
  META_TWITTER_CARD_MISSING: { fail: { html: doc({ twitter: false }) }, pass: {} },
  META_JSONLD_INVALID: {
    fail: { html: doc({ head: '<script type="application/ld+json">{"@type": "Product",}</script>' }) },
    pass: { html: doc({ head: productLd({ '@type': 'Organization', name: 'Example' }) }) },
  },
  META_JSONLD_REQUIRED_MISSING: {
    fail: { html: doc({ head: productLd({ '@type': 'Product', offers: { price: 3 } }) }) },
    pass: {
      html: doc({ head: productLd({ '@graph': [{ '@type': 'Product', name: 'Widget', offers: { price: 3 } }] }) }),
    },
  },
  META_HREFLANG_INVALID: {
    fail: { html: doc({ head: hreflangSet(['en-UK', PAGE_URL], ['x-default', PAGE_URL]) }) },
    pass: { html: doc({ head: hreflangSet(['en-GB', PAGE_URL], ['x-default', PAGE_URL]) }) },
  },
  META_HREFLANG_RELATIVE: {
    fail: { html: doc({ head: hreflangSet(['en', PAGE_URL], ['de', '/de/good-page']) }) },
    pass: { html: doc({ head: hreflangSet(['en', PAGE_URL], ['de', 'https://example.com/de/good-page']) }) },
  },
  META_HREFLANG_NO_SELF: {
    fail: { html: doc({ head: hreflangSet(['de', 'https://example.com/de/good-page']) }) },
    pass: { html: doc({ head: hreflangSet(['de', 'https://example.com/de/good-page'], ['en', PAGE_URL]) }) },
  },
  META_HREFLANG_NO_X_DEFAULT: {
    fail: { html: doc({ head: hreflangSet(['en', PAGE_URL]) }) },
    pass: { html: doc({ head: hreflangSet(['en', PAGE_URL], ['x-default', PAGE_URL]) }) },
  },
  // Structured data, hreflang, viewport, social, AMP and pagination: structured-international-checks.test.ts
  ...STRUCTURED_FIXTURES,
  // Client-rendered pages (html mode) and raw versus rendered (browser mode): rendering-checks.test.ts
  ...RENDERING_FIXTURES,
  // Images, filler text, redirects, link names, cookies, meta refresh, soft 404s, URLs and lazy loading:
  // content-security-checks.test.ts
  ...HYGIENE_FIXTURES,

  CONTENT_H1_MISSING: {
    fail: { html: doc({ body: `<h2>Sub</h2><p>${WORDS}</p><a href="/other">Widget sizes</a>` }) },
    pass: {},
  },
  CONTENT_H1_MULTIPLE: { fail: { html: doc({ body: bodyWith('<h1>Second</h1>') }) }, pass: {} },
  CONTENT_HEADING_SKIP: {
    fail: { html: doc({ body: bodyWith('<h2>Two</h2><h4>Four</h4>') }) },
    pass: { html: doc({ body: bodyWith('<h2>Two</h2><h3>Three</h3><h2>Two</h2>') }) },
  },
  CONTENT_THIN: {
    fail: { html: doc({ body: '<h1>Widgets</h1><p>Only a few words here.</p><a href="/other">Sizes</a>' }) },
    pass: {},
  },
  CONTENT_IMAGE_ALT_MISSING: {
    fail: { html: doc({ body: bodyWith('<img src="/x.png" width="1" height="1">') }) },
    pass: { html: doc({ body: bodyWith('<img src="/x.png" alt="" width="1" height="1">') }) },
  },
  CONTENT_IMAGE_ALT_TOO_LONG: {
    fail: { html: doc({ body: bodyWith(`<img src="/x.png" alt="${'long '.repeat(25)}" width="1" height="1">`) }) },
    pass: {},
  },
  CONTENT_IMAGE_BROKEN: {
    fail: {
      html: doc({ body: bodyWith('<img src="/gone.png" alt="" width="1" height="1">') }),
      page: { linkTargets: targets({ 'https://example.com/gone.png': { status: 404 } }) },
    },
    pass: {
      html: doc({ body: bodyWith('<img src="/x.png" alt="" width="1" height="1">') }),
      page: { linkTargets: targets({ 'https://example.com/x.png': { status: 200 } }) },
    },
  },
  CONTENT_LINK_TEXT_GENERIC: {
    fail: { html: doc({ body: bodyWith('<a href="/report">Click here!</a>') }) },
    pass: { html: doc({ body: bodyWith('<a href="/report" aria-label="Annual report">more</a>') }) },
  },
  CONTENT_DUPLICATE_ID: {
    fail: { html: doc({ body: bodyWith('<div id="main"></div><div id="main"></div>') }) },
    pass: { html: doc({ body: bodyWith('<div id="main"></div><div id="aside"></div>') }) },
  },
  CONTENT_LOW_TEXT_RATIO: {
    fail: { html: doc({ head: `<style>${'.a{color:red}'.repeat(2_000)}</style>` }) },
    pass: {},
  },

  LINKS_INTERNAL_BROKEN: {
    fail: { page: { linkTargets: targets({ 'https://example.com/other': { status: 404 } }) } },
    pass: { page: { linkTargets: okTargets } },
  },
  LINKS_EXTERNAL_BROKEN: {
    fail: {
      html: doc({ body: bodyWith('<a href="https://other.org/gone">Gone</a>') }),
      page: { linkTargets: targets({ 'https://other.org/gone': { status: 410 } }) },
    },
    pass: {
      html: doc({ body: bodyWith('<a href="https://other.org/ok">Fine</a>') }),
      page: { linkTargets: targets({ 'https://other.org/ok': { status: 200 } }) },
    },
  },
  TECH_RESOURCE_BROKEN: {
    fail: {
      html: doc({ head: '<script src="https://cdn.example.net/app.js" defer></script>' }),
      page: {
        linkTargets: targets({
          'https://cdn.example.net/app.js': { status: null, failure: 'The server refused the connection' },
        }),
      },
    },
    pass: {
      html: doc({ head: '<link rel="stylesheet" href="/site.css">' }),
      page: { linkTargets: targets({ 'https://example.com/site.css': { status: 200 } }) },
    },
  },
  TECH_RESOURCE_PRIVATE_ADDRESS: {
    fail: {
      html: doc({ body: bodyWith('<img src="http://10.0.0.5/logo.png" alt="" width="1" height="1">') }),
      page: {
        linkTargets: targets({
          'http://10.0.0.5/logo.png': { status: null, failure: 'refused', blockedAddress: true },
        }),
      },
    },
    pass: {
      html: doc({ body: bodyWith('<img src="/x.png" alt="" width="1" height="1">') }),
      page: { linkTargets: targets({ 'https://example.com/x.png': { status: 200 } }) },
    },
  },
  LINKS_TO_REDIRECT: {
    fail: { page: { linkTargets: targets({ 'https://example.com/other': { status: 200, redirected: true } }) } },
    pass: { page: { linkTargets: okTargets } },
  },
  LINKS_REDIRECT_CHAIN: {
    fail: {
      page: {
        url: 'http://example.com/a',
        finalUrl: PAGE_URL,
        redirects: [
          { url: 'http://example.com/a', status: 301 },
          { url: 'https://example.com/a', status: 301 },
        ],
      },
    },
    pass: {
      page: {
        url: 'http://example.com/good-page',
        finalUrl: PAGE_URL,
        redirects: [{ url: 'http://example.com/good-page', status: 301 }],
      },
    },
  },
  LINKS_REDIRECT_LOOP: {
    fail: {
      html: null,
      page: {
        url: 'https://example.com/a',
        finalUrl: 'https://example.com/a',
        status: 301,
        redirects: [
          { url: 'https://example.com/a', status: 301 },
          { url: 'https://example.com/b', status: 302 },
        ],
      },
    },
    pass: { page: { url: 'https://example.com/a', redirects: [{ url: 'https://example.com/a', status: 301 }] } },
  },
  LINKS_DEAD_END: {
    fail: { html: doc({ body: `<h1>Widgets</h1><p>${WORDS}</p><a href="mailto:x@example.com">Mail us</a>` }) },
    pass: {},
  },
  LINKS_TOO_MANY: {
    fail: {
      html: doc({ body: bodyWith(Array.from({ length: 100 }, (_, i) => `<a href="/p${i}">Page ${i}</a>`).join('')) }),
    },
    pass: {},
  },
  LINKS_INTERNAL_NOFOLLOW: {
    fail: { html: doc({ body: bodyWith('<a href="/login" rel="nofollow">Log in</a>') }) },
    pass: { html: doc({ body: bodyWith('<a href="https://ads.org/" rel="nofollow">Ad</a>') }) },
  },
  // The site's own links only: an http link to another site is that site's (calibration row 23).
  LINKS_HTTPS_TO_HTTP: {
    fail: { html: doc({ body: bodyWith('<a href="http://example.com/about">About us</a>') }) },
    pass: { html: doc({ body: bodyWith('<a href="http://other.org/">Other</a>') }) },
  },
  LINKS_UNCRAWLABLE: {
    fail: { html: doc({ body: bodyWith('<a href="javascript:void(0)">Menu</a>') }) },
    // Lighthouse's crawlable-anchors rules: a "#" toggle with a handler and a javascript: action are not links.
    pass: {
      html: doc({
        body: bodyWith('<a href="#" onclick="toggle()">Menu</a><a href="javascript:openMenu()">Open</a>'),
      }),
    },
  },
  LINKS_DEPTH_HIGH: { fail: { page: { depth: 5 } }, pass: { page: { depth: 4 } } },
  LINKS_LOCALHOST: {
    fail: { html: doc({ body: bodyWith('<a href="http://localhost:3000/admin">Admin</a>') }) },
    pass: {},
  },

  TECH_STATUS_4XX: { fail: { html: null, page: { status: 404 } }, pass: {} },
  TECH_STATUS_5XX: { fail: { html: null, page: { status: 503 } }, pass: {} },
  TECH_TIMEOUT: { fail: { html: null, page: { status: 0, timedOut: true } }, pass: {} },
  PAGE_FETCH_FAILED: {
    fail: { html: null, page: { status: 0, fetchError: 'The server refused the connection' } },
    pass: {},
  },
  TECH_NOINDEX: { fail: { html: doc({ head: '<meta name="robots" content="noindex">' }) }, pass: {} },
  TECH_BLOCKED_BY_ROBOTS: {
    fail: { page: { linkTargets: targets({ 'https://example.com/other': { status: null, blockedByRobots: true } }) } },
    pass: { page: { linkTargets: okTargets } },
  },
  TECH_SITEMAP_NON_INDEXABLE: {
    fail: {
      html: doc({ head: '<link rel="canonical" href="https://example.com/elsewhere">' }),
      page: { inSitemap: true },
    },
    pass: { page: { inSitemap: true } },
  },
  TECH_CANONICAL_MULTIPLE: {
    fail: {
      html: doc({ head: `<link rel="canonical" href="${PAGE_URL}"><link rel="canonical" href="${PAGE_URL}?a=1">` }),
    },
    pass: { html: doc({ head: `<link rel="canonical" href="${PAGE_URL}">` }) },
  },
  TECH_CANONICAL_RELATIVE: {
    fail: { html: doc({ head: '<link rel="canonical" href="/good-page">' }) },
    pass: { html: doc({ head: `<link rel="canonical" href="${PAGE_URL}">` }) },
  },
  // Sphinx's html_baseurl left at the build folder (Debian's Python manual): search engines ignore it.
  TECH_CANONICAL_INVALID: {
    fail: { html: doc({ head: '<link rel="canonical" href="file:///usr/share/doc/site/good-page.html">' }) },
    pass: { html: doc({ head: `<link rel="canonical" href="${PAGE_URL}">` }) },
  },
  TECH_CANONICAL_OTHER_HOST: {
    fail: { html: doc({ head: '<link rel="canonical" href="https://mirror.example.org/good-page">' }) },
    pass: { html: doc({ head: '<link rel="canonical" href="https://www.example.com/good-page">' }) },
  },
  TECH_CANONICAL_MISMATCH: {
    fail: {
      html: doc({ head: `<link rel="canonical" href="${PAGE_URL}">` }),
      page: { headers: { 'content-type': 'text/html', link: '<https://example.com/other>; rel="canonical"' } },
    },
    pass: {
      html: doc({ head: `<link rel="canonical" href="${PAGE_URL}">` }),
      page: { headers: { 'content-type': 'text/html', link: `<${PAGE_URL}>; rel=canonical` } },
    },
  },
  TECH_CANONICAL_TO_BROKEN: {
    fail: {
      html: doc({ head: '<link rel="canonical" href="https://example.com/other">' }),
      page: { linkTargets: targets({ 'https://example.com/other': { status: 404 } }) },
    },
    pass: {
      html: doc({ head: '<link rel="canonical" href="https://example.com/other">' }),
      page: { linkTargets: okTargets },
    },
  },
  TECH_URL_UPPERCASE: {
    fail: { page: { url: 'https://example.com/Good-Page' } },
    pass: { page: { url: 'https://example.com/caf%C3%A9' } },
  },
  TECH_URL_UNDERSCORE: {
    fail: { page: { url: 'https://example.com/good_page' } },
    pass: { page: { url: 'https://example.com/good-page?utm_source=x' } },
  },
  TECH_URL_TOO_LONG: { fail: { page: { url: `https://example.com/${'a'.repeat(100)}` } }, pass: {} },
  TECH_HTTP_PAGE: { fail: { page: { url: 'http://example.com/good-page' } }, pass: {} },
  TECH_MIXED_CONTENT: {
    fail: { html: doc({ body: bodyWith('<img src="http://example.com/x.png" alt="x" width="1" height="1">') }) },
    pass: {},
  },
  TECH_HTML_TOO_LARGE: { fail: { html: doc({ head: `<!--${'x'.repeat(1_100_000)}-->` }) }, pass: {} },

  PERF_LCP: { fail: { page: { labMetrics: { lcpMs: 2_600 } } }, pass: { page: { labMetrics: { lcpMs: 2_500 } } } },
  PERF_CLS: { fail: { page: { labMetrics: { cls: 0.3 } } }, pass: { page: { labMetrics: { cls: 0.05 } } } },
  PERF_INP: { fail: { page: { labMetrics: { inpMs: 250 } } }, pass: { page: { labMetrics: { inpMs: 100 } } } },
  PERF_TBT: { fail: { page: { labMetrics: { tbtMs: 700 } } }, pass: { page: { labMetrics: { tbtMs: 150 } } } },
  PERF_FCP: { fail: { page: { labMetrics: { fcpMs: 2_000 } } }, pass: { page: { labMetrics: { fcpMs: 1_000 } } } },
  PERF_TTFB: { fail: { page: { responseMs: 900 } }, pass: { page: { responseMs: 120 } } },
  PERF_DOM_SIZE: { fail: { html: doc({ body: bodyWith('<div></div>'.repeat(1_600)) }) }, pass: {} },
  PERF_PAGE_WEIGHT: {
    fail: { page: { labMetrics: { pageWeightBytes: 5_000_000 } } },
    pass: { page: { labMetrics: { pageWeightBytes: 900_000 } } },
  },
  PERF_IMAGE_TOO_LARGE: {
    fail: { page: { resources: [{ url: 'https://example.com/widget.png', kind: 'image', bytes: 300 * 1024 }] } },
    pass: { page: { resources: [{ url: 'https://example.com/widget.png', kind: 'image', bytes: 30 * 1024 }] } },
  },
  PERF_IMAGE_NO_DIMENSIONS: {
    fail: { html: doc({ body: bodyWith('<img src="/x.png" alt="x" width="10">') }) },
    pass: {},
  },
  PERF_NO_COMPRESSION: {
    fail: { page: { headers: { 'content-type': 'text/html' } } },
    pass: { page: { headers: { 'content-type': 'text/html', 'content-encoding': 'br' } } },
  },
  PERF_RENDER_BLOCKING: {
    fail: { html: doc({ head: '<script src="/app.js"></script>' }) },
    pass: { html: doc({ head: '<script src="/app.js" defer></script>' }) },
  },
  PERF_NO_CACHE_HEADERS: {
    fail: {
      page: {
        resources: [
          { url: 'https://example.com/app.js', kind: 'script', status: 200, headers: { 'cache-control': 'no-cache' } },
        ],
      },
    },
    pass: {
      page: {
        resources: [{ url: 'https://example.com/app.js', kind: 'script', status: 200, headers: { etag: '"abc"' } }],
      },
    },
  },
};

describe('check catalog', () => {
  it('holds every docs/scores.md code once, with a title, severity, category and scope', () => {
    const codes = CHECK_CATALOG.map((check) => check.code);
    // No fixed count (the catalog grows): at least 150 codes, each once.
    expect(codes.length).toBeGreaterThanOrEqual(150);
    expect(new Set(codes).size).toBe(codes.length);
    for (const check of CHECK_CATALOG) {
      expect(check.title.length).toBeGreaterThan(5);
      expect(check.description.length).toBeGreaterThan(10);
      expect(['CRITICAL', 'WARNING', 'NOTICE']).toContain(check.severity);
      expect(['META', 'CONTENT', 'LINKS', 'TECHNICAL', 'PERFORMANCE']).toContain(check.category);
    }
    expect(CHECKS_BY_CODE.get('META_DESCRIPTION_MISSING')).toMatchObject({
      title: 'Missing meta description',
      severity: 'WARNING',
      category: 'META',
      scope: 'page',
    });
    expect(CHECKS_BY_CODE.get('TECH_ROBOTS_BLOCKS_ALL')).toMatchObject({ severity: 'CRITICAL', scope: 'site' });
  });

  it('keeps the thresholds of docs/scores.md', () => {
    expect(CHECK_THRESHOLDS).toMatchObject({
      titleMinChars: 30,
      titleMaxChars: 60,
      descriptionMinChars: 70,
      descriptionMaxChars: 160,
      thinContentWords: 200,
      maxLinksPerPage: 100,
      maxUrlChars: 115,
      maxClickDepth: 4,
      maxAltChars: 100,
      maxHtmlBytes: 1_048_576,
      minTextRatio: 0.1,
      maxImageBytes: 204_800,
      nearDuplicateSimilarity: 0.9,
    });
    // Lighthouse's dom-size audit: warns over 800 elements, fails over 1,400 (docs/scores.md, banded checks).
    expect(CHECK_THRESHOLDS.metrics.domSize).toMatchObject({ good: 800, poor: 1_400 });
    expect(CHECK_THRESHOLDS.metrics.pageWeight).toMatchObject({ good: 2_667 * 1024, poor: 4_000 * 1024 });
  });

  it('has a failing and a passing fixture for every page-scope code', () => {
    const pageCodes = CHECK_CATALOG.filter((check) => check.scope === 'page').map((check) => check.code);
    expect([...PAGE_CHECK_CODES].sort()).toEqual(pageCodes.sort());
    for (const code of pageCodes) {
      const fixture = FIXTURES[code as PageCheckCode];
      expect(fixture, code).toBeDefined();
      expect(fixture.fail, code).toBeDefined();
      expect(fixture.pass, code).toBeDefined();
    }
  });
});

describe('runPageChecks', () => {
  it('finds nothing wrong with the baseline document', () => {
    const failed = run({
      page: { linkTargets: okTargets, inSitemap: true, labMetrics: { lcpMs: 1_000 }, responseMs: 100 },
    }).filter((r) => r.failed);
    expect(failed).toEqual([]);
  });

  it('returns one result per page-scope code, in catalog order', () => {
    expect(run({}).map((r) => r.code)).toEqual([...PAGE_CHECK_CODES]);
  });

  it.each(Object.entries(FIXTURES) as [PageCheckCode, { fail: Case; pass: Case }][])(
    '%s: fails on its failing fixture, passes on its passing one',
    (code, fixture) => {
      const failing = run(fixture.fail);
      expect(failing.filter((r) => r.failed).map((r) => r.code)).toContain(code);
      const passing = run(fixture.pass).find((r) => r.code === code)!;
      expect(passing).toMatchObject({ applicable: true, failed: false });
    },
  );

  it('marks checks without data as not applicable rather than passed', () => {
    const results = new Map(run({}).map((r) => [r.code, r]));
    for (const code of [
      'PERF_LCP',
      'PERF_PAGE_WEIGHT',
      'PERF_IMAGE_TOO_LARGE',
      'LINKS_INTERNAL_BROKEN',
      'TECH_CANONICAL_TO_BROKEN',
      'META_HREFLANG_NO_SELF',
      'TECH_SITEMAP_NON_INDEXABLE',
    ] as const) {
      expect(results.get(code), code).toEqual({ code, applicable: false, failed: false });
    }
  });

  it('applies no HTML check to an error page and no thin-content check to a noindex page', () => {
    const errorPage = new Map(run({ page: { status: 404 } }).map((r) => [r.code, r]));
    expect(errorPage.get('META_TITLE_MISSING')?.applicable).toBe(false);
    expect(errorPage.get('TECH_STATUS_4XX')).toMatchObject({
      applicable: true,
      failed: true,
      evidence: { status: 404 },
    });
    const noindex = run({
      html: doc({ head: '<meta name="robots" content="noindex">', body: '<h1>x</h1><a href="/a">a</a>' }),
    });
    expect(noindex.find((r) => r.code === 'CONTENT_THIN')?.applicable).toBe(false);
  });

  it('does not check links from an http page for LINKS_HTTPS_TO_HTTP', () => {
    const results = run({
      html: doc({ body: bodyWith('<a href="http://other.org/">x</a>') }),
      page: { url: 'http://example.com/p' },
    });
    expect(results.find((r) => r.code === 'LINKS_HTTPS_TO_HTTP')?.applicable).toBe(false);
  });

  it.each([
    // Needs improvement is a NOTICE, poor a WARNING: no measured value takes a page out of search (docs/scores.md).
    ['PERF_LCP', { labMetrics: { lcpMs: 3_000 } }, 'NOTICE'],
    ['PERF_LCP', { labMetrics: { lcpMs: 4_001 } }, 'WARNING'],
    ['PERF_CLS', { labMetrics: { cls: 0.2 } }, 'NOTICE'],
    ['PERF_TTFB', { responseMs: 2_000 }, 'WARNING'],
  ] as const)('%s escalates by band: %j -> %s', (code, page, severity) => {
    expect(run({ page }).find((r) => r.code === code)).toMatchObject({ failed: true, severity });
  });

  it('charges a noindex page the sitemap lists as CRITICAL (unintended), another one at the catalog NOTICE', () => {
    const noindex = doc({ head: '<meta name="robots" content="noindex">' });
    const listed = run({ html: noindex, page: { inSitemap: true } }).find((r) => r.code === 'TECH_NOINDEX');
    const linked = run({ html: noindex }).find((r) => r.code === 'TECH_NOINDEX');
    expect(listed).toMatchObject({ failed: true, severity: 'CRITICAL' });
    expect(linked).toMatchObject({ failed: true });
    expect(linked?.severity).toBeUndefined();
  });

  it('puts small, useful evidence on failures', () => {
    const results = new Map(
      run({
        html: doc({
          title: 'Widgets',
          body: bodyWith('<img src="/a.png" width="1" height="1"><img src="/b.png" width="1" height="1">'),
        }),
      }).map((r) => [r.code, r]),
    );
    expect(results.get('META_TITLE_TOO_SHORT')?.evidence).toEqual({ title: 'Widgets', length: 7 });
    expect(results.get('CONTENT_IMAGE_ALT_MISSING')?.evidence).toEqual({
      count: 2,
      images: ['https://example.com/a.png', 'https://example.com/b.png'],
    });
  });

  it('skips LINKS_LOCALHOST when the audited site itself runs on localhost', () => {
    const results = run({
      html: doc({ body: bodyWith('<a href="http://localhost:3000/x">x</a>') }),
      page: { url: 'http://localhost:3000/' },
    });
    expect(results.find((r) => r.code === 'LINKS_LOCALHOST')?.applicable).toBe(false);
  });

  // The false positives of a real manual (PostgreSQL's HTML docs): symbols, same-page links, statements as text.
  it.each([
    ['<a href="/a">&lt;this&gt;</a>', false],
    ['<a href="/a"><code>CONTINUE</code></a>', false],
    ['<a href="#notes">here</a>', false],
    ['<a href="/good-page#notes">more</a>', false],
    ['<a href="/a">Read more about blue widgets</a>', false],
    ['<a href="/a">Read more »</a>', true],
    ['<a href="/a">  MORE… </a>', true],
    ['<a href="/a#notes">here</a>', true],
  ])('CONTENT_LINK_TEXT_GENERIC on %s: %s', (link, failed) => {
    const results = run({ html: doc({ body: bodyWith(link) }) });
    expect(results.find((r) => r.code === 'CONTENT_LINK_TEXT_GENERIC')).toMatchObject({ applicable: true, failed });
  });

  it('reads generic link texts in the page language, and every list when it has none', () => {
    const code = (html: string) => run({ html }).find((r) => r.code === 'CONTENT_LINK_TEXT_GENERIC')?.failed;
    expect(code(doc({ lang: 'de-AT', body: bodyWith('<a href="/a">Mehr</a>') }))).toBe(true);
    expect(code(doc({ lang: 'de-AT', body: bodyWith('<a href="/a">more</a>') }))).toBe(false);
    expect(code(doc({ lang: null, body: bodyWith('<a href="/a">weiterlesen</a>') }))).toBe(true);
  });

  it('does not treat a throttled (429) link target as broken', () => {
    const results = run({ page: { linkTargets: targets({ 'https://example.com/other': { status: 429 } }) } });
    expect(results.find((r) => r.code === 'LINKS_INTERNAL_BROKEN')).toMatchObject({ applicable: true, failed: false });
  });
});

describe('aggregateChecks', () => {
  const fail = (code: CheckResult['code'], evidence?: Record<string, unknown>): CheckResult => ({
    code,
    applicable: true,
    failed: true,
    ...(evidence ? { evidence } : {}),
  });
  const passed = (code: CheckResult['code']): CheckResult => ({ code, applicable: true, failed: false });
  const na = (code: CheckResult['code']): CheckResult => ({ code, applicable: false, failed: false });

  it('folds page results into one entry per code with affected and applicable counts', () => {
    const aggregates = aggregateChecks([
      {
        url: 'https://e.com/1',
        results: [fail('META_TITLE_MISSING', { titleCount: 0 }), passed('CONTENT_H1_MISSING'), na('PERF_LCP')],
      },
      { url: 'https://e.com/2', results: [passed('META_TITLE_MISSING'), passed('CONTENT_H1_MISSING')] },
      { url: 'https://e.com/3', results: [fail('META_TITLE_MISSING'), passed('CONTENT_H1_MISSING')] },
    ]);
    expect(aggregates.map((a) => a.code)).toEqual(['META_TITLE_MISSING', 'CONTENT_H1_MISSING']);
    expect(aggregates[0]).toMatchObject({
      title: 'Missing title',
      severity: 'CRITICAL',
      category: 'META',
      scope: 'page',
      affectedPages: 2,
      applicablePages: 3,
      occurrences: [{ url: 'https://e.com/1', evidence: { titleCount: 0 } }, { url: 'https://e.com/3' }],
    });
    expect(aggregates[1]).toMatchObject({ affectedPages: 0, applicablePages: 3, occurrences: [] });
    expect(failingIssues(aggregates).map((a) => a.code)).toEqual(['META_TITLE_MISSING']);
  });

  it('merges repeated results for one page: failed beats passed beats not applicable', () => {
    const aggregates = aggregateChecks(
      [
        { url: 'https://e.com/1', results: [na('LINKS_INTERNAL_BROKEN')] },
        { url: 'https://e.com/2', results: [passed('LINKS_INTERNAL_BROKEN')] },
      ],
      {
        site: [],
        pages: [
          { url: 'https://e.com/1', results: [fail('LINKS_INTERNAL_BROKEN')] },
          { url: 'https://e.com/2', results: [passed('LINKS_INTERNAL_BROKEN')] },
        ],
      },
    );
    expect(aggregates).toHaveLength(1);
    expect(aggregates[0]).toMatchObject({ affectedPages: 1, applicablePages: 2 });
  });

  it('reports the worst band of a banded check and caps occurrences without losing the count', () => {
    const aggregates = aggregateChecks(
      [
        {
          url: 'https://e.com/1',
          results: [{ code: 'PERF_LCP', applicable: true, failed: true, severity: 'WARNING' }],
        },
        {
          url: 'https://e.com/2',
          results: [{ code: 'PERF_LCP', applicable: true, failed: true, severity: 'CRITICAL' }],
        },
        {
          url: 'https://e.com/3',
          results: [{ code: 'PERF_LCP', applicable: true, failed: true, severity: 'WARNING' }],
        },
      ],
      undefined,
      { maxOccurrencesPerCode: 2 },
    );
    expect(aggregates[0]).toMatchObject({ severity: 'CRITICAL', affectedPages: 3, omittedOccurrences: 1 });
    expect(aggregates[0].occurrences).toHaveLength(2);
  });

  it('takes site results as they are', () => {
    const aggregates = aggregateChecks([], {
      site: [
        {
          code: 'TECH_ROBOTS_MISSING',
          applicable: true,
          failed: true,
          occurrences: [{ url: 'https://e.com/robots.txt', evidence: { status: 404 } }],
          applicablePages: 1,
        },
        { code: 'TECH_HSTS_MISSING', applicable: false, failed: false, occurrences: [], applicablePages: 0 },
        { code: 'META_TITLE_DUPLICATE', applicable: true, failed: false, occurrences: [], applicablePages: 40 },
      ],
      pages: [],
    });
    expect(aggregates.map((a) => [a.code, a.scope, a.affectedPages, a.applicablePages])).toEqual([
      ['META_TITLE_DUPLICATE', 'site', 0, 40],
      ['TECH_ROBOTS_MISSING', 'site', 1, 1],
    ]);
  });
});

describe('metaTagsReport', () => {
  it('returns the meta-tags tool shape with the failing single-page checks', () => {
    const html = doc({
      title: 'Widgets',
      head:
        `<link rel="canonical" href="/good-page"><meta name="robots" content="noindex"><meta ` +
        `property="og:image" content="/og.png">
        ${hreflangSet(['en', PAGE_URL], ['de', 'https://example.com/de'])}` +
        `${productLd({ '@type': 'Product', name: 'W', offers: {} })}`,
    });
    const facts = extractPageFacts(html, { url: PAGE_URL });
    const report = metaTagsReport(facts);
    expect(report).toMatchObject({
      url: PAGE_URL,
      title: 'Widgets',
      description: GOOD_DESCRIPTION,
      canonical: PAGE_URL,
      robots: 'noindex',
      viewport: 'width=device-width, initial-scale=1',
      lang: 'en',
      charset: 'utf-8',
      openGraph: { 'og:title': 'Blue widgets', 'og:image': '/og.png' },
      twitter: { 'twitter:card': 'summary' },
      hreflang: [
        { lang: 'en', href: PAGE_URL },
        { lang: 'de', href: 'https://example.com/de' },
      ],
      jsonLd: [{ '@context': 'https://schema.org', '@type': 'Product', name: 'W', offers: {} }],
    });
    expect(report.issues.map((issue) => issue.code).sort()).toEqual([
      'META_HREFLANG_NO_X_DEFAULT',
      'META_OG_IMAGE_RELATIVE',
      'META_TITLE_TOO_SHORT',
      'TECH_CANONICAL_RELATIVE',
      'TECH_NOINDEX',
    ]);
    expect(report.issues.find((issue) => issue.code === 'TECH_NOINDEX')).toEqual({
      code: 'TECH_NOINDEX',
      title: 'Noindex page',
      severity: 'NOTICE',
      category: 'TECHNICAL',
    });
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });
});
