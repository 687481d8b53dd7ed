import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rankingUrlVariants } from '../../../src/seo/page/index.js';
import { variantsOf } from '../../../src/seo/page/ranking-url-variants.js';
import { RANKING_POINTS, issuePriority, rankingPositionWeight, rankingWeight } from '../../../src/seo/scoring/index.js';

describe('rankingUrlVariants', () => {
  it('gives the URL in the crawler form first, then the other slash, the other scheme, the other host', () => {
    expect(rankingUrlVariants('https://Example.com/Shoes/?size=42#reviews')).toEqual([
      'https://example.com/Shoes/?size=42',
      'https://example.com/Shoes?size=42',
      'http://example.com/Shoes/?size=42',
      'http://example.com/Shoes?size=42',
      'https://www.example.com/Shoes/?size=42',
      'https://www.example.com/Shoes?size=42',
      'http://www.example.com/Shoes/?size=42',
      'http://www.example.com/Shoes?size=42',
    ]);
  });

  it('drops "www." as readily as it adds it, and has no slash variant of the root', () => {
    expect(rankingUrlVariants('http://www.example.com/')).toEqual([
      'http://www.example.com/',
      'https://www.example.com/',
      'http://example.com/',
      'https://example.com/',
    ]);
    expect(rankingUrlVariants('https://www.example.com')).toContain('https://example.com/');
  });

  it.each([
    // Default ports go, other ports stay; path case and percent-encoding are the URL parser's.
    ['https://example.com:443/a', 'https://example.com/a'],
    ['https://example.com:8443/a', 'https://example.com:8443/a'],
    ['https://example.com/caf%C3%A9 menu', 'https://example.com/caf%C3%A9%20menu'],
  ])('%s is crawled as %s', (url, first) => {
    expect(rankingUrlVariants(url)[0]).toBe(first);
  });

  it('puts no "www." before an address or localhost', () => {
    expect(rankingUrlVariants('http://127.0.0.1:8080/a')).toEqual([
      'http://127.0.0.1:8080/a',
      'http://127.0.0.1:8080/a/',
      'https://127.0.0.1:8080/a',
      'https://127.0.0.1:8080/a/',
    ]);
    expect(rankingUrlVariants('http://localhost/').every((u) => !u.includes('www.'))).toBe(true);
  });

  it.each(['', 'not a url', '/relative/path', 'ftp://example.com/file', 'mailto:a@example.com'])(
    'names no page for %j',
    (url) => {
      expect(rankingUrlVariants(url)).toEqual([]);
    },
  );
});

describe('ranking weights', () => {
  it.each([
    [1, 1],
    [3, 1],
    [4, 0.6],
    [10, 0.6],
    [11, 0.3],
    [20, 0.3],
    [21, 0.1],
    [100, 0.1],
  ])('position %i weighs %d', (position, weight) => {
    expect(rankingPositionWeight(position)).toBe(weight);
  });

  it('sums over the pages, and over the keywords of each page', () => {
    expect(rankingWeight([])).toBe(0);
    expect(rankingWeight([[2], [7, 15], [40]])).toBeCloseTo(1 + 0.6 + 0.3 + 0.1, 10);
  });
});

describe('issuePriority with ranking pages', () => {
  const stored = (code: string, severity: 'CRITICAL' | 'WARNING' | 'NOTICE', affected: number, applicable: number) =>
    ({ code, severity, category: 'META', affectedPages: affected, applicablePages: applicable }) as const;

  it('adds RANKING_POINTS × severity weight × ranking weight to the cost', () => {
    expect(RANKING_POINTS).toBe(10);
    const title = stored('META_TITLE_MISSING', 'CRITICAL', 1, 100);
    expect(issuePriority(title, 100)).toBe(1);
    expect(issuePriority(title, 100, 0)).toBe(1);
    expect(issuePriority(title, 100, rankingWeight([[7]]))).toBeCloseTo(1 + 10 * 1 * 0.6, 10);
    const short = stored('META_TITLE_TOO_SHORT', 'NOTICE', 1, 100);
    expect(issuePriority(short, 100, rankingWeight([[1], [2]]))).toBeCloseTo(0.03 + 10 * 0.03 * 2, 10);
    // A site-level issue keeps its fixed cost, plus the same term.
    expect(issuePriority(stored('TECH_SITEMAP_MISSING', 'WARNING', 1, 1), 100, 1)).toBeCloseTo(5 + 3, 10);
  });

  it('puts a cheap issue on a #2 ranking page before a wider one on pages that do not rank', () => {
    const cheap = stored('CONTENT_H1_MISSING', 'WARNING', 1, 20);
    const wide = stored('META_DESCRIPTION_MISSING', 'WARNING', 2, 20);
    expect(issuePriority(cheap, 20)).toBeLessThan(issuePriority(wide, 20));
    expect(issuePriority(cheap, 20, rankingWeight([[2]]))).toBeGreaterThan(issuePriority(wide, 20));
  });

  it('keeps severity: a NOTICE on the #1 page does not pass a CRITICAL on a tenth of the site', () => {
    const notice = issuePriority(stored('META_TITLE_TOO_SHORT', 'NOTICE', 1, 100), 100, rankingWeight([[1]]));
    const critical = issuePriority(stored('META_TITLE_MISSING', 'CRITICAL', 10, 100), 100);
    expect(notice).toBeLessThan(critical);
  });
});

describe('rankingUrlVariants against the URL setters applied to a fresh copy per variant', () => {
  /** The variants as first written: a copy of the parsed URL per variant, host, scheme and path set in turn. */
  function reference(url: string): string[] {
    let parsed: URL;
    try {
      parsed = new URL(url.trim());
    } catch {
      return [];
    }
    if (!['http:', 'https:'].includes(parsed.protocol) || parsed.hostname === '') return [];
    const host = parsed.hostname;
    const noWww = /^(localhost|\d{1,3}(\.\d{1,3}){3}|\[.*\])$/i.test(host);
    const hosts = noWww ? [host] : [host, host.startsWith('www.') ? host.slice(4) : `www.${host}`];
    const protocols = [parsed.protocol, parsed.protocol === 'https:' ? 'http:' : 'https:'];
    const path = parsed.pathname;
    const paths = path === '/' ? [path] : [path, path.endsWith('/') ? path.slice(0, -1) : `${path}/`];
    const out = new Set<string>();
    for (const h of hosts)
      for (const protocol of protocols)
        for (const p of paths) {
          const variant = new URL(parsed.href);
          variant.hostname = h;
          variant.protocol = protocol;
          variant.pathname = p;
          const href = variant.href;
          out.add(href.includes('#') ? href.slice(0, href.indexOf('#')) : href);
        }
    return [...out];
  }

  const segment = fc.constantFrom(
    'a',
    'Shoes',
    'caf%C3%A9',
    'café',
    'a b',
    '%2F',
    '%2e',
    '..',
    '.',
    'x.html',
    '',
    '~u',
    ';p',
  );
  const url = fc
    .record({
      scheme: fc.constantFrom('http', 'https', 'HTTPS', 'ftp'),
      host: fc.constantFrom(
        'example.com',
        'WWW.Example.com',
        'www.',
        'www.www.a.io',
        '127.0.0.1',
        '[::1]',
        'localhost',
        'xn--caf-dma.fr',
        'café.fr',
        'a-b.co.uk',
        'www.x',
        'shop.example.com.',
        '0x7f.1',
        'EXAMPLE.com.',
      ),
      port: fc.constantFrom('', ':80', ':443', ':8080', ':', ':0', ':0443'),
      user: fc.constantFrom('', 'u@', 'u:p@', 'u%40x:p%2F@', 'a@b@', ':@'),
      path: fc.array(segment, { maxLength: 4 }),
      slash: fc.boolean(),
      query: fc.constantFrom('', '?', '?a=1&b=%20', '?q=#'),
      fragment: fc.constantFrom('', '#', '#top', '#a#b'),
      space: fc.constantFrom('', ' '),
    })
    .map(
      (u) =>
        `${u.space}${u.scheme}://${u.user}${u.host}${u.port}/${u.path.join('/')}${u.slash ? '/' : ''}${u.query}` +
        `${u.fragment}${u.space}`,
    );

  it('gives the same variants, in the same order, for generated URLs', () => {
    fc.assert(
      fc.property(url, (u) => {
        expect(rankingUrlVariants(u)).toEqual(reference(u));
      }),
      { numRuns: 3000 },
    );
  });

  it('kept variants are the computed ones: asked again, once others pushed them out, or never asked before', () => {
    const first = rankingUrlVariants('https://kept.example.com/a?x=1');
    expect(rankingUrlVariants('https://kept.example.com/a?x=1')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // More URLs than are kept: the first is computed again, equal to what it was.
    for (let i = 0; i < 10_050; i++) rankingUrlVariants(`https://kept.example.com/p${i}`);
    const again = rankingUrlVariants('https://kept.example.com/a?x=1');
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    fc.assert(
      fc.property(url, (u) => {
        expect(rankingUrlVariants(u)).toEqual(variantsOf(u));
        expect(rankingUrlVariants(u)).toEqual(reference(u));
      }),
      { numRuns: 500 },
    );
  });
});
