import { describe, expect, it } from 'vitest';
import {
  compileCrawlScope,
  compileScopePattern,
  compileScopePatterns,
  scopePatternError,
  scopeTargets,
  withoutParameters,
} from '../../../src/crawler/crawl-scope.js';

const test = (pattern: string, target: string) => compileScopePattern(pattern).test(target);

describe('crawl scope: globs', () => {
  it('anchors at both ends; * stays within a segment, ** crosses them, ? is one character but /', () => {
    expect(test('/blog/index.html', '/blog/index.html')).toBe(true);
    expect(test('/blog/index.html', '/blog/index.htm')).toBe(false);
    // `/…/` with no slash inside is a regular expression (searched anywhere); with one inside, a glob.
    expect(compileScopePattern('/blog/').kind).toBe('regex');
    expect(test('/blog/', '/myblog/post')).toBe(true);
    expect(compileScopePattern('/blog/*/').kind).toBe('glob');
    expect(test('/blog/*/', '/blog/2024/')).toBe(true);
    expect(test('/blog/*/', '/blog/2024/x')).toBe(false);
    expect(test('/blog/**', '/blog/2024/post?page=2')).toBe(true);
    expect(test('/blog/**', '/blogs/post')).toBe(false);
    expect(test('/blog/*', '/blog/post')).toBe(true);
    expect(test('/blog/*', '/blog/2024/post')).toBe(false);
    expect(test('/shop/*.html', '/shop/shoe.html')).toBe(true);
    expect(test('/shop/*.html', '/shop/a/shoe.html')).toBe(false);
    expect(test('/p?', '/p1')).toBe(true);
    expect(test('/p?', '/p/')).toBe(false);
    expect(test('/p?', '/p12')).toBe(false);
    // `?` also matches the query's own question mark.
    expect(test('/**?sort=*', '/products?sort=price')).toBe(true);
    // … or the `&` before a later parameter: `?` is any one character but `/`.
    expect(test('/**?sort=*', '/products?page=2&sort=price')).toBe(true);
    expect(test('/**?sort=*', '/products/sort=price')).toBe(false);
    expect(test('**sort=**', '/products?page=2&sort=price')).toBe(true);
    expect(test('**/feed', '/a/b/feed')).toBe(true);
    expect(test('**/feed', '/a/b/feed/')).toBe(false);
  });

  it('treats regular-expression characters of a glob as themselves', () => {
    expect(test('/a+b(c)[d].html', '/a+b(c)[d].html')).toBe(true);
    expect(test('/a.b*', '/aXb')).toBe(false);
  });

  it('stays fast on a glob with many stars against a long path (no backtracking)', () => {
    const glob = compileScopePattern('*a*a*a*a*a*a*a*a*a*a*b');
    const path = `/${'a'.repeat(5_000)}`;
    const started = performance.now();
    expect(glob.test(path)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('crawl scope: regular expressions', () => {
  it('searches anywhere in path and query, with flags', () => {
    expect(test('/^\\/blog\\//', '/blog/x')).toBe(true);
    expect(test('/^\\/blog\\//', '/x/blog/x')).toBe(false);
    expect(test('/[?&]sort=/', '/p?page=1&sort=asc')).toBe(true);
    expect(test('/[?&]sort=/', '/resort=1')).toBe(false);
    expect(test('/\\/BLOG\\//i', '/blog/x')).toBe(true);
    expect(test('/\\/BLOG\\//', '/blog/x')).toBe(false);
    expect(test('/\\.pdf$/', '/a/b.pdf')).toBe(true);
    expect(test('/\\.pdf$/', '/a/b.pdf?x')).toBe(false);
  });

  // The matcher is our own (a linear-time automaton): it must agree with JavaScript's engine wherever both run.
  const patterns = [
    'a|b',
    '^\\/(en|de)\\/',
    '\\/blog\\/\\d{4}\\/',
    'x{2,3}$',
    '(?:ab)+c',
    '(?<year>\\d+)-\\d+',
    '[^/]+\\.html$',
    '[a-c-]+z',
    '[\\d-z]',
    '\\bpage\\b',
    '\\Bage',
    'colou?r',
    '(a|ab)(c|bcd)(d*)',
    '^$',
    '.*',
    '[^a]',
    '\\w+@\\w+',
    'a{0}b',
    '(a*)*b',
    '\\x41\\u0042',
    '\\/\\?q=\\S+',
    '[]',
    '[^]',
    'a.c',
    '^\\/a|^\\/b',
    '(?:a|)+x',
  ];
  const inputs = [
    '',
    '/',
    '/en/page',
    '/de/',
    '/fr/en/',
    '/blog/2024/x',
    '/blog/24/x',
    'xx',
    'xxx',
    'xxxx',
    'ababc',
    'abc',
    '2024-05',
    '/a/b.html',
    '/a/b.html?x',
    'abz',
    '-z',
    'the page is',
    'homepage',
    'color',
    'colour',
    'abcd',
    'abcdd',
    'Aa',
    'me@example',
    'AB',
    '/?q=a+b',
    'a\nc',
    '/a',
    '/b',
    'x',
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab',
  ];
  for (const flags of ['', 'i']) {
    it(`agrees with RegExp on every sample (flags "${flags}")`, () => {
      for (const source of patterns) {
        const ours = compileScopePattern(`/${source}/${flags}`);
        const theirs = new RegExp(source, flags);
        for (const input of inputs)
          expect([source, input, ours.test(input)]).toEqual([source, input, theirs.test(input)]);
      }
    });
  }

  it('runs nested quantifiers in linear time (no catastrophic backtracking)', () => {
    const evil = ['/(a+)+$/', '/(a|a)*b/', '/(a*)*b/', '/.*.*.*.*x/', '/(\\w+\\s?)+$/'];
    const input = `/${'a'.repeat(20_000)}!`;
    for (const pattern of evil) {
      const started = performance.now();
      expect(compileScopePattern(pattern).test(input)).toBe(false);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });

  it('refuses what cannot run in linear time, what does not compile, and bad input, with a reason', () => {
    expect(scopePatternError('/(a)\\1/')).toMatch(/back-reference/);
    expect(scopePatternError('/(?<x>a)\\k<x>/')).toMatch(/back-reference/);
    expect(scopePatternError('/a(?=b)/')).toMatch(/lookahead or lookbehind/);
    expect(scopePatternError('/(?<!a)b/')).toMatch(/lookahead or lookbehind/);
    expect(scopePatternError('/a(/')).toMatch(/not a valid regular expression/);
    expect(scopePatternError('/a/g')).toMatch(/flags/);
    expect(scopePatternError('/a/ii')).toMatch(/flags/);
    expect(scopePatternError('/\\p{L}/u')).toMatch(/Unicode property/);
    expect(scopePatternError('/a{1,5000}/')).toMatch(/1000/);
    expect(scopePatternError('/(?:(?:a{1,1000}){1,1000})/')).toMatch(/too complex/);
    expect(scopePatternError('')).toMatch(/empty/);
    expect(scopePatternError('   ')).toMatch(/empty/);
    expect(scopePatternError(`/${'a'.repeat(300)}`)).toMatch(/300/);
    expect(scopePatternError('/a\n/b')).toMatch(/one line/);
    expect(scopePatternError('/blog/**')).toBeNull();
    // `/` alone and `//` are globs (the empty regex is not a pattern anyone means).
    expect(scopePatternError('/')).toBeNull();
    expect(test('//', '//')).toBe(true);
  });
});

describe('crawl scope: query parameters', () => {
  it('drops listed names (decoded) and keeps the others in their order and spelling', () => {
    expect(withoutParameters('?b=2&utm_source=x&a=1', new Set(['utm_source']))).toBe('?b=2&a=1');
    expect(withoutParameters('?utm%5Fsource=x&q=a%20b', new Set(['utm_source']))).toBe('?q=a%20b');
    expect(withoutParameters('?sid', new Set(['sid']))).toBe('');
    expect(withoutParameters('?a=1&&b=2', new Set(['x']))).toBe('?a=1&&b=2');
  });

  it('normalizes URLs as the scope says: keep, drop-all, drop-listed; the fragment always goes', () => {
    const url = 'https://example.com/p?z=1&sort=asc&a=2#top';
    expect(compileCrawlScope('https://example.com/').normalize(url)).toBe('https://example.com/p?z=1&sort=asc&a=2');
    expect(compileCrawlScope('https://example.com/', { queryParameters: 'drop-all' }).normalize(url)).toBe(
      'https://example.com/p',
    );
    const listed = compileCrawlScope('https://example.com/', {
      queryParameters: 'drop-listed',
      droppedParameters: ['sort', 'nothere'],
    });
    expect(listed.normalize(url)).toBe('https://example.com/p?z=1&a=2');
    expect(listed.normalize('mailto:a@b.c')).toBeNull();
    expect(listed.normalize('not a url')).toBeNull();
  });

  it('matches patterns against the normalized query', () => {
    const scope = compileCrawlScope('https://example.com/', {
      queryParameters: 'drop-listed',
      droppedParameters: ['sort'],
      exclude: ['/[?&]sort=/'],
    });
    const url = new URL('https://example.com/p?sort=1&page=2');
    scope.normalizeParsed(url);
    expect(url.href).toBe('https://example.com/p?page=2');
    expect(scope.matches(url)).toBe(true);
  });
});

describe('crawl scope: hosts, subdomains, include and exclude', () => {
  it('keeps the site www-insensitive and subdomains out unless asked', () => {
    const scope = compileCrawlScope('https://www.example.com/');
    expect(scope.inSite(new URL('https://example.com/a'))).toBe(true);
    expect(scope.inSite(new URL('http://www.example.com/a'))).toBe(true);
    expect(scope.inSite(new URL('https://blog.example.com/a'))).toBe(false);
    expect(scope.inSite(new URL('https://example.org/a'))).toBe(false);
    expect(scope.inSite(new URL('ftp://example.com/a'))).toBe(false);
  });

  it('takes subdomains in when asked, on the same port only, and never a look-alike host', () => {
    const scope = compileCrawlScope('http://a.test:8080/', { includeSubdomains: true });
    expect(scope.includeSubdomains).toBe(true);
    expect(scope.inSite(new URL('http://blog.a.test:8080/x'))).toBe(true);
    expect(scope.inSite(new URL('http://x.y.a.test:8080/x'))).toBe(true);
    expect(scope.inSite(new URL('http://blog.a.test:9090/x'))).toBe(false);
    expect(scope.inSite(new URL('http://evila.test:8080/x'))).toBe(false);
    expect(scope.inSite(new URL('http://a.test.evil.test:8080/x'))).toBe(false);
    // An address has no subdomains.
    expect(compileCrawlScope('http://127.0.0.1:8080/', { includeSubdomains: true }).includeSubdomains).toBe(false);
  });

  it('lets a URL through when it matches an include (if any) and no exclude', () => {
    const scope = compileCrawlScope('https://example.com/blog/', {
      include: ['/blog/**', '/news/*'],
      exclude: ['**?sort=*', '/blog/drafts/**'],
    });
    const ok = (path: string) => scope.inScope(new URL(`https://example.com${path}`));
    expect(ok('/blog/')).toBe(true);
    expect(ok('/blog/post')).toBe(true);
    expect(ok('/news/today')).toBe(true);
    expect(ok('/about')).toBe(false);
    expect(ok('/blog/post?sort=asc')).toBe(false);
    expect(ok('/blog/drafts/x')).toBe(false);
    expect(scope.notExcluded(new URL('https://example.com/about'))).toBe(true);
    expect(scope.notExcluded(new URL('https://example.com/blog/drafts/a.png'))).toBe(false);
  });

  it('lists URLs normalized and deduplicated in list mode; throws on a bad pattern', () => {
    const scope = compileCrawlScope('https://example.com/', {
      list: {
        source: 'urls',
        urls: ['https://example.com/a#x', 'https://example.com/a', 'javascript:1', 'https://example.com/b?utm=1'],
      },
      queryParameters: 'drop-all',
    });
    expect(scope.list).toEqual({ source: 'urls', urls: ['https://example.com/a', 'https://example.com/b'] });
    expect(() => compileCrawlScope('https://example.com/', { exclude: ['/a(/'] })).toThrow(/not a valid/);
  });
});

describe('crawl scope: spellings of one path (percent-encoding, case, dot segments)', () => {
  const url = (path: string) => new URL(`https://example.com${path}`);
  const scope = compileCrawlScope('https://example.com/', { exclude: ['/private/**', '/\\/secret\\//'] });
  const excluded = (path: string) => !scope.notExcluded(url(path));

  it('excludes every spelling a server reads as an excluded path', () => {
    for (const path of [
      '/private/x',
      '/%70rivate/x', // an unreserved letter percent-encoded
      '/%70%72%69%76%61%74%65/x',
      '/PRIVATE/x', // case: an exclude errs on the safe side
      '/Private/X',
      '/%50RIVATE/x',
      '/private%2Fx', // an encoded slash, as servers that decode it read it
      '/private%2fx',
      '/public/../private/x', // dot segments (resolved by the URL parser)
      '/public/%2e%2e/private/x',
      '/public/..%2Fprivate/x', // … and again after decoding
      '/public%2F..%2Fprivate/x',
      '/public/..%5Cprivate/x', // a backslash, read as a slash
      '/private;jsessionid=1/x', // a path parameter, as Java servers read it
      '/x/%53ECRET/y', // the regular expression too
    ])
      expect(excluded(path), path).toBe(true);
  });

  it('decodes once only: a double-encoded path is another path, as a server that decodes once reads it', () => {
    expect(scopeTargets(url('/%2570rivate/x'))).toEqual(['/%2570rivate/x', '/%70rivate/x']);
    expect(excluded('/%2570rivate/x')).toBe(false);
    expect(excluded('/privatex')).toBe(false);
    expect(excluded('/public/x')).toBe(false);
    expect(excluded('/privat%65')).toBe(false); // `/private` itself is not under `/private/**`
  });

  it('matches includes in any encoding but in their own case; a pattern written encoded still matches', () => {
    const blog = compileScopePatterns(['/blog/**'], []);
    expect(blog.included(url('/%62log/post'))).toBe(true);
    expect(blog.included(url('/blog/post'))).toBe(true);
    expect(blog.included(url('/Blog/post'))).toBe(false);
    expect(compileScopePatterns(['/\\/blog\\//i'], []).included(url('/BLOG/post'))).toBe(true);
    const encoded = compileScopePatterns([], ['/caf%C3%A9/**']);
    expect(encoded.excluded(url('/caf%C3%A9/menu'))).toBe(true);
    expect(encoded.excluded(url('/café/menu'))).toBe(true); // the URL parser encodes it
    const decoded = compileScopePatterns([], ['/café/**']);
    expect(decoded.excluded(url('/caf%C3%A9/menu'))).toBe(true);
    expect(decoded.excluded(url('/CAF%C3%89/menu'))).toBe(true); // É: non-ASCII letters fold too
  });

  it('keeps a path with nothing to decode as one spelling, and survives malformed escapes', () => {
    expect(scopeTargets(url('/a/b?c=d'))).toEqual(['/a/b?c=d']);
    expect(scopeTargets(url('/a%zz/%C3/%70'))).toEqual(['/a%zz/%C3/%70', '/a%zz/%C3/p']);
    expect(excluded('/%FF%70rivate/x')).toBe(false);
    expect(excluded('/private/%FF')).toBe(true);
  });

  it('excludes everything for an unusable exclude only when asked (a sealed binding read back)', () => {
    expect(() => compileScopePatterns([], ['/a(/'])).toThrow(/not a valid/);
    const all = compileScopePatterns([], ['/a(/'], { unusableExclude: 'excludes-everything' });
    expect(all.excluded(url('/anything'))).toBe(true);
  });
});
