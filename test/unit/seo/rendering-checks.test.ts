/**
 * Browser rendering mode (issue 28 item 2): the RENDER_* checks compare a page's raw HTML with its rendered DOM, both
 * read by the real extractor; TECH_CLIENT_RENDERED_SUSPECTED reads the raw HTML in html mode.
 */
import { describe, expect, it } from 'vitest';
import {
  CHECK_CATALOG,
  RENDERING_CHECK_CODES,
  CHECK_GUIDANCE,
  PAGE_EVALUATORS,
  pageRenderingRecord,
  presentEvidence,
  runPageChecks,
  type CheckResult,
  type PageFetch,
} from '../../../src/seo/checks/index.js';
import type { PageRendering } from '../../../src/seo/checks/check.types.js';
import { suggestFix } from '../../../src/seo/fixes/index.js';
import { extractPageFacts, type PageFacts } from '../../../src/seo/page/index.js';

const URL_ = 'https://shop.test/products/oak-table';
const HEADERS = { 'content-type': 'text/html; charset=utf-8' };
const WORDS = (n: number, word = 'timber') => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

interface Head {
  title?: string;
  description?: string;
  canonical?: string;
  robots?: string;
}

function doc(head: Head, body: string): string {
  const tags = [
    head.title !== undefined ? `<title>${head.title}</title>` : '',
    head.description !== undefined ? `<meta name="description" content="${head.description}">` : '',
    head.canonical !== undefined ? `<link rel="canonical" href="${head.canonical}">` : '',
    head.robots !== undefined ? `<meta name="robots" content="${head.robots}">` : '',
  ].join('');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">${tags}</head><body>${body}</body></html>`;
}

const facts = (html: string): PageFacts => extractPageFacts(html, { url: URL_, headers: HEADERS, status: 200 });

function fetchOf(extra: Partial<PageFetch> = {}): PageFetch {
  return { url: URL_, finalUrl: URL_, status: 200, depth: 0, redirects: [], bytes: 1000, headers: HEADERS, ...extra };
}

function rendering(raw: string, extra: Partial<PageRendering> = {}): PageRendering {
  return {
    raw: facts(raw),
    renderMs: 420,
    consoleErrors: [],
    consoleErrorCount: 0,
    failedRequests: [],
    failedRequestCount: 0,
    blockedByRobots: [],
    ...extra,
  };
}

/** Every result of a page rendered from `raw` into `rendered`. */
function rendered(raw: string, renderedHtml: string, extra: Partial<PageRendering> = {}): Map<string, CheckResult> {
  const results = runPageChecks(facts(renderedHtml), fetchOf({ rendering: rendering(raw, extra) }));
  return new Map(results.map((result) => [result.code, result]));
}

const RENDER_CODES = CHECK_CATALOG.map((check) => check.code).filter((code) => RENDERING_CHECK_CODES.has(code));

const BODY = `<h1>Oak dining table</h1><p>${WORDS(120)}</p><a href="/products">All products</a>`;
const SAME = doc(
  {
    title: 'Oak dining table | Oak & Iron',
    description: 'A solid oak dining table.',
    canonical: URL_,
    robots: 'index, follow',
  },
  BODY,
);

describe('the RENDER_* catalog rows', () => {
  it('has a page evaluator, guidance and a fix for each code, all page scope', () => {
    expect(RENDER_CODES.length).toBeGreaterThanOrEqual(11);
    for (const code of [...RENDER_CODES, 'TECH_CLIENT_RENDERED_SUSPECTED' as const]) {
      const check = CHECK_CATALOG.find((c) => c.code === code)!;
      expect(check.scope, code).toBe('page');
      expect(typeof PAGE_EVALUATORS[code as keyof typeof PAGE_EVALUATORS], code).toBe('function');
      expect(CHECK_GUIDANCE[code].why.length, code).toBeGreaterThan(40);
      const fix = suggestFix({ code, url: URL_, evidence: null, page: null });
      expect(fix.steps.length, code).toBeGreaterThan(0);
    }
  });
});

describe('html mode', () => {
  it('leaves every RENDER_* code not applicable without a rendering', () => {
    const results = runPageChecks(facts(SAME), fetchOf());
    for (const code of RENDER_CODES) expect(results.find((r) => r.code === code)?.applicable, code).toBe(false);
    expect(results.find((r) => r.code === 'TECH_CLIENT_RENDERED_SUSPECTED')).toEqual({
      code: 'TECH_CLIENT_RENDERED_SUSPECTED',
      applicable: true,
      failed: false,
    });
  });

  it('leaves them not applicable when rendering failed (the checks judged the raw HTML)', () => {
    const results = runPageChecks(facts(SAME), fetchOf({ renderError: 'render timed out after 15000 ms' }));
    for (const code of [...RENDER_CODES, 'TECH_CLIENT_RENDERED_SUSPECTED'])
      expect(results.find((r) => r.code === code)?.applicable, code).toBe(false);
  });
});

describe('raw versus rendered', () => {
  it('passes every applicable RENDER_* code when rendering changed nothing', () => {
    const results = rendered(SAME, SAME);
    for (const code of RENDER_CODES) expect(results.get(code)?.failed, code).toBe(false);
    for (const code of ['RENDER_TITLE_CHANGED', 'RENDER_NOINDEX_CHANGED', 'RENDER_CONTENT_NEEDS_JS'])
      expect(results.get(code)?.applicable, code).toBe(true);
  });

  it('RENDER_TITLE_CHANGED: both titles present and different', () => {
    const results = rendered(doc({ title: 'Loading shop' }, BODY), doc({ title: 'Oak dining table' }, BODY));
    expect(results.get('RENDER_TITLE_CHANGED')).toMatchObject({
      failed: true,
      evidence: { raw: 'Loading shop', rendered: 'Oak dining table' },
    });
    expect(results.get('RENDER_TITLE_ONLY_RENDERED')?.failed).toBe(false);
  });

  it('RENDER_TITLE_ONLY_RENDERED: no raw title (an empty one counts as none), one after rendering', () => {
    for (const raw of [doc({}, BODY), doc({ title: '  ' }, BODY)]) {
      const results = rendered(raw, doc({ title: 'Oak dining table' }, BODY));
      expect(results.get('RENDER_TITLE_ONLY_RENDERED')).toMatchObject({
        failed: true,
        evidence: { rendered: 'Oak dining table' },
      });
      expect(results.get('RENDER_TITLE_CHANGED')?.applicable).toBe(false);
    }
  });

  it('RENDER_DESCRIPTION_CHANGED: replaced, added or removed; not applicable when both lack one', () => {
    const changed = rendered(doc({ description: 'Shop.' }, BODY), doc({ description: 'Solid oak table.' }, BODY));
    expect(changed.get('RENDER_DESCRIPTION_CHANGED')?.evidence).toEqual({ raw: 'Shop.', rendered: 'Solid oak table.' });
    const added = rendered(doc({}, BODY), doc({ description: 'Solid oak table.' }, BODY));
    expect(added.get('RENDER_DESCRIPTION_CHANGED')?.evidence).toEqual({ raw: null, rendered: 'Solid oak table.' });
    const removed = rendered(doc({ description: 'Shop.' }, BODY), doc({}, BODY));
    expect(removed.get('RENDER_DESCRIPTION_CHANGED')?.evidence).toEqual({ raw: 'Shop.', rendered: null });
    expect(rendered(doc({}, BODY), doc({}, BODY)).get('RENDER_DESCRIPTION_CHANGED')?.applicable).toBe(false);
  });

  it('RENDER_CANONICAL_CHANGED: changed, added or removed; an equivalent URL is the same canonical', () => {
    const other = 'https://shop.test/products/oak-table-2';
    expect(
      rendered(doc({ canonical: URL_ }, BODY), doc({ canonical: other }, BODY)).get('RENDER_CANONICAL_CHANGED'),
    ).toMatchObject({ failed: true, evidence: { raw: URL_, rendered: other } });
    expect(rendered(doc({}, BODY), doc({ canonical: other }, BODY)).get('RENDER_CANONICAL_CHANGED')?.failed).toBe(true);
    expect(rendered(doc({ canonical: URL_ }, BODY), doc({}, BODY)).get('RENDER_CANONICAL_CHANGED')?.failed).toBe(true);
    const relative = rendered(doc({ canonical: URL_ }, BODY), doc({ canonical: '/products/oak-table#top' }, BODY));
    expect(relative.get('RENDER_CANONICAL_CHANGED')?.failed).toBe(false);
  });

  it('RENDER_NOINDEX_CHANGED fails both ways (added and removed by JavaScript), nofollow apart', () => {
    const added = rendered(doc({ robots: 'index' }, BODY), doc({ robots: 'noindex' }, BODY));
    expect(added.get('RENDER_NOINDEX_CHANGED')).toMatchObject({
      failed: true,
      evidence: { raw: 'index', rendered: 'noindex', rawMeta: ['index'], renderedMeta: ['noindex'] },
    });
    expect(added.get('RENDER_NOFOLLOW_CHANGED')?.failed).toBe(false);
    const removed = rendered(doc({ robots: 'noindex' }, BODY), doc({}, BODY));
    expect(removed.get('RENDER_NOINDEX_CHANGED')?.evidence).toMatchObject({ raw: 'noindex', rendered: 'index' });
    const nofollow = rendered(doc({}, BODY), doc({ robots: 'nofollow' }, BODY));
    expect(nofollow.get('RENDER_NOFOLLOW_CHANGED')?.evidence).toMatchObject({ raw: 'follow', rendered: 'nofollow' });
    expect(nofollow.get('RENDER_NOINDEX_CHANGED')?.failed).toBe(false);
  });

  it('RENDER_H1_CHANGED: a different or added h1; not applicable when neither side has one', () => {
    const body = (h1: string) => `${h1}<p>${WORDS(120)}</p>`;
    const changed = rendered(doc({}, body('<h1>Shop</h1>')), doc({}, body('<h1>Oak dining table</h1>')));
    expect(changed.get('RENDER_H1_CHANGED')?.evidence).toEqual({ raw: ['Shop'], rendered: ['Oak dining table'] });
    const added = rendered(doc({}, body('')), doc({}, body('<h1>Oak dining table</h1>')));
    expect(added.get('RENDER_H1_CHANGED')?.evidence).toEqual({ raw: [], rendered: ['Oak dining table'] });
    expect(rendered(doc({}, body('')), doc({}, body(''))).get('RENDER_H1_CHANGED')?.applicable).toBe(false);
  });

  it('RENDER_LINKS_ONLY_RENDERED: internal targets only the rendered page links to (external and self ignored)', () => {
    const raw = doc({}, `<p>${WORDS(80)}</p><a href="/products">Products</a>`);
    const after = doc(
      {},
      `<p>${WORDS(80)}</p><a href="/products">Products</a><a href="/products/chairs">Chairs</a>` +
        `<a href="/products/benches#x">Benches</a><a href="https://elsewhere.test/">Else</a>` +
        `<a href="${URL_}">Self</a>`,
    );
    expect(rendered(raw, after).get('RENDER_LINKS_ONLY_RENDERED')).toMatchObject({
      failed: true,
      evidence: {
        count: 2,
        links: ['https://shop.test/products/chairs', 'https://shop.test/products/benches'],
        rawLinks: 1,
        renderedLinks: 4,
      },
    });
    // Links the raw HTML has and rendering removed are not this check's business.
    expect(rendered(after, raw).get('RENDER_LINKS_ONLY_RENDERED')?.failed).toBe(false);
  });

  it('RENDER_CONTENT_NEEDS_JS: the raw HTML holds under half the words of a rendered page of 50 or more', () => {
    const shell = doc({}, '<div id="root"></div>');
    const full = doc({}, `<p>${WORDS(200)}</p>`);
    expect(rendered(shell, full).get('RENDER_CONTENT_NEEDS_JS')).toMatchObject({
      failed: true,
      evidence: { rawWords: 0, renderedWords: 200 },
    });
    const half = doc({}, `<p>${WORDS(100)}</p>`);
    expect(rendered(half, full).get('RENDER_CONTENT_NEEDS_JS')?.failed).toBe(false);
    const short = doc({}, `<p>${WORDS(40)}</p>`);
    expect(rendered(shell, short).get('RENDER_CONTENT_NEEDS_JS')?.applicable).toBe(false);
  });

  it('RENDER_RESOURCE_BLOCKED_BY_ROBOTS, RENDER_CONSOLE_ERRORS, RENDER_FAILED_REQUESTS read the rendering', () => {
    const results = rendered(SAME, SAME, {
      blockedByRobots: ['https://shop.test/private/app.js'],
      consoleErrors: ['TypeError: x is undefined'],
      consoleErrorCount: 3,
      failedRequests: [{ url: 'https://shop.test/api/price', reason: 'HTTP 500' }],
      failedRequestCount: 1,
    });
    expect(results.get('RENDER_RESOURCE_BLOCKED_BY_ROBOTS')?.evidence).toEqual({
      count: 1,
      resources: ['https://shop.test/private/app.js'],
    });
    expect(results.get('RENDER_CONSOLE_ERRORS')?.evidence).toEqual({
      count: 3,
      errors: ['TypeError: x is undefined'],
    });
    expect(results.get('RENDER_FAILED_REQUESTS')?.evidence).toEqual({
      count: 1,
      requests: [{ url: 'https://shop.test/api/price', reason: 'HTTP 500' }],
    });
  });

  it('does not judge a rendered page that answered an error', () => {
    const results = runPageChecks(facts(SAME), fetchOf({ status: 404, rendering: rendering(doc({}, '')) }));
    for (const code of RENDER_CODES) expect(results.find((r) => r.code === code)?.applicable, code).toBe(false);
  });
});

describe('client-rendered pages in html mode', () => {
  const clientRendering = (html: string) => facts(html).clientRendering;
  const verdict = (html: string) =>
    runPageChecks(facts(html), fetchOf()).find((r) => r.code === 'TECH_CLIENT_RENDERED_SUSPECTED')!;

  it.each([
    ['<div id="root"></div>', 'div#root'],
    ['<div id="app">\n  </div><script src="/app.js"></script>', 'div#app'],
    ['<div id="__next"><noscript>You need to enable JavaScript to run this app.</noscript></div>', 'div#__next'],
    ['<div id="__nuxt">Loading…</div>', 'div#__nuxt'],
    ['<main><div id="___gatsby"></div></main>', 'div#___gatsby'],
    ['<app-root></app-root>', 'app-root'],
    ['<div id="root">', 'div#root'],
  ])('finds the empty app root in %s', (body, root) => {
    expect(clientRendering(doc({}, body)).emptyRoot).toBe(root);
    expect(verdict(doc({}, body))).toMatchObject({ failed: true, evidence: { root, words: expect.any(Number) } });
  });

  it.each([
    '<div id="root"><h1>Oak tables</h1></div>',
    '<div id="app">This is a rendered paragraph of text, well beyond a loading placeholder.</div>',
    '<div id="roots"></div>',
    '<div class="root"></div>',
  ])('sees no empty root in %s', (body) => {
    expect(clientRendering(doc({}, body)).emptyRoot).toBeNull();
    expect(verdict(doc({}, body)).failed).toBe(false);
  });

  it('reads framework markers', () => {
    const html =
      '<div data-reactroot=""></div><my-app ng-version="17.1.0"></my-app><div ng-app="shop"></div>' +
      '<div data-v-app></div><script id="__NEXT_DATA__" type="application/json">{}</script>' +
      '<script>window.__NUXT__={state:{}}</script>';
    expect(clientRendering(doc({}, html)).markers).toEqual([
      'data-reactroot',
      'ng-version',
      'ng-app',
      'data-v-app',
      '__NEXT_DATA__',
      'window.__NUXT__',
    ]);
  });

  it('suspects a page with markers only when it has almost no text; a server-rendered app page passes', () => {
    const next = (words: number) =>
      doc(
        {},
        `<div id="__next"><p>${WORDS(words)}</p></div><script id="__NEXT_DATA__" type="application/json">{}</script>`,
      );
    expect(verdict(next(5))).toMatchObject({ failed: true, evidence: { root: null, markers: ['__NEXT_DATA__'] } });
    expect(verdict(next(300)).failed).toBe(false);
  });

  it('lets an empty root with a server-rendered header and footer under 100 words fail, and pass beyond', () => {
    const shell = (words: number) =>
      doc({}, `<header>${WORDS(words)}</header><div id="root"></div><footer>Oak</footer>`);
    expect(verdict(shell(60)).failed).toBe(true);
    expect(verdict(shell(150)).failed).toBe(false);
  });
});

describe('the stored raw-versus-rendered record', () => {
  it('is null in html mode', () => {
    expect(pageRenderingRecord(fetchOf(), facts(SAME))).toBeNull();
  });

  it('digests both sides and bounds the lists', () => {
    const raw = doc({ robots: 'noindex' }, '<div id="root"></div>');
    const record = pageRenderingRecord(
      fetchOf({
        rendering: rendering(raw, {
          renderMs: 812.4,
          consoleErrors: Array.from({ length: 10 }, (_, i) => `Error ${i}`),
          consoleErrorCount: 14,
          failedRequests: [{ url: 'https://shop.test/api', reason: 'HTTP 503' }],
          failedRequestCount: 1,
          blockedByRobots: ['https://shop.test/private/a.js'],
        }),
      }),
      facts(SAME),
    )!;
    expect(record).toEqual({
      raw: {
        title: null,
        description: null,
        canonical: null,
        robots: { noindex: true, nofollow: false },
        h1: [],
        wordCount: 0,
        internalLinks: 0,
      },
      rendered: {
        title: 'Oak dining table | Oak & Iron',
        description: 'A solid oak dining table.',
        canonical: URL_,
        robots: { noindex: false, nofollow: false },
        h1: ['Oak dining table'],
        wordCount: 125,
        internalLinks: 1,
      },
      renderMs: 812,
      consoleErrorCount: 14,
      consoleErrors: ['Error 0', 'Error 1', 'Error 2', 'Error 3', 'Error 4'],
      failedRequestCount: 1,
      failedRequests: [{ url: 'https://shop.test/api', reason: 'HTTP 503' }],
      blockedByRobots: ['https://shop.test/private/a.js'],
      renderError: null,
    });
  });

  it('keeps the raw side and the reason when rendering failed', () => {
    const record = pageRenderingRecord(fetchOf({ renderError: 'page crashed' }), facts(SAME))!;
    expect(record.rendered).toBeNull();
    expect(record.raw?.title).toBe('Oak dining table | Oak & Iron');
    expect(record.renderError).toBe('page crashed');
  });
});

describe('evidence views of the new codes', () => {
  it('shows each side of a change, "None" where a side has none', () => {
    const results = rendered(doc({}, BODY), doc({ title: 'Oak dining table' }, BODY));
    const view = presentEvidence(
      'RENDER_TITLE_ONLY_RENDERED',
      results.get('RENDER_TITLE_ONLY_RENDERED')!.evidence!,
      URL_,
    )!;
    expect(view.tables[0].columns).toEqual(['Raw HTML', 'Rendered']);
    expect(view.tables[0].rows[0].map((cell) => cell.text)).toEqual(['None', 'Oak dining table']);
  });

  it('presents every failing RENDER_* code as text and URLs, never JSON', () => {
    const raw = doc({ title: 'Shop', robots: 'noindex', canonical: URL_ }, '<h1>Shop</h1><div id="root"></div>');
    const after = doc(
      { title: 'Oak table', description: 'Oak.', robots: 'nofollow' },
      `<h1>Oak table</h1><p>${WORDS(90)}</p><a href="/chairs">Chairs</a>`,
    );
    const results = rendered(raw, after, {
      blockedByRobots: ['https://shop.test/private/app.js'],
      consoleErrors: ['ReferenceError: dataLayer is not defined'],
      consoleErrorCount: 1,
      failedRequests: [{ url: 'https://shop.test/api/stock', reason: 'net::ERR_CONNECTION_REFUSED' }],
      failedRequestCount: 1,
    });
    // A title cannot both change and appear: that one is planted on a raw page without a title.
    const untitled = rendered(raw.replace('<title>Shop</title>', ''), after);
    for (const code of RENDER_CODES) {
      const result = (code === 'RENDER_TITLE_ONLY_RENDERED' ? untitled : results).get(code)!;
      expect(result.failed, code).toBe(true);
      const view = presentEvidence(code, result.evidence!, URL_)!;
      const texts = [
        ...view.facts.map((f) => f.value.text),
        ...view.tables.flatMap((t) => t.rows.flat().map((c) => c.text)),
      ];
      expect(texts.length, code).toBeGreaterThan(0);
      for (const text of texts) expect(text, code).not.toMatch(/^[[{]/);
      const fix = suggestFix({ code, url: URL_, evidence: result.evidence!, page: null });
      expect(fix.summary, code).not.toMatch(/undefined|null|NaN/);
    }
    const suspected = runPageChecks(facts(raw), fetchOf()).find((r) => r.code === 'TECH_CLIENT_RENDERED_SUSPECTED')!;
    const view = presentEvidence('TECH_CLIENT_RENDERED_SUSPECTED', suspected.evidence!, URL_)!;
    expect(Object.fromEntries(view.facts.map((f) => [f.label, f.value.text]))).toEqual({
      'Empty app root': 'div#root',
      'Visible text': '1 word',
    });
  });
});
