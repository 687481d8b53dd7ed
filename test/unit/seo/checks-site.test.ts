import { describe, expect, it } from 'vitest';
import {
  findNearDuplicates,
  runSiteChecks,
  summarizePage,
  type PageSummary,
  type SiteCheckInput,
  type SiteCheckResult,
} from '../../../src/seo/checks/index.js';
import {
  extractPageFacts,
  hammingDistance,
  PAGE_FACT_LIMITS,
  popcount32,
  simhashHalves,
} from '../../../src/seo/page/index.js';

const START = 'https://example.com/';

/** Page summary factory: an indexable HTML page unless overridden. */
function page(path: string, overrides: Partial<PageSummary> = {}): PageSummary {
  const url = new URL(path, START).href;
  return {
    url,
    finalUrl: url,
    status: 200,
    depth: 1,
    redirected: false,
    isHtml: true,
    indexable: true,
    noindex: false,
    canonical: null,
    title: `Title of ${path}`,
    description: `Description of ${path}`,
    textHash: `hash-${path}`,
    simhash: null,
    wordCount: 300,
    hasIconLink: false,
    internalLinks: [],
    externalLinks: [],
    hreflang: [],
    resources: [],
    ...overrides,
  };
}

function site(input: Partial<SiteCheckInput>): Map<string, SiteCheckResult> {
  const output = runSiteChecks({ startUrl: START, pages: [], ...input });
  return new Map(output.site.map((result) => [result.code, result]));
}

const verdict = (result: SiteCheckResult | undefined): string =>
  !result?.applicable ? 'n/a' : result.failed ? 'fail' : 'pass';

describe('runSiteChecks: robots.txt', () => {
  it.each([
    [
      '404',
      { status: 404 },
      {
        TECH_ROBOTS_MISSING: 'fail',
        TECH_ROBOTS_UNREACHABLE: 'pass',
        TECH_ROBOTS_BLOCKS_ALL: 'n/a',
        TECH_ROBOTS_INVALID: 'n/a',
      },
    ],
    [
      '503',
      { status: 503 },
      { TECH_ROBOTS_MISSING: 'pass', TECH_ROBOTS_UNREACHABLE: 'fail', TECH_ROBOTS_BLOCKS_ALL: 'n/a' },
    ],
    ['network failure', { status: null }, { TECH_ROBOTS_UNREACHABLE: 'fail' }],
    ['timeout', { status: null, timedOut: true }, { TECH_ROBOTS_UNREACHABLE: 'fail' }],
    ['429', { status: 429 }, { TECH_ROBOTS_UNREACHABLE: 'fail' }],
    [
      'fine',
      { status: 200 },
      {
        TECH_ROBOTS_MISSING: 'pass',
        TECH_ROBOTS_UNREACHABLE: 'pass',
        TECH_ROBOTS_BLOCKS_ALL: 'pass',
        TECH_ROBOTS_INVALID: 'pass',
        TECH_AI_SEARCH_BLOCKED: 'pass',
      },
    ],
    ['blocks all', { status: 200, blocksAll: true }, { TECH_ROBOTS_BLOCKS_ALL: 'fail' }],
    ['invalid', { status: 200, invalid: true, errors: ['line 3: unknown directive'] }, { TECH_ROBOTS_INVALID: 'fail' }],
    ['AI blocked', { status: 200, aiBlockedAgents: ['OAI-SearchBot'] }, { TECH_AI_SEARCH_BLOCKED: 'fail' }],
  ] as const)('%s', (_name, robots, expected) => {
    const results = site({ robots: { ...robots } });
    for (const [code, want] of Object.entries(expected)) expect(verdict(results.get(code)), code).toBe(want);
  });

  it('names robots.txt as the occurrence, with evidence', () => {
    expect(site({ robots: { status: 404 } }).get('TECH_ROBOTS_MISSING')?.occurrences).toEqual([
      { url: 'https://example.com/robots.txt', evidence: { status: 404 } },
    ]);
  });

  it('is not applicable without robots data', () => {
    expect(verdict(site({}).get('TECH_ROBOTS_MISSING'))).toBe('n/a');
  });
});

describe('runSiteChecks: sitemap, favicon, llms.txt, HSTS', () => {
  it.each([
    ['nothing declared, /sitemap.xml 404', { defaultStatus: 404 }, {}, 'fail'],
    [
      'declared in robots.txt',
      { defaultStatus: 404 },
      { status: 200, sitemaps: ['https://example.com/s.xml'] },
      'pass',
    ],
    ['/sitemap.xml answers', { defaultStatus: 200 }, {}, 'pass'],
  ] as const)('TECH_SITEMAP_MISSING: %s', (_name, sitemap, robots, expected) => {
    const results = site({ sitemap: { ...sitemap }, robots: { status: 200, ...robots } });
    expect(verdict(results.get('TECH_SITEMAP_MISSING'))).toBe(expected);
  });

  it.each([
    ['valid', { valid: true, urlCount: 10, sizeBytes: 1_000 }, 'pass'],
    ['parse errors', { valid: false, urlCount: 10, sizeBytes: 1_000, errors: ['XML_SYNTAX'] }, 'fail'],
    ['too many URLs', { valid: true, urlCount: 50_001, sizeBytes: 1_000 }, 'fail'],
    ['too large', { valid: true, urlCount: 10, sizeBytes: 60 * 1024 * 1024 }, 'fail'],
    ['other hosts', { valid: true, urlCount: 10, sizeBytes: 1_000, otherHostUrls: 2 }, 'fail'],
  ] as const)('TECH_SITEMAP_INVALID: %s', (_name, analysis, expected) => {
    expect(
      verdict(site({ sitemap: { defaultStatus: 200, analysis: { ...analysis } } }).get('TECH_SITEMAP_INVALID')),
    ).toBe(expected);
  });

  it.each([
    ['icon link on the home page', [page('/', { depth: 0, hasIconLink: true })], { status: 404 }, 'pass'],
    ['/favicon.ico answers', [page('/', { depth: 0 })], { status: 200 }, 'pass'],
    ['neither', [page('/', { depth: 0 })], { status: 404 }, 'fail'],
  ] as const)('META_FAVICON_MISSING: %s', (_name, pages, favicon, expected) => {
    expect(verdict(site({ pages: [...pages], favicon: { ...favicon } }).get('META_FAVICON_MISSING'))).toBe(expected);
  });

  it.each([
    [{ status: 200 }, 'pass'],
    [{ status: 404 }, 'fail'],
    [{ status: null }, 'fail'],
  ] as const)('TECH_LLMS_TXT_MISSING %j -> %s', (llmsTxt, expected) => {
    expect(verdict(site({ llmsTxt: { ...llmsTxt } }).get('TECH_LLMS_TXT_MISSING'))).toBe(expected);
  });

  it.each([
    [{ https: true, header: 'max-age=31536000; includeSubDomains' }, 'pass'],
    [{ https: true, header: null }, 'fail'],
    [{ https: true, header: 'max-age=0' }, 'fail'],
    [{ https: false, header: null }, 'n/a'],
  ] as const)('TECH_HSTS_MISSING %j -> %s', (hsts, expected) => {
    expect(verdict(site({ hsts: { ...hsts } }).get('TECH_HSTS_MISSING'))).toBe(expected);
  });
});

describe('runSiteChecks: cross-page checks', () => {
  it('fires TECH_NOINDEX_SITEWIDE at 90% noindex HTML pages, not below', () => {
    const pages = (noindex: number) =>
      Array.from({ length: 10 }, (_, i) => page(`/p${i}`, { noindex: i < noindex, indexable: i >= noindex })).concat(
        page('/file.pdf', { isHtml: false }),
      );
    expect(site({ pages: pages(9) }).get('TECH_NOINDEX_SITEWIDE')).toMatchObject({ failed: true, applicablePages: 10 });
    expect(verdict(site({ pages: pages(8) }).get('TECH_NOINDEX_SITEWIDE'))).toBe('pass');
  });

  it('reports duplicate titles among indexable pages only, normalizing case and spaces', () => {
    const results = site({
      pages: [
        page('/a', { title: 'Blue Widgets' }),
        page('/b', { title: ' blue   widgets ' }),
        page('/c', { title: 'Red widgets' }),
        page('/d', { title: 'Blue Widgets', indexable: false, noindex: true }),
      ],
    });
    const duplicates = results.get('META_TITLE_DUPLICATE')!;
    expect(duplicates).toMatchObject({ failed: true, applicablePages: 3 });
    expect(duplicates.occurrences).toEqual([
      {
        url: 'https://example.com/a',
        evidence: { title: 'Blue Widgets', duplicates: 1, sameAs: ['https://example.com/b'] },
      },
      {
        url: 'https://example.com/b',
        evidence: { title: ' blue   widgets ', duplicates: 1, sameAs: ['https://example.com/a'] },
      },
    ]);
    expect(verdict(results.get('META_DESCRIPTION_DUPLICATE'))).toBe('pass');
  });

  it('reports duplicate descriptions and duplicate content, ignoring empty pages', () => {
    const results = site({
      pages: [
        page('/a', { description: 'Same', textHash: 'h1' }),
        page('/b', { description: 'Same', textHash: 'h1' }),
        page('/c', { textHash: 'h0', wordCount: 0 }),
        page('/d', { textHash: 'h0', wordCount: 0 }),
      ],
    });
    expect(results.get('META_DESCRIPTION_DUPLICATE')?.occurrences.map((o) => o.url)).toEqual([
      'https://example.com/a',
      'https://example.com/b',
    ]);
    expect(results.get('CONTENT_DUPLICATE')?.occurrences.map((o) => o.url)).toEqual([
      'https://example.com/a',
      'https://example.com/b',
    ]);
  });

  it('counts a redirect source and its target as one document', () => {
    const results = site({
      pages: [page('/old', { finalUrl: 'https://example.com/new', redirected: true }), page('/new')],
    });
    expect(verdict(results.get('META_TITLE_DUPLICATE'))).toBe('pass');
  });

  it('reports one document under two URLs with no canonical as TECH_CANONICAL_MISSING, not as duplicates', () => {
    const same = { title: 'Manual', description: 'The manual', textHash: 'manual' };
    const results = site({
      pages: [
        page('/docs/', same),
        page('/docs/index.html', same),
        page('/guide', { ...same, title: 'Guide', description: 'The guide', textHash: 'guide' }),
        page('/guide/', { ...same, title: 'Guide', description: 'The guide', textHash: 'guide', canonical: 'x' }),
        // Same text at a URL that is not a variant: duplicate content, not a canonical problem.
        page('/copy', { textHash: 'manual' }),
      ],
    });
    const missing = results.get('TECH_CANONICAL_MISSING');
    expect(missing?.occurrences).toEqual([
      { url: 'https://example.com/docs/', evidence: { sameAs: ['https://example.com/docs/index.html'] } },
      { url: 'https://example.com/docs/index.html', evidence: { sameAs: ['https://example.com/docs/'] } },
      { url: 'https://example.com/guide', evidence: { sameAs: ['https://example.com/guide/'] } },
    ]);
    expect(verdict(results.get('META_TITLE_DUPLICATE'))).toBe('pass');
    expect(results.get('CONTENT_DUPLICATE')?.occurrences.map((o) => o.url)).toEqual([
      'https://example.com/docs/',
      'https://example.com/copy',
    ]);
  });

  it('finds near duplicates by SimHash (distance <= 3) but leaves exact duplicates to CONTENT_DUPLICATE', () => {
    const results = site({
      pages: [
        page('/a', { simhash: 'ffff0000ffff0000', textHash: 'ta' }),
        page('/b', { simhash: 'ffff0000ffff0007', textHash: 'tb' }), // 3 bits from /a
        page('/c', { simhash: '0f0f0f0f0f0f0f0f', textHash: 'tc' }),
        page('/d', { simhash: '0f0f0f0f0f0f0f0f', textHash: 'tc' }), // exact copy of /c
        page('/e', { simhash: 'ffff0000ffff001f', textHash: 'te', wordCount: 20 }), // too short to compare
      ],
    });
    const near = results.get('CONTENT_NEAR_DUPLICATE')!;
    expect(near).toMatchObject({ failed: true, applicablePages: 4 });
    expect(near.occurrences).toEqual([
      {
        url: 'https://example.com/a',
        evidence: { similarTo: 'https://example.com/b', similarity: 95.3, hammingDistance: 3 },
      },
      {
        url: 'https://example.com/b',
        evidence: { similarTo: 'https://example.com/a', similarity: 95.3, hammingDistance: 3 },
      },
    ]);
  });

  it('finds orphans: sitemap URLs without inlinks, following redirects, except the start URL', () => {
    const pages = [
      page('/', { depth: 0, internalLinks: ['https://example.com/linked', 'https://example.com/old'] }),
      page('/linked'),
      page('/old', { finalUrl: 'https://example.com/moved', redirected: true }),
      page('/lonely'),
    ];
    const sitemap = {
      defaultStatus: 200,
      urls: [
        START,
        'https://example.com/linked',
        'https://example.com/moved',
        'https://example.com/lonely',
        'https://example.com/never-crawled',
      ],
    };
    const orphan = site({ pages, sitemap }).get('LINKS_ORPHAN')!;
    expect(orphan).toMatchObject({ failed: true, applicablePages: 4 });
    expect(orphan.occurrences.map((o) => o.url)).toEqual([
      'https://example.com/lonely',
      'https://example.com/never-crawled',
    ]);
    expect(verdict(site({ pages, sitemap, crawlTruncated: true }).get('LINKS_ORPHAN'))).toBe('n/a');
  });

  it('checks hreflang return links between crawled pages', () => {
    const en = 'https://example.com/en';
    const de = 'https://example.com/de';
    const fr = 'https://example.com/fr';
    const results = site({
      pages: [
        page('/en', {
          hreflang: [
            { lang: 'en', url: en },
            { lang: 'de', url: de },
            { lang: 'fr', url: fr },
            { lang: 'es', url: 'https://example.com/es' },
          ],
        }),
        page('/de', {
          hreflang: [
            { lang: 'de', url: de },
            { lang: 'en', url: en },
          ],
        }),
        page('/fr', { hreflang: [{ lang: 'fr', url: fr }] }),
      ],
    });
    const noReturn = results.get('META_HREFLANG_NO_RETURN')!;
    expect(noReturn).toMatchObject({ failed: true, applicablePages: 2 });
    expect(noReturn.occurrences).toEqual([{ url: en, evidence: { targetsWithoutReturn: [fr] } }]);
  });
});

describe('runSiteChecks: page checks from crawl data', () => {
  it('derives link target checks from crawled pages and extra link targets', () => {
    const output = runSiteChecks({
      startUrl: START,
      pages: [
        page('/', {
          depth: 0,
          internalLinks: [
            'https://example.com/missing',
            'https://example.com/old',
            'https://example.com/ok',
            'https://example.com/private',
          ],
          externalLinks: ['https://other.org/gone'],
        }),
        page('/missing', { status: 404, isHtml: false, indexable: false }),
        page('/old', { finalUrl: 'https://example.com/ok', redirected: true }),
        page('/ok', { canonical: 'https://example.com/hidden' }),
        page('/hidden', { noindex: true, indexable: false }),
      ],
      linkTargets: new Map([
        ['https://other.org/gone', { status: 404 }],
        ['https://example.com/private', { status: null, blockedByRobots: true }],
      ]),
    });
    const byPage = new Map([...output.pages].map((p) => [p.url, new Map(p.results.map((r) => [r.code, r]))]));
    const home = byPage.get(START)!;
    expect(home.get('LINKS_INTERNAL_BROKEN')).toMatchObject({
      failed: true,
      evidence: { count: 1, links: [{ url: 'https://example.com/missing', status: 404 }] },
    });
    expect(home.get('LINKS_TO_REDIRECT')).toMatchObject({
      failed: true,
      evidence: { links: ['https://example.com/old'] },
    });
    expect(home.get('LINKS_EXTERNAL_BROKEN')).toMatchObject({ failed: true });
    expect(home.get('TECH_BLOCKED_BY_ROBOTS')).toMatchObject({
      failed: true,
      evidence: { links: ['https://example.com/private'] },
    });
    expect(byPage.get('https://example.com/ok')!.get('TECH_CANONICAL_TO_BROKEN')).toMatchObject({
      failed: true,
      evidence: { reason: 'noindex' },
    });
    expect(byPage.has('https://example.com/missing')).toBe(false);
  });

  it(
    'reports broken images and resources, with their cause, and resources on refused addresses; unknown ones ' +
      'decide nothing',
    () => {
      const resources: PageSummary['resources'] = [
        { url: 'https://example.com/gone.png', kind: 'image' },
        { url: 'https://example.com/ok.png', kind: 'image' },
        { url: 'https://example.com/site.css', kind: 'stylesheet' },
        { url: 'https://cdn.example.net/app.js', kind: 'script' },
        { url: 'https://cdn.example.net/busy.js', kind: 'script' },
        { url: 'http://10.1.2.3/logo.png', kind: 'image' },
        { url: 'https://example.com/not-checked.png', kind: 'image' },
      ];
      const output = runSiteChecks({
        startUrl: START,
        pages: [
          page('/', { depth: 0, resources }),
          page('/plain', { resources: [{ url: 'https://example.com/ok.png', kind: 'image' }] }),
          page('/none'),
        ],
        linkTargets: new Map([
          ['https://example.com/gone.png', { status: 404 }],
          ['https://example.com/ok.png', { status: 200 }],
          ['https://example.com/site.css', { status: 200 }],
          ['https://cdn.example.net/app.js', { status: null, failure: 'The server refused the connection' }],
          ['https://cdn.example.net/busy.js', { status: 429 }],
          [
            'http://10.1.2.3/logo.png',
            { status: null, failure: 'The address 10.1.2.3 is not allowed', blockedAddress: true },
          ],
        ]),
      });
      const byPage = new Map([...output.pages].map((p) => [p.url, new Map(p.results.map((r) => [r.code, r]))]));
      const home = byPage.get(START)!;
      expect(home.get('CONTENT_IMAGE_BROKEN')).toMatchObject({
        failed: true,
        evidence: { count: 1, images: [{ url: 'https://example.com/gone.png', kind: 'image', status: 404 }] },
      });
      expect(home.get('TECH_RESOURCE_BROKEN')).toMatchObject({
        failed: true,
        evidence: {
          count: 1,
          resources: [
            {
              url: 'https://cdn.example.net/app.js',
              kind: 'script',
              status: null,
              error: 'The server refused the connection',
            },
          ],
        },
      });
      expect(home.get('TECH_RESOURCE_PRIVATE_ADDRESS')).toMatchObject({
        failed: true,
        evidence: { count: 1, resources: [{ url: 'http://10.1.2.3/logo.png' }] },
      });
      const plain = byPage.get('https://example.com/plain')!;
      expect(plain.get('CONTENT_IMAGE_BROKEN')).toMatchObject({ applicable: true, failed: false });
      expect(plain.get('TECH_RESOURCE_PRIVATE_ADDRESS')).toMatchObject({ applicable: true, failed: false });
      expect(plain.has('TECH_RESOURCE_BROKEN')).toBe(false);
      expect(byPage.get('https://example.com/none')?.has('CONTENT_IMAGE_BROKEN') ?? false).toBe(false);
    },
  );

  it(
    'counts an external link that cannot be reached as broken, with the cause; a refused address or an ' +
      'unchecked one is not',
    () => {
      const output = runSiteChecks({
        startUrl: START,
        pages: [
          page('/', {
            depth: 0,
            externalLinks: [
              'http://127.0.0.1:9/closed',
              'https://nowhere.invalid/',
              'http://10.0.0.1/',
              'https://unchecked.example.org/',
            ],
          }),
        ],
        linkTargets: new Map([
          ['http://127.0.0.1:9/closed', { status: null, failure: 'The server refused the connection' }],
          ['https://nowhere.invalid/', { status: null, failure: 'Could not resolve host nowhere.invalid' }],
          ['http://10.0.0.1/', { status: null, failure: 'refused address', blockedAddress: true }],
        ]),
      });
      const home = [...output.pages][0].results.find((r) => r.code === 'LINKS_EXTERNAL_BROKEN');
      expect(home).toMatchObject({
        failed: true,
        evidence: {
          count: 2,
          links: [
            { url: 'http://127.0.0.1:9/closed', status: null, error: 'The server refused the connection' },
            { url: 'https://nowhere.invalid/', status: null, error: 'Could not resolve host nowhere.invalid' },
          ],
        },
      });
    },
  );

  it('reports sitemap URLs robots.txt disallows as blocked, never as orphans', () => {
    const blocked = 'https://example.com/private/listed';
    const input = {
      pages: [page('/', { depth: 0, internalLinks: ['https://example.com/linked'] }), page('/linked')],
      robots: { status: 200 },
      sitemap: {
        defaultStatus: 200,
        urls: [START, 'https://example.com/linked', blocked, 'https://example.com/lonely'],
        blockedByRobots: [blocked],
      },
    };
    const results = site(input);
    expect(results.get('LINKS_ORPHAN')!.occurrences.map((o) => o.url)).toEqual(['https://example.com/lonely']);
    expect(results.get('TECH_SITEMAP_BLOCKED_BY_ROBOTS')).toMatchObject({
      failed: true,
      applicablePages: 4,
      occurrences: [{ url: blocked }],
    });
    expect(
      verdict(
        site({ ...input, sitemap: { ...input.sitemap, blockedByRobots: [] } }).get('TECH_SITEMAP_BLOCKED_BY_ROBOTS'),
      ),
    ).toBe('pass');
    expect(verdict(site({ ...input, robots: { status: 404 } }).get('TECH_SITEMAP_BLOCKED_BY_ROBOTS'))).toBe('n/a');
  });

  it('flags non-indexable sitemap URLs with the reason', () => {
    const output = runSiteChecks({
      startUrl: START,
      pages: [
        page('/ok'),
        page('/noindex', { noindex: true, indexable: false }),
        page('/gone', { status: 410, isHtml: false, indexable: false }),
        page('/old', { finalUrl: 'https://example.com/ok', redirected: true }),
        page('/doc.pdf', { isHtml: false, indexable: false }),
      ],
      sitemap: {
        defaultStatus: 200,
        urls: [
          'https://example.com/ok',
          'https://example.com/noindex',
          'https://example.com/gone',
          'https://example.com/old',
          'https://example.com/doc.pdf',
        ],
      },
    });
    const verdicts = [...output.pages].map((p) => {
      const result = p.results.find((r) => r.code === 'TECH_SITEMAP_NON_INDEXABLE')!;
      return [p.url.replace('https://example.com', ''), result.failed ? result.evidence?.reason : 'ok'];
    });
    expect(verdicts).toEqual([
      ['/ok', 'ok'],
      ['/noindex', 'noindex'],
      ['/gone', 'error-status'],
      ['/old', 'redirect'],
      ['/doc.pdf', 'ok'],
    ]);
  });
});

describe('summarizePage', () => {
  it('keeps only what site checks need, deduplicated, every link target', () => {
    const html =
      `<title>Widgets</title><meta name="description" content="All widgets"><link rel="icon" href="/f.ico">
      <link rel="alternate" hreflang="de" href="/de"><body><p>one two three</p>
      <a href="/a">a</a><a href="/a#x">a again</a><a href="/b">b</a><a href="/c">c</a><a ` +
      `href="https://example.com/p">self</a>
      <a href="https://other.org/">o</a><a href="mailto:x@y">m</a></body>`;
    const facts = extractPageFacts(html, { url: 'https://example.com/p' });
    const summary = summarizePage(facts, {
      url: 'https://example.com/p',
      finalUrl: 'https://example.com/p',
      status: 200,
      depth: 2,
      redirects: [],
      bytes: 100,
      headers: {},
    });
    expect(summary).toEqual({
      url: 'https://example.com/p',
      finalUrl: 'https://example.com/p',
      status: 200,
      depth: 2,
      redirected: false,
      isHtml: true,
      indexable: true,
      noindex: false,
      canonical: null,
      title: 'Widgets',
      description: 'All widgets',
      h1: null,
      textHash: facts.textHash,
      simhash: facts.simhash,
      wordCount: facts.wordCount,
      hasIconLink: true,
      internalLinks: ['https://example.com/a', 'https://example.com/b', 'https://example.com/c'],
      externalLinks: ['https://other.org/'],
      linkCount: 7,
      hreflang: [{ lang: 'de', url: 'https://example.com/de' }],
      resources: [{ url: 'https://example.com/f.ico', kind: 'icon' }],
    });
  });

  it("keeps every distinct target of a page's links, and says how many past the per-page cap were not read", () => {
    // 12,000 links to 12,000 targets: once the summaries kept 500 internal targets, and the facts read 5,000 links.
    const links = Array.from({ length: 12_000 }, (_, i) => `<a href="/t/${i}">${i}</a>`).join('');
    const fetch = { url: 'https://example.com/', finalUrl: 'https://example.com/', status: 200, depth: 0 };
    const all = summarizePage(extractPageFacts(`<body>${links}</body>`, { url: fetch.url }), {
      ...fetch,
      redirects: [],
      bytes: 1,
      headers: {},
    });
    expect(all.internalLinks).toHaveLength(12_000);
    expect(all.internalLinks[11_999]).toBe('https://example.com/t/11999');
    expect(all).toMatchObject({ linkCount: 12_000 });
    expect(all.linksNotRead).toBeUndefined();

    // Past the cap (PAGE_FACT_LIMITS.links), links are counted, not read: the summary says how many.
    const over = PAGE_FACT_LIMITS.links + 25;
    const many = '<a href="/x">x</a>'.repeat(over);
    const capped = summarizePage(extractPageFacts(`<body>${many}<a href="/last">l</a></body>`, { url: fetch.url }), {
      ...fetch,
      redirects: [],
      bytes: 1,
      headers: {},
    });
    expect(capped).toMatchObject({ linkCount: over + 1, linksNotRead: 26, internalLinks: ['https://example.com/x'] });
  });

  it('marks canonicalized, noindex and error pages non-indexable', () => {
    const fetch = {
      url: 'https://example.com/p',
      finalUrl: 'https://example.com/p',
      status: 200,
      depth: 1,
      redirects: [],
      bytes: 1,
      headers: {},
    };
    const canonicalized = extractPageFacts('<link rel="canonical" href="/q">', { url: fetch.url });
    expect(summarizePage(canonicalized, fetch).indexable).toBe(false);
    expect(
      summarizePage(extractPageFacts('<link rel="canonical" href="/p">', { url: fetch.url }), fetch).indexable,
    ).toBe(true);
    expect(
      summarizePage(extractPageFacts('x', { url: fetch.url, headers: { 'x-robots-tag': 'noindex' } }), fetch),
    ).toMatchObject({ indexable: false, noindex: true });
    expect(summarizePage(null, { ...fetch, status: 500 })).toMatchObject({
      indexable: false,
      isHtml: false,
      internalLinks: [],
    });
  });
});

describe('findNearDuplicates', () => {
  /** Deterministic pseudo-random 64-bit hex strings. */
  function randomHashes(count: number, seed: number): string[] {
    let state = seed >>> 0;
    const next = (): number => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state;
    };
    return Array.from(
      { length: count },
      () => next().toString(16).padStart(8, '0') + next().toString(16).padStart(8, '0'),
    );
  }

  function flipBits(hex: string, bits: number[]): string {
    let value = BigInt(`0x${hex}`);
    for (const bit of bits) value ^= 1n << BigInt(bit);
    return value.toString(16).padStart(16, '0');
  }

  it('agrees with a brute-force search', () => {
    const hashes = randomHashes(1_500, 7);
    // Plant near duplicates at distances 1..3 spread over different bands, and one at 4 (not near).
    hashes.push(
      flipBits(hashes[10], [0]),
      flipBits(hashes[20], [5, 40]),
      flipBits(hashes[30], [1, 20, 63]),
      flipBits(hashes[40], [1, 17, 33, 49]),
    );
    const options = { maxDistance: 3, maxComparisons: 10_000_000 };
    const fast = findNearDuplicates(hashes, options).map((match) => match !== null);
    const halves = hashes.map(simhashHalves);
    const distance = (a: number, b: number): number =>
      popcount32((halves[a][0] ^ halves[b][0]) >>> 0) + popcount32((halves[a][1] ^ halves[b][1]) >>> 0);
    const brute = hashes.map((_, i) => hashes.some((_other, j) => j !== i && distance(i, j) <= 3));
    expect(hammingDistance(hashes[hashes.length - 1], hashes[40])).toBe(4);
    expect(fast).toEqual(brute);
    expect(fast.filter(Boolean)).toHaveLength(6);
  });

  it('stays linear on 20,000 pages of one template', () => {
    const template = 'a5a5a5a5a5a5a5a5';
    const hashes = Array.from({ length: 20_000 }, (_, i) => flipBits(template, [i % 64]));
    const matches = findNearDuplicates(hashes, { maxDistance: 3, maxComparisons: 200_000 });
    expect(matches.every((match) => match !== null && match.distance <= 3)).toBe(true);
  });

  it('refuses distances the banding cannot guarantee', () => {
    expect(() => findNearDuplicates([], { maxDistance: 4, maxComparisons: 1 })).toThrow(RangeError);
  });
});
