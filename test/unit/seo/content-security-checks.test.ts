import { describe, expect, it } from 'vitest';
import { isFileNameAlt, likelyLcpImage, saysNotFound } from '../../../src/seo/checks/hygiene-checks.js';
import { parseRefresh } from '../../../src/seo/checks/meta-refresh.js';
import { runPageChecks, runSiteChecks, type PageFetch, type PageSummary } from '../../../src/seo/checks/index.js';
import { evaluateLinkTargets } from '../../../src/seo/checks/link-target-checks.js';
import { nonIndexableReason } from '../../../src/seo/checks/page-indexability.js';
import { suggestFix } from '../../../src/seo/fixes/index.js';
import { analyzeHeaders } from '../../../src/seo/headers/index.js';
import { extractPageFacts } from '../../../src/seo/page/index.js';

const URL_ = 'https://example.com/page';
const TEXT = Array.from({ length: 230 }, (_, i) => `word${i}`).join(' ');

function html(body: string, head = ''): string {
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>A fine page about blue widgets</title>` +
    `${head}</head><body><h1>Blue widgets</h1>${body}<p>${TEXT}</p></body></html>`
  );
}

function fetchOf(url = URL_, extra: Partial<PageFetch> = {}): PageFetch {
  return { url, finalUrl: url, status: 200, depth: 1, redirects: [], bytes: 1000, headers: {}, ...extra };
}

function run(code: string, markup: string, page: Partial<PageFetch> = {}, url = URL_) {
  const facts = extractPageFacts(markup, { url, headers: page.headers });
  return runPageChecks(facts, fetchOf(url, page)).find((r) => r.code === code)!;
}

describe('image checks', () => {
  it.each([
    ['IMG_1234.jpg', true],
    ['DSC01234', true],
    ['photo-2023.png', true],
    ['Screenshot 2024-01-05 at 10.00.00', true],
    ['Blue widget on a workbench', false],
    ['PostgreSQL 15 logo', false],
    ['v1.2', false],
  ])('alt %j is a file name: %s', (alt, expected) => {
    expect(isFileNameAlt(alt)).toBe(expected);
  });

  it('CONTENT_IMAGE_ALT_FILENAME fails with the image and its alt, passes on a description', () => {
    const bad = run('CONTENT_IMAGE_ALT_FILENAME', html('<img src="/a.jpg" alt="IMG_1234.jpg">'));
    expect(bad).toMatchObject({ failed: true, evidence: { count: 1, images: [{ alt: 'IMG_1234.jpg' }] } });
    expect(run('CONTENT_IMAGE_ALT_FILENAME', html('<img src="/a.jpg" alt="A blue widget">')).failed).toBe(false);
    expect(run('CONTENT_IMAGE_ALT_FILENAME', html('<p>no image</p>')).applicable).toBe(false);
  });

  it('CONTENT_IMAGE_EMPTY_SRC: src="" or no source fails; data-src (a lazy loader) and srcset pass', () => {
    expect(run('CONTENT_IMAGE_EMPTY_SRC', html('<img src="" alt="x">')).failed).toBe(true);
    expect(run('CONTENT_IMAGE_EMPTY_SRC', html('<img alt="x">')).failed).toBe(true);
    expect(run('CONTENT_IMAGE_EMPTY_SRC', html('<img src="" data-src="/a.jpg" alt="x">')).failed).toBe(false);
    expect(run('CONTENT_IMAGE_EMPTY_SRC', html('<img srcset="/a.jpg 1x" alt="x">')).failed).toBe(false);
  });

  it('the likely LCP image is the first wide image near the top; a lazy one fails PERF_LCP_IMAGE_LAZY', () => {
    const top = html(
      '<img src="/logo.png" width="64" alt="l"><img src="/hero.jpg" width="800" loading="lazy" alt="h">',
    );
    expect(likelyLcpImage(extractPageFacts(top, { url: URL_ }))?.src).toBe('/hero.jpg');
    expect(run('PERF_LCP_IMAGE_LAZY', top)).toMatchObject({
      failed: true,
      evidence: { src: 'https://example.com/hero.jpg' },
    });
    expect(run('PERF_LCP_IMAGE_LAZY', html('<img src="/hero.jpg" width="800" alt="h">')).failed).toBe(false);
    // Far down the page (after the 230-word text) a lazy image is right; only small images: not applicable.
    const below = html('').replace('</body>', '<img src="/x.jpg" width="800" loading="lazy" alt="x"></body>');
    expect(run('PERF_LCP_IMAGE_LAZY', below).applicable).toBe(false);
    expect(run('PERF_LCP_IMAGE_LAZY', html('<img src="/i.png" width="100%" alt="i">')).applicable).toBe(false);
  });

  it('PERF_IMAGES_NOT_LAZY needs over 10 images and no lazy one after the first 3', () => {
    const images = (lazyFrom: number | null) =>
      Array.from(
        { length: 12 },
        (_, i) => `<img src="/g${i}.png" alt="g${i}"${lazyFrom !== null && i >= lazyFrom ? ' loading="lazy"' : ''}>`,
      ).join('');
    expect(run('PERF_IMAGES_NOT_LAZY', html(images(null)))).toMatchObject({ failed: true, evidence: { images: 12 } });
    expect(run('PERF_IMAGES_NOT_LAZY', html(images(3))).failed).toBe(false);
    expect(run('PERF_IMAGES_NOT_LAZY', html(images(null).slice(0, 200))).applicable).toBe(false);
  });

  it('PERF_IMAGE_LEGACY_FORMAT judges checked images by type and size', () => {
    const resource = (type: string, bytes: number) => ({
      url: 'https://example.com/a',
      kind: 'image' as const,
      status: 200,
      bytes,
      headers: { 'content-type': type },
    });
    const markup = html('<p>x</p>');
    expect(run('PERF_IMAGE_LEGACY_FORMAT', markup, { resources: [resource('image/jpeg', 150_000)] }).failed).toBe(true);
    expect(run('PERF_IMAGE_LEGACY_FORMAT', markup, { resources: [resource('image/webp', 150_000)] }).failed).toBe(
      false,
    );
    expect(run('PERF_IMAGE_LEGACY_FORMAT', markup, { resources: [resource('image/png', 50_000)] }).failed).toBe(false);
    expect(run('PERF_IMAGE_LEGACY_FORMAT', markup).applicable).toBe(false);
  });
});

describe('content, redirect and URL checks', () => {
  it('CONTENT_PLACEHOLDER_TEXT finds lorem ipsum in visible text only', () => {
    expect(run('CONTENT_PLACEHOLDER_TEXT', html('<p>Lorem ipsum dolor sit amet.</p>')).failed).toBe(true);
    expect(run('CONTENT_PLACEHOLDER_TEXT', html('<script>var t = "lorem ipsum dolor";</script>')).failed).toBe(false);
  });

  it.each([
    ['Page not found', true],
    ['404', true],
    ['Oops! That page can’t be found.', true],
    ['Page introuvable', true],
    ['Seite nicht gefunden', true],
    ['Página no encontrada', true],
    ['Página não encontrada', true],
    ['Page non trouvée', true],
    ['Cette page n’existe plus', true],
    ['This page doesn’t exist', true],
    ['How we fixed the 404 errors on our garden website last spring', false],
    ['Blue widgets', false],
  ])('heading %j says not found: %s', (text, expected) => {
    expect(saysNotFound(text)).toBe(expected);
  });

  it('TECH_SOFT_404 needs a 200 indexable page with little text', () => {
    const soft = '<!DOCTYPE html><html lang="en"><head><title>Page not found</title></head><body><p>Sorry.</p>';
    expect(run('TECH_SOFT_404', soft)).toMatchObject({ failed: true, evidence: { heading: 'Page not found' } });
    expect(run('TECH_SOFT_404', soft.replace('<p>', '<meta name="robots" content="noindex"><p>')).applicable).toBe(
      false,
    );
    const long = soft.replace('Sorry.', `${TEXT} ${TEXT}`);
    expect(run('TECH_SOFT_404', long).failed).toBe(false);
  });

  it('parses meta refresh like browsers; TECH_META_REFRESH fails on a redirect or a timed reload', () => {
    expect(parseRefresh("0; URL='/next'", URL_)).toEqual({ delay: 0, target: 'https://example.com/next' });
    expect(parseRefresh('30', URL_)).toEqual({ delay: 30, target: null });
    expect(parseRefresh('soon', URL_)).toBeNull();
    const refresh = html('', '<meta http-equiv="refresh" content="5; url=/next">');
    expect(run('TECH_META_REFRESH', refresh)).toMatchObject({ failed: true, evidence: { delay: 5 } });
    expect(run('TECH_META_REFRESH', html('')).failed).toBe(false);
  });

  it('treats an instant meta refresh to another URL as a redirect stub: non-indexable, no on-page checks', () => {
    // Apache's language negotiation stubs: no title, no h1, only <meta http-equiv="refresh" content="0; url=...">.
    const stub = '<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url=/en/"></head><body></body>';
    expect(run('TECH_META_REFRESH', stub)).toMatchObject({ failed: true, evidence: { delay: 0 } });
    expect(run('META_TITLE_MISSING', stub).applicable).toBe(false);
    expect(run('CONTENT_H1_MISSING', stub).applicable).toBe(false);
    const facts = extractPageFacts(stub, { url: URL_ });
    expect(nonIndexableReason(facts, fetchOf())).toBe('redirect');
    // A timed refresh, or an instant one that reloads the same URL, leaves the page a page.
    const timed = stub.replace('content="0; url=/en/"', 'content="5; url=/en/"');
    expect(run('META_TITLE_MISSING', timed)).toMatchObject({ applicable: true, failed: true });
    const reload = stub.replace('url=/en/', 'url=/page');
    expect(nonIndexableReason(extractPageFacts(reload, { url: URL_ }), fetchOf())).toBeNull();
    expect(run('META_TITLE_MISSING', reload)).toMatchObject({ applicable: true, failed: true });
  });

  it('LINKS_TEMPORARY_REDIRECT fails on 302/307 hops, not on 301', () => {
    const hops = (status: number) => ({ redirects: [{ url: 'https://example.com/old', status }] });
    expect(run('LINKS_TEMPORARY_REDIRECT', html(''), hops(302))).toMatchObject({
      failed: true,
      evidence: { status: 302 },
    });
    expect(run('LINKS_TEMPORARY_REDIRECT', html(''), hops(307)).failed).toBe(true);
    expect(run('LINKS_TEMPORARY_REDIRECT', html(''), hops(301)).failed).toBe(false);
  });

  it.each([
    ['TECH_URL_DOUBLE_SLASH', 'https://example.com/a//b', 'https://example.com/a/b'],
    ['TECH_URL_NON_ASCII', 'https://example.com/caf%C3%A9', 'https://example.com/cafe'],
    ['TECH_URL_NON_ASCII', 'https://example.com/two%20words', 'https://example.com/two-words'],
    ['TECH_URL_SESSION_ID', 'https://example.com/p?PHPSESSID=abc123', 'https://example.com/p?page=2'],
    ['TECH_URL_SESSION_ID', 'https://example.com/p;jsessionid=ABC', 'https://example.com/p?sid=12'],
  ])('%s fails on %s and passes on %s', (code, bad, good) => {
    expect(run(code, html(''), {}, bad).failed).toBe(true);
    expect(run(code, html(''), {}, good).failed).toBe(false);
  });
});

describe('link checks', () => {
  it('LINKS_NO_ANCHOR_TEXT: no text, label or alt fails; aria-label and image alt pass', () => {
    expect(run('LINKS_NO_ANCHOR_TEXT', html('<a href="/x"><img src="/i.png" alt=""></a>')).failed).toBe(true);
    expect(run('LINKS_NO_ANCHOR_TEXT', html('<a href="/x" aria-label="Search"><i></i></a>')).failed).toBe(false);
    expect(run('LINKS_NO_ANCHOR_TEXT', html('<a href="/x"><img src="/i.png" alt="Home"></a>')).failed).toBe(false);
    // The same target also has a named link (DocBook's nested anchors, a card's image and title links).
    const nested = '<a href="/g#t"><em><a href="/g#t" title="Term">Term</a></em></a>';
    expect(run('LINKS_NO_ANCHOR_TEXT', html(nested)).failed).toBe(false);
  });

  it('LINKS_TO_NOINDEX and LINKS_TO_NON_CANONICAL judge crawled targets only', () => {
    const targets = new Map([
      ['https://example.com/a', { status: 200, noindex: true, canonical: 'https://example.com/a' }],
      ['https://example.com/b', { status: 200, noindex: false, canonical: 'https://example.com/c' }],
      ['https://example.com/c', { status: 200, noindex: false, canonical: 'https://example.com/c' }],
      ['https://example.com/d', { status: 200, noindex: false, canonical: null }],
      ['https://example.com/x', { status: 404 }],
    ]);
    const outcome = (links: string[]) =>
      evaluateLinkTargets(
        { selfUrl: URL_, selfNoindex: false, internalLinks: links, externalLinks: [], canonical: null },
        (url) => targets.get(url),
      );
    const all = outcome(['https://example.com/a', 'https://example.com/b', 'https://example.com/c']);
    expect(all.toNoindex).toMatchObject({ failed: true, evidence: { links: ['https://example.com/a'] } });
    expect(all.toNonCanonical).toMatchObject({
      failed: true,
      evidence: { links: [{ url: 'https://example.com/b', canonical: 'https://example.com/c' }] },
    });
    const clean = outcome(['https://example.com/c', 'https://example.com/d']);
    expect([clean.toNoindex?.failed, clean.toNonCanonical?.failed]).toEqual([false, false]);
    expect(outcome(['https://example.com/x']).toNoindex).toBeNull();
  });
});

describe('security headers and cookies', () => {
  const site = (headers: Record<string, string>, https = true) =>
    runSiteChecks({
      startUrl: 'https://example.com/',
      pages: [] as PageSummary[],
      hsts: { https, header: headers['strict-transport-security'] ?? null },
      startResponse: { url: 'https://example.com/', https, headers },
    }).site;
  const outcome = (headers: Record<string, string>, code: string, https = true) =>
    site(headers, https).find((r) => r.code === code)!;

  it('fails on a start page without CSP, nosniff or framing protection; passes when sent; not on http', () => {
    for (const code of ['TECH_CSP_MISSING', 'TECH_CONTENT_TYPE_OPTIONS_MISSING', 'TECH_CLICKJACKING_UNPROTECTED'])
      expect(outcome({}, code)).toMatchObject({ applicable: true, failed: true });
    const good = {
      'content-security-policy': "default-src 'self'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
    };
    for (const code of ['TECH_CSP_MISSING', 'TECH_CONTENT_TYPE_OPTIONS_MISSING', 'TECH_CLICKJACKING_UNPROTECTED'])
      expect(outcome(good, code)).toMatchObject({ applicable: true, failed: false });
    expect(outcome({}, 'TECH_CSP_MISSING', false).applicable).toBe(false);
    expect(
      outcome({ 'x-frame-options': 'ALLOW-FROM https://a.example' }, 'TECH_CLICKJACKING_UNPROTECTED'),
    ).toMatchObject({ failed: true, occurrences: [{ evidence: { reason: 'x-frame-options-invalid' } }] });
    expect(outcome({ 'content-security-policy-report-only': "default-src 'self'" }, 'TECH_CSP_MISSING')).toMatchObject({
      failed: true,
      occurrences: [{ evidence: { reportOnly: true } }],
    });
  });

  it('TECH_HSTS_SHORT: under one year fails, a year passes, no HSTS is TECH_HSTS_MISSING’s', () => {
    expect(outcome({ 'strict-transport-security': 'max-age=86400' }, 'TECH_HSTS_SHORT').failed).toBe(true);
    expect(outcome({ 'strict-transport-security': 'max-age=31536000' }, 'TECH_HSTS_SHORT').failed).toBe(false);
    expect(outcome({}, 'TECH_HSTS_SHORT').applicable).toBe(false);
  });

  it('the headers tool raises the same codes from the same verdicts', () => {
    const report = analyzeHeaders({
      url: 'https://example.com/',
      finalUrl: 'https://example.com/',
      status: 200,
      httpVersion: '1.1',
      redirects: [],
      headers: { 'strict-transport-security': 'max-age=600' },
    });
    expect(report.issues.map((issue) => issue.code)).toEqual(
      expect.arrayContaining([
        'TECH_CSP_MISSING',
        'TECH_CONTENT_TYPE_OPTIONS_MISSING',
        'TECH_CLICKJACKING_UNPROTECTED',
        'TECH_HSTS_SHORT',
      ]),
    );
  });

  it('TECH_COOKIE_INSECURE: a cookie without Secure on https fails; deleted cookies and http do not count', () => {
    const cookie = (value: string[], url = URL_) =>
      run('TECH_COOKIE_INSECURE', html(''), { headers: { 'set-cookie': value } }, url);
    expect(cookie(['sid=1; Path=/; HttpOnly', 'pref=2; Secure'])).toMatchObject({
      failed: true,
      evidence: { count: 1, cookies: ['sid'] },
    });
    expect(cookie(['sid=1; Secure; HttpOnly']).failed).toBe(false);
    expect(cookie(['old=; Max-Age=0']).failed).toBe(false);
    expect(cookie(['sid=1'], 'http://example.com/page').applicable).toBe(false);
  });
});

describe('fixes', () => {
  it('proposes a page-specific fix for each new code', () => {
    const proposal = (code: string, evidence: Record<string, unknown>) =>
      suggestFix({ code: code as never, url: 'https://example.com/a//b', evidence, page: null });
    const doubleSlash = proposal('TECH_URL_DOUBLE_SLASH', { path: '/a//b' });
    expect(doubleSlash.summary).toContain('/a/b');
    // Both servers merge slashes before matching, so the rules test the request line as sent.
    expect(doubleSlash.code).toContain('$request_uri ~ "^[^?]*//"');
    expect(doubleSlash.code).toContain('RewriteCond %{THE_REQUEST}');
    expect(proposal('TECH_HSTS_SHORT', { maxAge: 86400 }).steps[0]).toContain('max-age=86400');
    expect(
      proposal('LINKS_TEMPORARY_REDIRECT', {
        status: 302,
        from: 'https://example.com/old',
        to: 'https://example.com/new',
      }).code,
    ).toContain('return 301 https://example.com/new');
    expect(
      proposal('CONTENT_IMAGE_ALT_FILENAME', { images: [{ src: '/red-oak-table.jpg', alt: 'red-oak-table.jpg' }] })
        .code,
    ).toMatch(/alt="[^"]*oak table/i);
  });
});
