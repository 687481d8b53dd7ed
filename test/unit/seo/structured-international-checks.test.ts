import { describe, expect, it } from 'vitest';
import {
  runPageChecks,
  runSiteChecks,
  summarizePage,
  type CheckResult,
  type PageFetch,
  type PageSummary,
  type SiteCheckResult,
} from '../../../src/seo/checks/index.js';
import { presentEvidence } from '../../../src/seo/checks/evidence-view.js';
import { isIsoDate } from '../../../src/seo/checks/structured-data-rules.js';
import { viewportProblem } from '../../../src/seo/checks/structured-international-checks.js';
import { suggestFix } from '../../../src/seo/fixes/index.js';
import { extractPageFacts } from '../../../src/seo/page/index.js';

const ORIGIN = 'https://shop.test';
const URL_ = `${ORIGIN}/tables`;

function pageFetch(url = URL_, extra: Partial<PageFetch> = {}): PageFetch {
  return {
    url,
    finalUrl: url,
    status: 200,
    depth: 1,
    redirects: [],
    bytes: 2_000,
    headers: { 'content-type': 'text/html' },
    ...extra,
  };
}

function pageResults(head: string, htmlAttrs = ' lang="en"', url = URL_): Map<string, CheckResult> {
  const html =
    `<!DOCTYPE html><html${htmlAttrs}><head><title>Oak tables</title>${head}</head>` + '<body><p>x</p></body></html>';
  const facts = extractPageFacts(html, { url });
  return new Map(runPageChecks(facts, pageFetch(url)).map((result) => [result.code, result]));
}

const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;

describe('page facts for the structured and international checks', () => {
  it('reads AMP markers, rel=amphtml, rel=next/prev and every viewport in one pass', () => {
    const facts = extractPageFacts(
      '<html \u26a1 lang="en"><head><meta name="viewport" content="width=device-width">' +
        '<meta name="viewport" content="width=1024"><link rel="amphtml" href="/amp/tables#x">' +
        '<link rel="previous" href="?page=1"><link rel="next" href="?page=3"></head><body></body></html>',
      { url: `${URL_}?page=2` },
    );
    expect(facts.amp).toBe(true);
    expect(facts.viewport).toBe('width=device-width');
    expect(facts.viewportCount).toBe(2);
    expect(facts.ampHtml).toEqual({ href: '/amp/tables#x', url: `${ORIGIN}/amp/tables` });
    expect(facts.pagination).toEqual([
      { rel: 'prev', href: '?page=1', url: `${URL_}?page=1` },
      { rel: 'next', href: '?page=3', url: `${URL_}?page=3` },
    ]);
    expect(extractPageFacts('<html amp><head></head></html>', { url: URL_ }).amp).toBe(true);
    expect(extractPageFacts('<html lang="en"><head></head></html>', { url: URL_ }).amp).toBe(false);
  });

  it('carries the amphtml and pagination targets into the page summary', () => {
    const html = '<html><head><link rel="amphtml" href="/amp"><link rel="next" href="/p2"></head></html>';
    const summary = summarizePage(extractPageFacts(html, { url: URL_ }), pageFetch());
    expect(summary.ampHtml).toBe(`${ORIGIN}/amp`);
    expect(summary.pagination).toEqual([{ rel: 'next', url: `${ORIGIN}/p2` }]);
  });
});

describe('structured data rules', () => {
  it('accepts ISO 8601 dates and date-times, refuses other forms and impossible dates', () => {
    for (const value of [
      '2024-03-03',
      '2024-02-29',
      '2024-03-03T09:30',
      '2024-03-03T09:30:00.123Z',
      '2024-03-03T09:30:00+0100',
    ])
      expect(isIsoDate(value), value).toBe(true);
    for (const value of [
      '03/03/2024',
      'March 3, 2024',
      '2024-3-3',
      '2023-02-29',
      '2024-13-01',
      '2024-03-03 09:30',
      '20240303',
    ])
      expect(isIsoDate(value), value).toBe(false);
  });

  it('judges each rule in one code: a bare Product fails PRODUCT_NO_OFFER, not REQUIRED_MISSING', () => {
    const results = pageResults(ld({ '@context': 'https://schema.org', '@type': 'Product', name: 'Oak table' }));
    expect(results.get('META_JSONLD_PRODUCT_NO_OFFER')).toMatchObject({
      failed: true,
      evidence: { count: 1, products: ['Oak table'] },
    });
    expect(results.get('META_JSONLD_REQUIRED_MISSING')).toMatchObject({ applicable: true, failed: false });
    // An Article is ARTICLE_INCOMPLETE's alone now.
    const article = pageResults(
      ld({ '@context': 'https://schema.org', '@type': 'Article', image: 'https://x.test/i' }),
    );
    expect(article.get('META_JSONLD_REQUIRED_MISSING')?.applicable).toBe(false);
    expect(article.get('META_JSONLD_ARTICLE_INCOMPLETE')?.evidence).toEqual({
      entities: [{ type: 'Article', missing: ['headline', 'author', 'datePublished'] }],
    });
  });

  it('reads @context in every form JSON-LD allows, and requires it on each top-level object', () => {
    const ok = (context: unknown) =>
      pageResults(ld({ '@context': context, '@type': 'WebPage', name: 'x' })).get('META_JSONLD_NO_CONTEXT');
    expect(ok('http://schema.org')?.failed).toBe(false);
    expect(ok('https://schema.org/')?.failed).toBe(false);
    expect(ok(['https://schema.org', { ex: 'https://example.org/' }])?.failed).toBe(false);
    expect(ok({ '@vocab': 'https://schema.org/' })?.failed).toBe(false);
    expect(ok('https://schema.org.evil.test')?.failed).toBe(true);
    const array = pageResults(ld([{ '@context': 'https://schema.org', '@type': 'WebPage' }, { '@type': 'Thing' }]));
    expect(array.get('META_JSONLD_NO_CONTEXT')?.evidence).toEqual({ count: 1, contexts: [null] });
  });

  it('lists breadcrumb problems: order, missing and relative items, the last crumb excepted', () => {
    const results = pageResults(
      ld({
        '@context': 'https://schema.org',
        '@type': 'BreadcrumbList',
        itemListElement: [
          { position: 2, name: 'Home', item: 'https://shop.test/' },
          { position: 2, name: 'Tables', item: { '@id': '/tables/' } },
          { position: 3, name: 'Oak' },
          { position: 4 },
        ],
      }),
    );
    expect(results.get('META_JSONLD_BREADCRUMB_INVALID')?.evidence).toEqual({
      entities: [
        {
          type: 'BreadcrumbList',
          problems: [
            'itemListElement[1].item is not an absolute URL: /tables/',
            'itemListElement[2].item is missing',
            'itemListElement[3].name is missing',
            'positions are 2, 2, 3, 4, not 1 to 4',
          ],
        },
      ],
    });
  });

  it('checks Organization name and url, LocalBusiness name and address, and the logo of both', () => {
    const org = (value: object) =>
      pageResults(ld({ '@context': 'https://schema.org', ...value })).get('META_JSONLD_ORGANIZATION_INCOMPLETE');
    expect(
      org({ '@type': 'Organization', name: 'Oak', url: 'https://shop.test/', logo: 'https://shop.test/l.png' }),
    ).toMatchObject({ applicable: true, failed: false });
    expect(
      org({ '@type': 'Restaurant', name: 'Oak', logo: { '@type': 'ImageObject', url: 'l.png' } })?.evidence,
    ).toEqual({
      entities: [{ type: 'Restaurant', problems: ['address is missing', 'logo is not an absolute URL: l.png'] }],
    });
    expect(org({ '@type': 'WebSite', name: 'Oak' })?.applicable).toBe(false);
  });
});

describe('hreflang, viewport, social, AMP and pagination page checks', () => {
  const alt = (lang: string, href: string) => `<link rel="alternate" hreflang="${lang}" href="${href}">`;

  it('finds one hreflang code for two URLs, case-insensitively, but not one URL listed twice', () => {
    const dup = pageResults(alt('de', `${ORIGIN}/de`) + alt('DE', `${ORIGIN}/de-at`) + alt('en', URL_));
    expect(dup.get('META_HREFLANG_DUPLICATE')?.evidence).toEqual({
      duplicates: [{ lang: 'de', urls: [`${ORIGIN}/de`, `${ORIGIN}/de-at`] }],
    });
    expect(pageResults(alt('en', URL_) + alt('en', `${URL_}#a`)).get('META_HREFLANG_DUPLICATE')?.failed).toBe(false);
  });

  it('compares the self-referencing hreflang language with <html lang> by primary language only', () => {
    expect(pageResults(alt('fr', URL_)).get('META_HREFLANG_LANG_MISMATCH')).toMatchObject({
      failed: true,
      evidence: { lang: 'en', hreflang: ['fr'] },
    });
    expect(pageResults(alt('en-gb', URL_), ' lang="en-US"').get('META_HREFLANG_LANG_MISMATCH')?.failed).toBe(false);
    // Not applicable without a valid lang, or without a self-referencing entry.
    expect(pageResults(alt('fr', URL_), ' lang="english"').get('META_HREFLANG_LANG_MISMATCH')?.applicable).toBe(false);
    expect(pageResults(alt('fr', `${ORIGIN}/fr`)).get('META_HREFLANG_LANG_MISMATCH')?.applicable).toBe(false);
  });

  it('names why a viewport is not responsive', () => {
    expect(viewportProblem('width=device-width, initial-scale=1')).toBeNull();
    expect(viewportProblem('initial-scale=1.0')).toBeNull();
    expect(viewportProblem('width=980')).toBe('fixed width=980');
    expect(viewportProblem('width=1024, initial-scale=1')).toBe('fixed width=1024');
    expect(viewportProblem('user-scalable=yes')).toBe('no width=device-width and no initial-scale');
  });

  it('requires the four Open Graph properties once any og: tag is set, and absolute og:image URLs', () => {
    const og = pageResults('<meta property="og:description" content="Oak tables">');
    expect(og.get('META_OG_INCOMPLETE')?.evidence).toEqual({ missing: ['og:title', 'og:type', 'og:image', 'og:url'] });
    expect(pageResults('').get('META_OG_INCOMPLETE')?.applicable).toBe(false);
    const relative = pageResults('<meta property="og:image" content="img/oak.jpg">');
    expect(relative.get('META_OG_IMAGE_RELATIVE')?.evidence).toEqual({
      images: [{ property: 'og:image', value: 'img/oak.jpg' }],
    });
  });

  it('compares og:url with the canonical, after resolving both', () => {
    const canonical = `<link rel="canonical" href="${URL_}">`;
    expect(
      pageResults(`${canonical}<meta property="og:url" content="/tables">`).get('META_OG_URL_MISMATCH')?.failed,
    ).toBe(false);
    expect(
      pageResults(`${canonical}<meta property="og:url" content="${URL_}?ref=fb">`).get('META_OG_URL_MISMATCH'),
    ).toMatchObject({ failed: true, evidence: { ogUrl: `${URL_}?ref=fb`, canonical: URL_ } });
    expect(pageResults('<meta property="og:url" content="/x">').get('META_OG_URL_MISMATCH')?.applicable).toBe(false);
  });

  it('accepts the four card types X renders and refuses retired ones', () => {
    const card = (value: string) =>
      pageResults(`<meta name="twitter:card" content="${value}">`).get('META_TWITTER_CARD_INVALID');
    expect(card('summary_large_image')?.failed).toBe(false);
    expect(card('player')?.failed).toBe(false);
    expect(card('gallery')).toMatchObject({ failed: true, evidence: { card: 'gallery' } });
  });

  it('requires a canonical on AMP pages only, and flags noindex on paginated pages only', () => {
    expect(pageResults('', ' amp lang="en"').get('TECH_AMP_NO_CANONICAL')?.failed).toBe(true);
    expect(pageResults('').get('TECH_AMP_NO_CANONICAL')?.applicable).toBe(false);
    const noindex = '<meta name="robots" content="noindex">';
    expect(pageResults(`${noindex}<link rel="next" href="?page=2">`).get('LINKS_PAGINATION_NOINDEX')?.evidence).toEqual(
      {
        sources: ['meta'],
        links: [{ rel: 'next', url: `${URL_}?page=2` }],
      },
    );
    expect(pageResults(noindex).get('LINKS_PAGINATION_NOINDEX')?.applicable).toBe(false);
  });
});

describe('hreflang, amphtml and pagination targets (site pass)', () => {
  const summary = (path: string, extra: Partial<PageSummary> = {}): PageSummary => ({
    url: ORIGIN + path,
    finalUrl: ORIGIN + path,
    status: 200,
    depth: 1,
    redirected: false,
    isHtml: true,
    indexable: true,
    noindex: false,
    canonical: null,
    title: path,
    description: null,
    textHash: path,
    simhash: null,
    wordCount: 300,
    hasIconLink: true,
    internalLinks: [],
    externalLinks: [],
    hreflang: [],
    resources: [],
    ...extra,
  });
  const site = (pages: PageSummary[], linkTargets = new Map()): Map<string, SiteCheckResult> =>
    new Map(runSiteChecks({ startUrl: `${ORIGIN}/`, pages, linkTargets }).site.map((r) => [r.code, r]));

  it('reports hreflang alternates that fail or redirect, and those that are noindex or canonicalized', () => {
    const hreflang = ['/de', '/fr', '/it', '/es', '/nl'].map((path) => ({ lang: path.slice(1), url: ORIGIN + path }));
    const results = site([
      summary('/en', { hreflang: [{ lang: 'en', url: `${ORIGIN}/en` }, ...hreflang] }),
      summary('/de', { status: 404, isHtml: false, indexable: false }),
      summary('/fr', { finalUrl: `${ORIGIN}/fr/`, redirected: true }),
      summary('/it', { noindex: true, indexable: false }),
      summary('/es', { canonical: `${ORIGIN}/en`, indexable: false }),
      summary('/nl'),
    ]);
    expect(results.get('META_HREFLANG_TO_BROKEN')?.occurrences).toEqual([
      {
        url: `${ORIGIN}/en`,
        evidence: {
          targets: [
            { label: 'de', url: `${ORIGIN}/de`, status: 404, reason: 'status 404' },
            { label: 'fr', url: `${ORIGIN}/fr`, status: 200, reason: `redirects to ${ORIGIN}/fr/` },
          ],
        },
      },
    ]);
    expect(results.get('META_HREFLANG_TO_NON_INDEXABLE')?.occurrences[0].evidence).toEqual({
      targets: [
        { label: 'it', url: `${ORIGIN}/it`, status: 200, reason: 'noindex' },
        { label: 'es', url: `${ORIGIN}/es`, status: 200, reason: 'canonicalized', canonical: `${ORIGIN}/en` },
      ],
    });
  });

  it('decides nothing from targets the crawl never fetched, and reads checked link targets', () => {
    const pages = [summary('/a', { ampHtml: `${ORIGIN}/amp/a`, pagination: [{ rel: 'next', url: `${ORIGIN}/b` }] })];
    const unknown = site(pages);
    expect(unknown.get('TECH_AMP_LINK_BROKEN')?.applicable).toBe(false);
    expect(unknown.get('LINKS_PAGINATION_BROKEN')?.applicable).toBe(false);
    const known = site(
      pages,
      new Map([
        [`${ORIGIN}/amp/a`, { status: 500 }],
        [`${ORIGIN}/b`, { status: null, failure: 'connection refused' }],
      ]),
    );
    expect(known.get('TECH_AMP_LINK_BROKEN')?.occurrences[0].evidence).toEqual({
      targets: [{ label: 'amphtml', url: `${ORIGIN}/amp/a`, status: 500, reason: 'status 500' }],
    });
    expect(known.get('LINKS_PAGINATION_BROKEN')?.occurrences[0].evidence).toEqual({
      targets: [{ label: 'next', url: `${ORIGIN}/b`, status: null, reason: 'connection refused' }],
    });
    // A throttled (429) target is not broken, and decides nothing.
    expect(site(pages, new Map([[`${ORIGIN}/amp/a`, { status: 429 }]])).get('TECH_AMP_LINK_BROKEN')?.applicable).toBe(
      false,
    );
  });

  it('passes a site whose targets all answer 200 and are indexable', () => {
    const results = site([
      summary('/a', {
        hreflang: [{ lang: 'de', url: `${ORIGIN}/b` }],
        pagination: [{ rel: 'next', url: `${ORIGIN}/b` }],
      }),
      summary('/b'),
    ]);
    for (const code of ['META_HREFLANG_TO_BROKEN', 'META_HREFLANG_TO_NON_INDEXABLE', 'LINKS_PAGINATION_BROKEN'])
      expect(results.get(code), code).toMatchObject({ applicable: true, failed: false, applicablePages: 1 });
  });
});

describe('evidence and fixes of the new codes', () => {
  it('shows target problems as a table with status phrases', () => {
    const view = presentEvidence(
      'META_HREFLANG_TO_BROKEN',
      { targets: [{ label: 'de', url: `${ORIGIN}/de`, status: 404, reason: 'status 404' }] },
      URL_,
    )!;
    expect(view.tables[0].rows[0]).toEqual([
      { text: 'de' },
      { text: `${ORIGIN}/de`, url: `${ORIGIN}/de` },
      { text: '404 Not Found' },
    ]);
  });

  it('turns an invalid date into its ISO form, and a relative og:image into the absolute URL', () => {
    const date = suggestFix({
      code: 'META_JSONLD_DATE_INVALID',
      url: URL_,
      evidence: { count: 1, dates: [{ type: 'Article', property: 'datePublished', value: 'March 3, 2024' }] },
      page: null,
    });
    expect(date.code).toBe('"datePublished": "2024-03-03"');
    const image = suggestFix({
      code: 'META_OG_IMAGE_RELATIVE',
      url: URL_,
      evidence: { images: [{ property: 'og:image', value: 'img/oak.jpg' }] },
      page: null,
    });
    expect(image.code).toBe(`<meta property="og:image" content="${ORIGIN}/img/oak.jpg">`);
  });

  it('builds a breadcrumb trail from the URL path', () => {
    const fix = suggestFix({
      code: 'META_JSONLD_BREADCRUMB_INVALID',
      url: `${ORIGIN}/furniture/oak-tables`,
      evidence: { entities: [{ type: 'BreadcrumbList', problems: ['itemListElement[1].item is missing'] }] },
      page: null,
    });
    expect(fix.code).toContain(`"item": "${ORIGIN}/furniture/"`);
    expect(fix.code).toContain('"position": 3');
  });
});
