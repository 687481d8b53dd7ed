import { describe, expect, it } from 'vitest';
import {
  AI_SEARCH_BOTS,
  analyzeRobotsTxt,
  blockedAiSearchBots,
  blocksAll,
  crawlerProductToken,
  isAllowed,
  parseRobotsTxt,
  robotsPolicyForStatus,
} from '../../../src/seo/robots/index.js';

const lines = (...rows: string[]): string => rows.join('\n');

/** Allowed verdict for one rule set, one crawler and one URL. */
const allowed = (content: string, userAgent: string, url: string): boolean =>
  isAllowed(parseRobotsTxt(content), url, userAgent).allowed;

// RFC 9309 §5.1, verbatim (the trailing EOF marker included).
const RFC_SIMPLE_EXAMPLE = lines(
  'User-Agent: *',
  'Disallow: *.gif$',
  'Disallow: /example/',
  'Allow: /publications/',
  '',
  'User-Agent: foobot',
  'Disallow:/',
  'Allow:/example/page.html',
  'Allow:/example/allowed.gif',
  '',
  'User-Agent: barbot',
  'User-Agent: bazbot',
  'Disallow: /example/page.html',
  '',
  'User-Agent: quxbot',
  '',
  'EOF',
);

describe('parseRobotsTxt: structure', () => {
  it('reads the RFC 9309 §5.1 example into its four groups', () => {
    const robots = parseRobotsTxt(RFC_SIMPLE_EXAMPLE);
    expect(robots.groups).toEqual([
      {
        userAgents: ['*'],
        rules: [
          { type: 'disallow', path: '*.gif$', line: 2 },
          { type: 'disallow', path: '/example/', line: 3 },
          { type: 'allow', path: '/publications/', line: 4 },
        ],
      },
      {
        userAgents: ['foobot'],
        rules: [
          { type: 'disallow', path: '/', line: 7 },
          { type: 'allow', path: '/example/page.html', line: 8 },
          { type: 'allow', path: '/example/allowed.gif', line: 9 },
        ],
      },
      { userAgents: ['barbot', 'bazbot'], rules: [{ type: 'disallow', path: '/example/page.html', line: 13 }] },
      { userAgents: ['quxbot'], rules: [] },
    ]);
    expect(robots.errors).toEqual([{ line: 17, message: expect.stringContaining("invalid line 'EOF'") }]);
    expect(robots.sizeBytes).toBe(Buffer.byteLength(RFC_SIMPLE_EXAMPLE));
    expect(robots.truncated).toBe(false);
  });

  it.each([
    { name: 'LF', eol: '\n' },
    { name: 'CRLF', eol: '\r\n' },
    { name: 'CR', eol: '\r' },
  ])('splits lines on $name and numbers them from 1', ({ eol }) => {
    const robots = parseRobotsTxt(
      ['# comment', 'User-agent: a', 'Disallow: /x', '', 'Sitemap: https://e.com/s.xml', 'Bogus: 1'].join(eol),
    );
    expect(robots.groups).toEqual([{ userAgents: ['a'], rules: [{ type: 'disallow', path: '/x', line: 3 }] }]);
    expect(robots.sitemaps).toEqual(['https://e.com/s.xml']);
    expect(robots.errors).toEqual([{ line: 6, message: "unknown directive 'Bogus'" }]);
  });

  it('reads mixed line endings in one file', () => {
    const robots = parseRobotsTxt('User-agent: a\r\nDisallow: /1\rDisallow: /2\nDisallow: /3');
    expect(robots.groups[0].rules.map((r) => [r.path, r.line])).toEqual([
      ['/1', 2],
      ['/2', 3],
      ['/3', 4],
    ]);
  });

  it('treats keys case-insensitively and trims whitespace around keys and values', () => {
    const robots = parseRobotsTxt('  USER-AGENT \t:  Foo  \n\tdIsAlLoW:/a  \n ALLOW :\t/a/b\t');
    expect(robots.groups).toEqual([
      {
        userAgents: ['Foo'],
        rules: [
          { type: 'disallow', path: '/a', line: 2 },
          { type: 'allow', path: '/a/b', line: 3 },
        ],
      },
    ]);
    expect(robots.errors).toEqual([]);
  });

  it('strips comments, whole-line and trailing', () => {
    const robots = parseRobotsTxt(
      '# header\nUser-agent: * # everyone\nDisallow: /a#b\n   # indented comment\nDisallow: /c # why',
    );
    expect(robots.groups[0]).toEqual({
      userAgents: ['*'],
      rules: [
        { type: 'disallow', path: '/a', line: 3 },
        { type: 'disallow', path: '/c', line: 5 },
      ],
    });
    expect(robots.errors).toEqual([]);
  });

  it('keeps consecutive user-agent lines in one group across blank lines, comments and non-rule records', () => {
    const robots = parseRobotsTxt(
      lines('User-agent: a', '', '# note', 'Crawl-delay: 5', 'User-agent: b', 'Disallow: /x'),
    );
    expect(robots.groups).toEqual([{ userAgents: ['a', 'b'], rules: [{ type: 'disallow', path: '/x', line: 6 }] }]);
  });

  it('starts a new group at a user-agent line that follows a rule', () => {
    const robots = parseRobotsTxt(lines('User-agent: a', 'Disallow: /x', 'User-agent: b', 'Disallow: /y'));
    expect(robots.groups.map((g) => g.userAgents)).toEqual([['a'], ['b']]);
  });

  it('reads sitemaps anywhere as global records that do not end a group, without duplicates', () => {
    const robots = parseRobotsTxt(
      lines(
        'Sitemap: https://e.com/a.xml',
        'User-agent: a',
        'Disallow: /x',
        'sitemap: https://e.com/b.xml',
        'Disallow: /y',
        'SITEMAP: https://e.com/a.xml',
      ),
    );
    expect(robots.sitemaps).toEqual(['https://e.com/a.xml', 'https://e.com/b.xml']);
    expect(robots.groups[0].rules.map((r) => r.path)).toEqual(['/x', '/y']);
    expect(robots.errors).toEqual([]);
  });

  it('keeps an empty Disallow as a valid rule (it allows everything)', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow:');
    expect(robots.groups[0].rules).toEqual([{ type: 'disallow', path: '', line: 2 }]);
    expect(robots.errors).toEqual([]);
    expect(robots.warnings).toEqual([]);
  });

  it('returns no groups, no issues and size 0 for an empty file', () => {
    expect(parseRobotsTxt('')).toEqual({
      groups: [],
      sitemaps: [],
      errors: [],
      warnings: [],
      sizeBytes: 0,
      truncated: false,
    });
  });
});

describe('parseRobotsTxt: errors', () => {
  it.each([
    {
      name: 'unknown directive',
      content: 'User-agent: *\nFoo: bar',
      line: 2,
      message: "unknown directive 'Foo'",
    },
    {
      name: 'unknown directive close to a known one',
      content: 'User-agent: *\nDisalow-all: /x',
      line: 2,
      message: "unknown directive 'Disalow-all'",
    },
    {
      name: 'typo suggestion',
      content: 'User-agent: *\nAllows: /x',
      line: 2,
      message: "unknown directive 'Allows' (did you mean 'allow'?)",
    },
    {
      name: 'typo suggestion for user-agent',
      content: 'User_agent: *\nDisallow: /x',
      line: 1,
      message: "unknown directive 'User_agent' (did you mean 'user-agent'?)",
    },
    {
      name: 'rule before any user-agent',
      content: '# top\nDisallow: /x\nUser-agent: *',
      line: 2,
      message: "'disallow' rule before any 'user-agent' line: it applies to no crawler",
    },
    {
      name: 'path without a leading slash',
      content: 'User-agent: *\nDisallow: private/',
      line: 2,
      message: "rule path 'private/' must start with '/' or '*': crawlers never match it",
    },
    {
      name: 'full URL as a path',
      content: 'User-agent: *\nAllow: https://example.com/private/',
      line: 2,
      message: "rule path must start with '/' or '*': write the path only ('/private/'), not a full URL",
    },
    {
      name: 'empty user-agent',
      content: 'User-agent:\nDisallow: /',
      line: 1,
      message: "empty 'user-agent' value: name a crawler's product token or '*'",
    },
    {
      name: 'user-agent that names no product token',
      content: 'User-agent: /bot\nDisallow: /',
      line: 1,
      message: "invalid user-agent '/bot': expected a product token (letters, '-', '_') or '*'",
    },
    {
      name: 'line that is not a record',
      content: 'User-agent: *\nDisallow /a /b',
      line: 2,
      message: "invalid line 'Disallow /a /b': expected 'directive: value'",
    },
    {
      name: 'directive without colon or value',
      content: 'User-agent: *\nDisallow',
      line: 2,
      message: "missing ':' after 'Disallow'",
    },
    {
      name: 'two words that are no directive',
      content: 'Hello world',
      line: 1,
      message: "invalid line 'Hello world': expected 'directive: value'",
    },
    {
      name: 'non-standard directive without colon',
      content: 'User-agent: *\nCrawl-delay 10',
      line: 2,
      message: "missing ':' after 'Crawl-delay'",
    },
    {
      name: 'HTML instead of robots.txt',
      content: '<!DOCTYPE html>\n<html>\n<body>Not found</body>',
      line: 1,
      message: 'line looks like HTML: the server seems to return a web page instead of a robots.txt file',
    },
  ])('$name', ({ content, line, message }) => {
    const robots = parseRobotsTxt(content);
    expect(robots.errors[0]).toEqual({ line, message });
  });

  it('ignores the rule of an invalid line', () => {
    const robots = parseRobotsTxt('Disallow: /\nUser-agent: *\nDisallow: nope\nDisallow: /ok');
    expect(robots.groups).toEqual([{ userAgents: ['*'], rules: [{ type: 'disallow', path: '/ok', line: 4 }] }]);
    expect(robots.errors.map((e) => e.line)).toEqual([1, 3]);
  });

  it('reports HTML once, then each further non-record line plainly', () => {
    const robots = parseRobotsTxt('<html>\n<head>\nUser-agent: *');
    expect(robots.errors.map((e) => e.line)).toEqual([1, 2]);
    expect(robots.errors[1].message).toContain("invalid line '<head>'");
  });

  it.each([
    { key: 'Dissallow', expected: 'disallow' },
    { key: 'dissalow', expected: 'disallow' },
    { key: 'disalow', expected: 'disallow' },
    { key: 'diasllow', expected: 'disallow' },
    { key: 'disallaw', expected: 'disallow' },
  ])("applies Google's accepted misspelling '$key' and reports it", ({ key, expected }) => {
    const robots = parseRobotsTxt(`User-agent: *\n${key}: /private`);
    expect(robots.groups[0].rules).toEqual([{ type: expected, path: '/private', line: 2 }]);
    expect(robots.errors).toEqual([
      {
        line: 2,
        message: `'${key}' is a misspelling of '${expected}': Google accepts it, other crawlers ignore the line`,
      },
    ]);
    expect(isAllowed(robots, '/private/x', 'AnyBot').allowed).toBe(false);
  });

  it.each(['useragent', 'User agent'])("applies the misspelt user-agent key '%s'", (key) => {
    const robots = parseRobotsTxt(`${key}: FooBot\nDisallow: /`);
    expect(robots.groups).toEqual([{ userAgents: ['FooBot'], rules: [{ type: 'disallow', path: '/', line: 2 }] }]);
    expect(robots.errors[0].message).toContain("is a misspelling of 'user-agent'");
  });

  it('applies the misspelt site-map key', () => {
    const robots = parseRobotsTxt('Site-map: https://e.com/s.xml');
    expect(robots.sitemaps).toEqual(['https://e.com/s.xml']);
    expect(robots.errors[0]).toEqual({
      line: 1,
      message: "'Site-map' is a misspelling of 'sitemap': Google accepts it, other crawlers ignore the line",
    });
  });

  it('reads a record with a forgotten colon like Google, and reports it', () => {
    const robots = parseRobotsTxt('User-agent *\nDisallow /admin');
    expect(robots.groups).toEqual([{ userAgents: ['*'], rules: [{ type: 'disallow', path: '/admin', line: 2 }] }]);
    expect(robots.errors).toEqual([
      { line: 1, message: "missing ':' after 'User-agent': Google accepts it, other crawlers ignore the line" },
      { line: 2, message: "missing ':' after 'Disallow': Google accepts it, other crawlers ignore the line" },
    ]);
  });

  it('keeps at most 1000 errors and says how many more there were', () => {
    const content = Array.from({ length: 1500 }, (_, i) => `bogus${i}: x`).join('\n');
    const robots = parseRobotsTxt(content);
    expect(robots.errors).toHaveLength(1001);
    expect(robots.errors[999]).toEqual({ line: 1000, message: "unknown directive 'bogus999'" });
    expect(robots.errors[1000]).toEqual({ line: 1001, message: '500 more errors not listed' });
  });
});

describe('parseRobotsTxt: warnings', () => {
  it.each([
    {
      directive: 'Crawl-delay: 10',
      message: "'crawl-delay' is not part of RFC 9309: Google ignores it (Bing and Yandex honour it)",
    },
    {
      directive: 'Host: example.com',
      message: "'host' is a Yandex-only directive that Yandex has retired; Google ignores it",
    },
    { directive: 'Clean-param: ref /articles/', message: "'clean-param' is Yandex-only; Google ignores it" },
    {
      directive: 'Noindex: /private/',
      message:
        "Google stopped supporting 'noindex' in robots.txt in 2019: use a meta robots tag or an X-Robots-Tag header",
    },
  ])('warns, without an error, about $directive', ({ directive, message }) => {
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: /x\n${directive}`);
    expect(robots.warnings).toEqual([{ line: 3, message }]);
    expect(robots.errors).toEqual([]);
    expect(robots.groups[0].rules).toHaveLength(1);
  });

  it.each([
    {
      name: 'user-agent with a version',
      content: 'User-agent: Googlebot/2.1\nDisallow: /',
      line: 1,
      message: "user-agent 'Googlebot/2.1' is matched by its product token 'googlebot' only; the rest is ignored",
    },
    {
      name: 'group without rules',
      content: 'User-agent: *\nDisallow: /x\n\nUser-agent: a\nUser-agent: b\n',
      line: 4,
      message:
        "group for 'a', 'b' has no rules: these crawlers may fetch everything and do not fall back to the '*' group",
    },
    {
      name: 'relative sitemap',
      content: 'Sitemap: /sitemap.xml',
      line: 1,
      message: "sitemap '/sitemap.xml' is ignored: it must be an absolute http(s) URL",
    },
    { name: 'empty sitemap', content: 'Sitemap:', line: 1, message: "empty 'sitemap' value" },
    {
      name: 'empty allow',
      content: 'User-agent: *\nAllow:',
      line: 2,
      message: "'allow' with an empty path has no effect",
    },
    {
      name: 'whitespace inside a path',
      content: 'User-agent: *\nDisallow: /a b',
      line: 2,
      message: "rule path '/a b' contains whitespace: it only matches URLs with an encoded space (%20)",
    },
  ])('$name', ({ content, line, message }) => {
    const robots = parseRobotsTxt(content);
    expect(robots.warnings).toEqual([{ line, message }]);
    expect(robots.errors).toEqual([]);
  });

  it('drops a relative sitemap from the sitemap list', () => {
    expect(parseRobotsTxt('Sitemap: sitemap.xml\nSitemap: ftp://e.com/s.xml').sitemaps).toEqual([]);
  });
});

describe('isAllowed: RFC 9309 examples', () => {
  const robots = parseRobotsTxt(RFC_SIMPLE_EXAMPLE);

  it.each([
    // `*` group: everybody without a group of its own
    { agent: 'otherbot', url: '/pic.gif', allowed: false },
    { agent: 'otherbot', url: '/deep/dir/pic.gif', allowed: false },
    { agent: 'otherbot', url: '/pic.gif?size=2', allowed: true },
    { agent: 'otherbot', url: '/example/page.html', allowed: false },
    { agent: 'otherbot', url: '/publications/report.gif', allowed: true },
    { agent: 'otherbot', url: '/other/page.html', allowed: true },
    // foobot: everything disallowed except two files; the `*` rules do not apply
    { agent: 'foobot', url: '/', allowed: false },
    { agent: 'foobot', url: '/example/page.html', allowed: true },
    { agent: 'foobot', url: '/example/allowed.gif', allowed: true },
    { agent: 'foobot', url: '/example/other.html', allowed: false },
    { agent: 'foobot', url: '/publications/x', allowed: false },
    // barbot and bazbot share a group
    { agent: 'barbot', url: '/example/page.html', allowed: false },
    { agent: 'bazbot', url: '/example/page.html', allowed: false },
    { agent: 'bazbot', url: '/pic.gif', allowed: true },
    // quxbot has an empty group: allowed everywhere, no fallback to `*`
    { agent: 'quxbot', url: '/example/page.html', allowed: true },
    { agent: 'quxbot', url: '/pic.gif', allowed: true },
  ])('§5.1: $agent $url -> $allowed', ({ agent, url, allowed: expected }) => {
    expect(isAllowed(robots, url, agent).allowed).toBe(expected);
  });

  it('§5.2 and §2.2.2: the longest match wins', () => {
    const longest = parseRobotsTxt('User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif');
    expect(isAllowed(longest, '/example/page/', 'foobot')).toEqual({
      allowed: true,
      matchedRule: { type: 'allow', path: '/example/page/', line: 2 },
    });
    expect(isAllowed(longest, '/example/page/disallowed.gif', 'foobot')).toEqual({
      allowed: false,
      matchedRule: { type: 'disallow', path: '/example/page/disallowed.gif', line: 3 },
    });
  });

  it('§2.2.1: groups naming the same product token are merged', () => {
    const merged = parseRobotsTxt(
      lines(
        'User-agent: ExampleBot',
        'Disallow: /foo',
        'Disallow: /bar',
        '',
        'User-agent: *',
        'Disallow: /all',
        '',
        'User-agent: examplebot',
        'Disallow: /baz',
      ),
    );
    expect(isAllowed(merged, '/foo', 'ExampleBot').allowed).toBe(false);
    expect(isAllowed(merged, '/bar', 'ExampleBot').allowed).toBe(false);
    expect(isAllowed(merged, '/baz/1', 'ExampleBot').allowed).toBe(false);
    expect(isAllowed(merged, '/all', 'ExampleBot').allowed).toBe(true);
    expect(isAllowed(merged, '/all', 'OtherBot').allowed).toBe(false);
    expect(isAllowed(merged, '/baz', 'OtherBot').allowed).toBe(true);
  });

  it('merges several `*` groups', () => {
    const robots2 = parseRobotsTxt(
      'User-agent: *\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\n\nUser-agent: *\nDisallow: /c',
    );
    expect(allowedPaths(robots2, 'x', ['/a', '/b', '/c'])).toEqual([false, true, false]);
  });

  it('applies a mid-priority allow over a shorter disallow across merged groups', () => {
    const robots2 = parseRobotsTxt('User-agent: a\nDisallow: /\n\nUser-agent: a\nAllow: /public');
    expect(allowedPaths(robots2, 'a', ['/public/x', '/private'])).toEqual([true, false]);
  });
});

function allowedPaths(robots: ReturnType<typeof parseRobotsTxt>, agent: string, urls: string[]): boolean[] {
  return urls.map((url) => isAllowed(robots, url, agent).allowed);
}

describe("isAllowed: Google's documented path matching", () => {
  it.each([
    { rule: '/', matches: ['/', '/page', '/a/b?c=d'], misses: [] },
    { rule: '/*', matches: ['/', '/page', '/a/b?c=d'], misses: [] },
    { rule: '/$', matches: ['/'], misses: ['/page', '/?q=1'] },
    {
      rule: '/fish',
      matches: [
        '/fish',
        '/fish.html',
        '/fish/salmon.html',
        '/fishheads',
        '/fishheads/yummy.html',
        '/fish.php?id=anything',
      ],
      misses: ['/Fish.asp', '/catfish', '/?id=fish', '/desert/fish'],
    },
    {
      rule: '/fish*',
      matches: [
        '/fish',
        '/fish.html',
        '/fish/salmon.html',
        '/fishheads',
        '/fishheads/yummy.html',
        '/fish.php?id=anything',
      ],
      misses: ['/Fish.asp', '/catfish', '/?id=fish', '/desert/fish'],
    },
    {
      rule: '/fish/',
      matches: ['/fish/', '/fish/?id=anything', '/fish/salmon.htm'],
      misses: ['/fish', '/fish.html', '/animals/fish/', '/Fish/Salmon.asp'],
    },
    {
      rule: '/*.php',
      matches: [
        '/index.php',
        '/filename.php',
        '/folder/filename.php',
        '/folder/filename.php?parameters',
        '/folder/any.php.file.html',
        '/filename.php/',
      ],
      misses: ['/', '/windows.PHP'],
    },
    {
      rule: '/*.php$',
      matches: ['/filename.php', '/folder/filename.php'],
      misses: ['/filename.php?parameters', '/filename.php/', '/filename.php5', '/windows.PHP'],
    },
    {
      rule: '/fish*.php',
      matches: ['/fish.php', '/fishheads/catfish.php?parameters'],
      misses: ['/Fish.PHP'],
    },
    { rule: '*.gif$', matches: ['/a.gif', '/x/y.gif'], misses: ['/a.gif?x', '/a.gifs'] },
    { rule: '/a**b', matches: ['/ab', '/axxb', '/a/b/c'], misses: ['/a', '/ba'] },
    { rule: '/a*b*$', matches: ['/ab', '/a-b-c'], misses: ['/a'] },
    { rule: '/x$y', matches: ['/x$y', '/x%24y/z'], misses: ['/x', '/xy'] },
  ])('Disallow: $rule', ({ rule, matches, misses }) => {
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: ${rule}`);
    for (const url of matches)
      expect({ url, allowed: isAllowed(robots, url, 'bot').allowed }).toEqual({ url, allowed: false });
    for (const url of misses)
      expect({ url, allowed: isAllowed(robots, url, 'bot').allowed }).toEqual({ url, allowed: true });
  });

  it.each([
    { allow: '/p', disallow: '/', url: '/page', allowed: true },
    { allow: '/folder', disallow: '/folder', url: '/folder/page', allowed: true },
    { allow: '/page', disallow: '/*.htm', url: '/page.htm', allowed: false },
    { allow: '/page', disallow: '/*.ph', url: '/page.php5', allowed: true },
    { allow: '/$', disallow: '/', url: '/', allowed: true },
    { allow: '/$', disallow: '/', url: '/page.htm', allowed: false },
  ])(
    'conflict allow $allow / disallow $disallow on $url -> $allowed',
    ({ allow, disallow, url, allowed: expected }) => {
      for (const order of [`Allow: ${allow}\nDisallow: ${disallow}`, `Disallow: ${disallow}\nAllow: ${allow}`]) {
        expect(allowed(`User-agent: *\n${order}`, 'Googlebot', url)).toBe(expected);
      }
    },
  );

  it('returns the deciding rule with its line', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /\nAllow: /$\nDisallow: /*.htm');
    expect(isAllowed(robots, '/', 'bot').matchedRule).toEqual({ type: 'allow', path: '/$', line: 3 });
    expect(isAllowed(robots, '/a.htm', 'bot').matchedRule).toEqual({ type: 'disallow', path: '/*.htm', line: 4 });
    expect(isAllowed(robots, '/a', 'bot').matchedRule).toEqual({ type: 'disallow', path: '/', line: 2 });
  });

  it('an empty Disallow matches nothing', () => {
    expect(isAllowed(parseRobotsTxt('User-agent: *\nDisallow:'), '/anything', 'bot')).toEqual({
      allowed: true,
      matchedRule: null,
    });
  });

  it('matches path plus query of absolute URLs, never the host or the fragment', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /*?sort=\nDisallow: /*example.com');
    expect(isAllowed(robots, 'https://example.com/list?sort=asc', 'bot').allowed).toBe(false);
    expect(isAllowed(robots, 'https://example.com/list#sort=', 'bot').allowed).toBe(true);
    expect(isAllowed(robots, 'https://example.com/list', 'bot').allowed).toBe(true);
    expect(isAllowed(robots, 'HTTPS://user@example.com:8443?sort=1', 'bot').allowed).toBe(false);
    expect(isAllowed(robots, '//example.com/list?sort=1', 'bot').allowed).toBe(false);
  });

  it('treats a URL without a path as the root', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /$');
    expect(isAllowed(robots, 'https://example.com', 'bot').allowed).toBe(false);
    expect(isAllowed(robots, 'https://example.com/', 'bot').allowed).toBe(false);
  });

  it('always allows /robots.txt, but only that path', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /');
    expect(isAllowed(robots, 'https://example.com/robots.txt', 'bot')).toEqual({ allowed: true, matchedRule: null });
    expect(isAllowed(robots, '/robots.txt?x=1', 'bot').allowed).toBe(true);
    expect(isAllowed(robots, '/robots.txt.bak', 'bot').allowed).toBe(false);
    expect(isAllowed(robots, '/sub/robots.txt', 'bot').allowed).toBe(false);
  });

  it('stays fast and correct on patterns with many wildcards (no backtracking)', () => {
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: /${'*a'.repeat(40)}*b$`);
    const path = `/${'a'.repeat(20_000)}`;
    expect(isAllowed(robots, path, 'bot').allowed).toBe(true);
    expect(isAllowed(robots, `${path}b`, 'bot').allowed).toBe(false);
  });
});

describe('isAllowed: percent-encoding (RFC 9309 §2.2.2, §2.2.3)', () => {
  it.each([
    { rule: '/foo/bar?baz=quz', url: '/foo/bar?baz=quz' },
    { rule: '/foo/bar?baz=https://foo.bar', url: '/foo/bar?baz=https%3A%2F%2Ffoo.bar' },
    { rule: '/foo/bar?baz=https%3A%2F%2Ffoo.bar', url: '/foo/bar?baz=https://foo.bar' },
    { rule: '/foo/bar/\u30c4', url: '/foo/bar/%E3%83%84' },
    { rule: '/foo/bar/%E3%83%84', url: '/foo/bar/\u30c4' },
    { rule: '/foo/bar/%e3%83%84', url: '/foo/bar/%E3%83%84' },
    { rule: '/foo/bar/%62%61%7A', url: '/foo/bar/%62%61%7A' },
    { rule: '/foo/bar/%62%61%7A', url: '/foo/bar/baz' },
    { rule: '/foo/bar/baz', url: '/foo/bar/%62%61%7a' },
    { rule: '/%7Efoo', url: '/~foo' },
    { rule: '/~foo', url: '/%7efoo' },
    { rule: '/path/file-with-a-%2A.html', url: '/path/file-with-a-*.html' },
    { rule: '/path/foo-%24', url: '/path/foo-$' },
    { rule: '/a%2Fb', url: '/a%2fb' },
    { rule: '/caf\u00e9', url: 'https://example.com/caf%C3%A9' },
    { rule: '/emoji/\u{1f600}', url: '/emoji/%F0%9F%98%80' },
    { rule: '/a b', url: '/a%20b' },
    { rule: '/100%', url: '/100%25' },
  ])('Disallow: $rule blocks $url', ({ rule, url }) => {
    expect(allowed(`User-agent: *\nDisallow: ${rule}`, 'bot', url)).toBe(false);
  });

  it.each([
    // An encoded slash is data inside one segment, not a separator.
    { rule: '/a%2Fb', url: '/a/b' },
    { rule: '/a/b', url: '/a%2Fb' },
    // Encoded sub-delimiters in a query change its meaning.
    { rule: '/q?x=a%26y=b', url: '/q?x=a&y=b' },
    // `*` in a rule is a wildcard, `%2A` is a literal star.
    { rule: '/path/file-with-a-%2A.html', url: '/path/file-with-a-b.html' },
  ])('Disallow: $rule does not block $url', ({ rule, url }) => {
    expect(allowed(`User-agent: *\nDisallow: ${rule}`, 'bot', url)).toBe(true);
  });

  it('measures specificity on the normalised path', () => {
    // `/%7Ea` is `/~a` (3 octets), so the 4-octet allow wins.
    expect(allowed('User-agent: *\nDisallow: /%7Ea\nAllow: /~ab', 'bot', '/~abc')).toBe(true);
  });
});

describe('isAllowed: choosing the group', () => {
  const robots = parseRobotsTxt(
    lines(
      'User-agent: *',
      'Disallow: /star',
      '',
      'User-agent: Googlebot',
      'Disallow: /google',
      '',
      'User-agent: MJ12bot',
      'Disallow: /mj',
    ),
  );

  it.each([
    { agent: 'Googlebot', group: 'google' },
    { agent: 'googlebot', group: 'google' },
    { agent: 'GOOGLEBOT', group: 'google' },
    { agent: 'Googlebot/2.1 (+http://www.google.com/bot.html)', group: 'google' },
    { agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', group: 'google' },
    {
      agent:
        'Mozilla/5.0 (Linux; Android 6.0.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile ' +
        'Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      group: 'google',
    },
    { agent: 'MJ12bot/v1.4.8', group: 'mj' },
    { agent: 'Googlebot-Image', group: 'star' },
    { agent: 'Google', group: 'star' },
    { agent: 'SEOAuditBot/1.0', group: 'star' },
    { agent: '*', group: 'star' },
    { agent: '', group: 'star' },
  ])('$agent reads the $group rules', ({ agent, group }) => {
    const blocked = ['star', 'google', 'mj'].filter((name) => !isAllowed(robots, `/${name}`, agent).allowed);
    expect(blocked).toEqual([group]);
  });

  it('matches a group whose user-agent line carries a version by its product token', () => {
    expect(allowed('User-agent: FooBot/1.2\nDisallow: /', 'foobot', '/x')).toBe(false);
  });

  it('treats `* anything` as the global group', () => {
    expect(allowed('User-agent: * everyone\nDisallow: /', 'foobot', '/x')).toBe(false);
  });

  it('allows everything when no group applies', () => {
    const onlyOthers = parseRobotsTxt('User-agent: BadBot\nDisallow: /');
    expect(isAllowed(onlyOthers, '/x', 'GoodBot')).toEqual({ allowed: true, matchedRule: null });
    expect(isAllowed(onlyOthers, '/x', 'BadBot').allowed).toBe(false);
  });

  it('ignores rules placed before any user-agent line', () => {
    expect(allowed('Disallow: /\nUser-agent: *\nAllow: /', 'bot', '/x')).toBe(true);
  });

  it('answers repeated calls with the same verdicts (compiled once, cached)', () => {
    const first = allowedPaths(robots, 'Googlebot', ['/google', '/star', '/google']);
    expect(first).toEqual([false, true, false]);
    expect(allowedPaths(robots, 'SomeBot', ['/google', '/star'])).toEqual([true, false]);
  });
});

describe('crawlerProductToken', () => {
  it.each([
    { ua: 'Googlebot/2.1 (+http://www.google.com/bot.html)', token: 'googlebot' },
    { ua: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', token: 'bingbot' },
    {
      ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
      token: 'chatgpt-user',
    },
    { ua: '  OAI-SearchBot  ', token: 'oai-searchbot' },
    { ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0', token: 'mozilla' },
    { ua: '*', token: '*' },
    { ua: '/weird', token: '' },
  ])('$ua -> $token', ({ ua, token }) => {
    expect(crawlerProductToken(ua)).toBe(token);
  });
});

describe('blocksAll', () => {
  it.each([
    { content: 'User-agent: *\nDisallow: /', expected: true },
    { content: 'User-agent: *\nDisallow: /*', expected: true },
    { content: 'User-agent: *\nDisallow: *', expected: true },
    { content: 'user-agent: *\ndisallow: /\nallow: /public/', expected: true },
    { content: 'User-agent: *\nDisallow: /\nAllow: /$', expected: false },
    { content: 'User-agent: *\nDisallow: /\nAllow: /', expected: false },
    { content: 'User-agent: *\nDisallow: /$', expected: false },
    { content: 'User-agent: *\nDisallow: /private', expected: false },
    { content: 'User-agent: *\nDisallow:', expected: false },
    { content: 'User-agent: Googlebot\nDisallow: /', expected: false },
    { content: 'Disallow: /', expected: false },
    { content: '', expected: false },
  ])('$content -> $expected', ({ content, expected }) => {
    expect(blocksAll(parseRobotsTxt(content))).toBe(expected);
  });

  it('checks a named crawler with the `*` fallback', () => {
    const robots = parseRobotsTxt('User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp');
    expect(blocksAll(robots)).toBe(false);
    expect(blocksAll(robots, 'Googlebot')).toBe(true);
    expect(blocksAll(robots, 'Bingbot')).toBe(false);
    expect(blocksAll(parseRobotsTxt('User-agent: *\nDisallow: /'), 'Bingbot/2.0')).toBe(true);
  });
});

describe('blockedAiSearchBots', () => {
  it.each([
    { content: '', expected: [] },
    { content: 'User-agent: GPTBot\nDisallow: /', expected: [] },
    {
      content: 'User-agent: OAI-SearchBot\nUser-agent: PerplexityBot\nDisallow: /',
      expected: ['OAI-SearchBot', 'PerplexityBot'],
    },
    {
      content: 'User-agent: chatgpt-user\nDisallow: /\n\nUser-agent: claude-user\nDisallow: /private',
      expected: ['ChatGPT-User'],
    },
    { content: 'User-agent: *\nDisallow: /', expected: [...AI_SEARCH_BOTS] },
    {
      content: 'User-agent: *\nDisallow: /\n\nUser-agent: Claude-User\nAllow: /',
      expected: ['OAI-SearchBot', 'ChatGPT-User', 'PerplexityBot'],
    },
  ])('$content -> $expected', ({ content, expected }) => {
    expect(blockedAiSearchBots(parseRobotsTxt(content))).toEqual(expected);
  });
});

describe('robotsPolicyForStatus (RFC 9309 §2.3.1)', () => {
  it.each([
    { status: 200, policy: 'parse' },
    { status: 204, policy: 'parse' },
    { status: 310, policy: 'allow-all' },
    { status: 400, policy: 'allow-all' },
    { status: 401, policy: 'allow-all' },
    { status: 403, policy: 'allow-all' },
    { status: 404, policy: 'allow-all' },
    { status: 410, policy: 'allow-all' },
    { status: 429, policy: 'disallow-all' },
    { status: 500, policy: 'disallow-all' },
    { status: 503, policy: 'disallow-all' },
    { status: 'unreachable' as const, policy: 'disallow-all' },
  ])('$status -> $policy', ({ status, policy }) => {
    expect(robotsPolicyForStatus(status)).toBe(policy);
  });
});

describe('analyzeRobotsTxt', () => {
  const content = lines(
    'User-agent: *',
    'Disallow: /admin/',
    'Crawl-delay: 5',
    '',
    'User-agent: Googlebot',
    'Disallow: /nogoogle',
    '',
    'Sitemap: https://example.com/sitemap.xml',
  );

  it('returns the tool response shape with test verdicts for the default crawler', () => {
    const analysis = analyzeRobotsTxt(content, {
      testUrls: ['https://example.com/admin/users', '/nogoogle', '/robots.txt'],
    });
    expect(analysis).toEqual({
      valid: true,
      source: 'content',
      sizeBytes: Buffer.byteLength(content),
      groups: [
        { userAgents: ['*'], rules: [{ type: 'disallow', path: '/admin/', line: 2 }] },
        { userAgents: ['Googlebot'], rules: [{ type: 'disallow', path: '/nogoogle', line: 6 }] },
      ],
      sitemaps: ['https://example.com/sitemap.xml'],
      errors: [],
      warnings: [{ line: 3, message: expect.stringContaining("'crawl-delay'") }],
      tests: [
        {
          url: 'https://example.com/admin/users',
          userAgent: 'SEOAuditBot',
          allowed: false,
          matchedRule: { type: 'disallow', path: '/admin/', line: 2 },
        },
        { url: '/nogoogle', userAgent: 'SEOAuditBot', allowed: true, matchedRule: null },
        { url: '/robots.txt', userAgent: 'SEOAuditBot', allowed: true, matchedRule: null },
      ],
    });
    expect(JSON.parse(JSON.stringify(analysis))).toEqual(analysis);
  });

  it('tests URLs for the given user agent and reports the given source', () => {
    const analysis = analyzeRobotsTxt(content, {
      testUrls: ['/nogoogle', '/admin/'],
      userAgent: 'Googlebot/2.1',
      source: 'https://example.com/robots.txt',
    });
    expect(analysis.source).toBe('https://example.com/robots.txt');
    expect(analysis.tests.map((t) => [t.userAgent, t.allowed])).toEqual([
      ['Googlebot/2.1', false],
      ['Googlebot/2.1', true],
    ]);
  });

  it('is invalid when the file has errors', () => {
    const analysis = analyzeRobotsTxt('User-agent: *\nDisalow /x\nFoo: bar');
    expect(analysis.valid).toBe(false);
    expect(analysis.errors.map((e) => e.line)).toEqual([2, 2, 3]);
    expect(analysis.tests).toEqual([]);
  });
});
