import { describe, expect, it } from 'vitest';
import {
  ROBOTS_MAX_BYTES,
  canonicalRulePattern,
  canonicalUrlPath,
  isAllowed,
  parseRobotsTxt,
  robotsPathOf,
} from '../../../src/seo/robots/index.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const concat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

/** A robots.txt of exactly `size` bytes: rules padded by a long comment line, then `tail`. */
function fileOfSize(size: number, tail: string): string {
  const head = 'User-agent: *\nDisallow: /early\n#';
  const padding = size - Buffer.byteLength(head) - Buffer.byteLength(tail) - 1;
  return `${head}${'x'.repeat(padding)}\n${tail}`;
}

describe('parseRobotsTxt: byte order mark and encodings', () => {
  it.each([
    { name: 'string with BOM', input: '\ufeffUser-agent: *\nDisallow: /x' as string | Uint8Array },
    { name: 'bytes with BOM', input: concat(new Uint8Array([0xef, 0xbb, 0xbf]), utf8('User-agent: *\nDisallow: /x')) },
    {
      name: 'bytes with BOM and CRLF',
      input: concat(new Uint8Array([0xef, 0xbb, 0xbf]), utf8('User-agent: *\r\nDisallow: /x\r\n')),
    },
  ])('ignores a UTF-8 BOM: $name', ({ input }) => {
    const robots = parseRobotsTxt(input);
    expect(robots.groups).toEqual([{ userAgents: ['*'], rules: [{ type: 'disallow', path: '/x', line: 2 }] }]);
    expect(robots.errors).toEqual([]);
  });

  it('counts the size in bytes, BOM included', () => {
    const bytes = concat(new Uint8Array([0xef, 0xbb, 0xbf]), utf8('User-agent: *\nDisallow: /caf\u00e9'));
    expect(parseRobotsTxt(bytes).sizeBytes).toBe(bytes.length);
    expect(parseRobotsTxt('Disallow: /\u00e9').sizeBytes).toBe(13);
  });

  it('reads UTF-8 rules from bytes and matches their encoded URLs', () => {
    const robots = parseRobotsTxt(utf8('User-agent: *\nDisallow: /caf\u00e9/'));
    expect(robots.groups[0].rules[0].path).toBe('/caf\u00e9/');
    expect(isAllowed(robots, 'https://example.com/caf%C3%A9/menu', 'bot').allowed).toBe(false);
  });

  it('flags NUL bytes as binary content, on the line where they appear', () => {
    const robots = parseRobotsTxt(utf8('User-agent: *\nDisallow: /x\n\0\0\0'));
    expect(robots.errors).toContainEqual({
      line: 3,
      message: 'file contains NUL bytes: it is binary, not a UTF-8 text file',
    });
  });

  it('flags NUL bytes in string input too', () => {
    expect(parseRobotsTxt('User-agent: *\0\nDisallow: /').errors[0]).toEqual({
      line: 1,
      message: 'file contains NUL bytes: it is binary, not a UTF-8 text file',
    });
  });

  it('flags bytes that are not UTF-8 (Latin-1 here), on their line', () => {
    const latin1 = new Uint8Array([...utf8('User-agent: *\nDisallow: /caf'), 0xe9, ...utf8('/\n')]);
    const robots = parseRobotsTxt(latin1);
    expect(robots.errors).toEqual([
      {
        line: 2,
        message: 'file is not valid UTF-8: robots.txt must be UTF-8 text, invalid bytes cannot match any URL',
      },
    ]);
    expect(robots.groups[0].rules).toHaveLength(1);
  });

  it('flags UTF-16 content once', () => {
    const utf16 = new Uint8Array(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('User-agent: *\nDisallow: /', 'utf16le')]),
    );
    const robots = parseRobotsTxt(utf16);
    expect(robots.errors[0]).toEqual({
      line: 1,
      message: 'file is UTF-16 encoded: robots.txt must be UTF-8, crawlers cannot read these rules',
    });
    expect(robots.errors.filter((e) => e.message.includes('NUL'))).toEqual([]);
  });
});

describe('parseRobotsTxt: the 500 KiB limit', () => {
  it('is 512,000 bytes', () => {
    expect(ROBOTS_MAX_BYTES).toBe(512_000);
  });

  it('parses a file of exactly the limit whole', () => {
    const content = fileOfSize(ROBOTS_MAX_BYTES, 'Disallow: /late');
    expect(Buffer.byteLength(content)).toBe(ROBOTS_MAX_BYTES);
    const robots = parseRobotsTxt(content);
    expect(robots.truncated).toBe(false);
    expect(robots.errors).toEqual([]);
    expect(robots.groups[0].rules.map((r) => r.path)).toEqual(['/early', '/late']);
  });

  it.each([
    { name: 'string', asBytes: false },
    { name: 'bytes', asBytes: true },
  ])('ignores everything past the limit and reports it ($name input)', ({ asBytes }) => {
    const content = `${fileOfSize(ROBOTS_MAX_BYTES, 'Disallow: /last-inside')}\nDisallow: /beyond\nFoo: bar`;
    const robots = parseRobotsTxt(asBytes ? utf8(content) : content);
    expect(robots.truncated).toBe(true);
    expect(robots.sizeBytes).toBe(Buffer.byteLength(content));
    expect(robots.groups[0].rules.map((r) => r.path)).toEqual(['/early', '/last-inside']);
    expect(robots.errors).toEqual([
      {
        line: 5,
        message:
          `file is ${Buffer.byteLength(content)} bytes, over the 512000-byte (500 KiB) limit: crawlers ` +
          `ignore everything from this line on`,
      },
    ]);
    expect(isAllowed(robots, '/beyond', 'bot').allowed).toBe(true);
    expect(isAllowed(robots, '/early', 'bot').allowed).toBe(false);
  });

  it('drops a rule cut in half by the limit instead of reading its first part', () => {
    // The limit falls inside "/abcdef": reading "/abc" would block more than the author asked.
    const content = fileOfSize(ROBOTS_MAX_BYTES, 'Disallow: /abc') + 'def\n';
    const robots = parseRobotsTxt(content);
    expect(robots.truncated).toBe(true);
    expect(robots.groups[0].rules.map((r) => r.path)).toEqual(['/early']);
    expect(robots.errors[0].line).toBe(4);
    expect(isAllowed(robots, '/abcxyz', 'bot').allowed).toBe(true);
  });

  it('cuts a single oversized line at a character boundary', () => {
    const content = `#${'\u00e9'.repeat(ROBOTS_MAX_BYTES)}`;
    const robots = parseRobotsTxt(content);
    expect(robots.truncated).toBe(true);
    expect(robots.errors).toEqual([{ line: 1, message: expect.stringContaining('over the 512000-byte') }]);
  });
});

describe('URL and rule path normalisation', () => {
  it.each([
    // RFC 9309 §2.2.2, Figure 4 (queries are compared with `:` `/` `?` `@` unescaped)
    { input: '/foo/bar?baz=quz', canonical: '/foo/bar?baz=quz' },
    { input: '/foo/bar?baz=https%3A%2F%2Ffoo.bar', canonical: '/foo/bar?baz=https://foo.bar' },
    { input: '/foo/bar?baz=https://foo.bar', canonical: '/foo/bar?baz=https://foo.bar' },
    { input: '/foo/bar/\u30c4', canonical: '/foo/bar/%E3%83%84' },
    { input: '/foo/bar/%E3%83%84', canonical: '/foo/bar/%E3%83%84' },
    { input: '/foo/bar/%62%61%7A', canonical: '/foo/bar/baz' },
    // hex case, reserved escapes kept, stray percent, characters that may not appear raw
    { input: '/a%2fb', canonical: '/a%2Fb' },
    { input: '/a%3Fb?c%3fd%26e', canonical: '/a%3Fb?c?d%26e' },
    { input: '/50%-off', canonical: '/50%25-off' },
    { input: '/a b"<>|', canonical: '/a%20b%22%3C%3E%7C' },
    { input: '/star*dollar$', canonical: '/star%2Adollar%24' },
    { input: '/\ud800x', canonical: '/%EF%BF%BDx' },
  ])('canonicalUrlPath($input) = $canonical', ({ input, canonical }) => {
    expect(canonicalUrlPath(input)).toBe(canonical);
  });

  it.each([
    { input: '/*.php$', canonical: '/*.php$' },
    { input: '/a$b$', canonical: '/a%24b$' },
    { input: '/%2A*', canonical: '/%2A*' },
    { input: '/\u30c4*', canonical: '/%E3%83%84*' },
  ])('canonicalRulePattern($input) = $canonical', ({ input, canonical }) => {
    expect(canonicalRulePattern(input)).toBe(canonical);
  });

  it.each([
    { url: 'https://example.com/a/b?c=d#frag', path: '/a/b?c=d' },
    { url: 'http://example.com', path: '/' },
    { url: 'http://example.com?x', path: '/?x' },
    { url: '//cdn.example.com/x', path: '/x' },
    { url: '/local?q', path: '/local?q' },
    { url: 'relative/page', path: '/relative/page' },
    { url: '', path: '/' },
  ])('robotsPathOf($url) = $path', ({ url, path }) => {
    expect(robotsPathOf(url)).toBe(path);
  });
});
