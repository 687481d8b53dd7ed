import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  isW3cDatetime,
  validateSitemap,
  type SitemapAnalysis,
  type SitemapEntry,
  type SitemapIndexEntry,
  type SitemapIssueCode,
  type SitemapValidationOptions,
} from '../../../src/seo/sitemap/index.js';

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** Line 1: XML declaration, line 2: <urlset>, so `lines[0]` is on line 3. */
function urlset(...lines: string[]): string {
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<urlset xmlns="${NS}">`, ...lines, '</urlset>'].join('\n');
}

function sitemapIndex(...lines: string[]): string {
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<sitemapindex xmlns="${NS}">`, ...lines, '</sitemapindex>'].join(
    '\n',
  );
}

function url(loc: string, extra = ''): string {
  return `<url><loc>${loc}</loc>${extra}</url>`;
}

/** The first example of https://www.sitemaps.org/protocol.html. */
const PROTOCOL_URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
   <url>
      <loc>http://www.example.com/</loc>
      <lastmod>2005-01-01</lastmod>
      <changefreq>monthly</changefreq>
      <priority>0.8</priority>
   </url>
   <url>
      <loc>http://www.example.com/catalog?item=12&amp;desc=vacation_hawaii</loc>
      <changefreq>weekly</changefreq>
   </url>
   <url>
      <loc>http://www.example.com/catalog?item=73&amp;desc=vacation_new_zealand</loc>
      <lastmod>2004-12-23</lastmod>
      <changefreq>weekly</changefreq>
   </url>
   <url>
      <loc>http://www.example.com/catalog?item=74&amp;desc=vacation_newfoundland</loc>
      <lastmod>2004-12-23T18:00:15+00:00</lastmod>
      <priority>0.3</priority>
   </url>
   <url>
      <loc>http://www.example.com/catalog?item=83&amp;desc=vacation_usa</loc>
      <lastmod>2004-11-23</lastmod>
   </url>
</urlset>
`;

const PROTOCOL_ENTRIES: SitemapEntry[] = [
  { loc: 'http://www.example.com/', lastmod: '2005-01-01', changefreq: 'monthly', priority: 0.8, line: 3 },
  {
    loc: 'http://www.example.com/catalog?item=12&desc=vacation_hawaii',
    lastmod: null,
    changefreq: 'weekly',
    priority: null,
    line: 9,
  },
  {
    loc: 'http://www.example.com/catalog?item=73&desc=vacation_new_zealand',
    lastmod: '2004-12-23',
    changefreq: 'weekly',
    priority: null,
    line: 13,
  },
  {
    loc: 'http://www.example.com/catalog?item=74&desc=vacation_newfoundland',
    lastmod: '2004-12-23T18:00:15+00:00',
    changefreq: null,
    priority: 0.3,
    line: 18,
  },
  {
    loc: 'http://www.example.com/catalog?item=83&desc=vacation_usa',
    lastmod: '2004-11-23',
    changefreq: null,
    priority: null,
    line: 23,
  },
];

/** The sitemap index example of the protocol. */
const PROTOCOL_INDEX = `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
   <sitemap>
      <loc>http://www.example.com/sitemap1.xml.gz</loc>
      <lastmod>2004-10-01T18:23:17+00:00</lastmod>
   </sitemap>
   <sitemap>
      <loc>http://www.example.com/sitemap2.xml.gz</loc>
      <lastmod>2005-01-01</lastmod>
   </sitemap>
</sitemapindex>
`;

const NOW = new Date('2025-06-01T00:00:00Z');

function validate(
  input: Parameters<typeof validateSitemap>[0],
  options: SitemapValidationOptions = {},
): Promise<SitemapAnalysis> {
  return validateSitemap(input, { now: NOW, ...options });
}

function codes(result: SitemapAnalysis): { errors: string[]; warnings: string[] } {
  return { errors: result.errors.map((e) => e.code), warnings: result.warnings.map((w) => w.code) };
}

/** Feeds `bytes` as a stream of `size`-byte chunks, so every boundary (mid-character, mid-entity) is exercised. */
function chunked(bytes: Uint8Array, size: number): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(Buffer.from(bytes.subarray(i, i + size)));
  return Readable.from(parts, { objectMode: false });
}

describe('validateSitemap: sitemaps.org examples', () => {
  it('accepts the protocol urlset example and reports its entries with lines', async () => {
    const result = await validate(PROTOCOL_URLSET);
    expect(result).toMatchObject({
      valid: true,
      type: 'urlset',
      urlCount: 5,
      errors: [],
      warnings: [],
      errorCount: 0,
      warningCount: 0,
      duplicateCount: 0,
      compressed: false,
      truncated: false,
      sizeBytes: Buffer.byteLength(PROTOCOL_URLSET),
    });
    expect(result.sample).toEqual(PROTOCOL_ENTRIES);
    expect(result.sitemaps).toBeUndefined();
  });

  it('accepts the protocol sitemap index example and lists its child sitemaps', async () => {
    const result = await validate(PROTOCOL_INDEX);
    expect(result).toMatchObject({ valid: true, type: 'sitemapindex', urlCount: 2, errors: [], warnings: [] });
    expect(result.sitemaps).toEqual([
      { loc: 'http://www.example.com/sitemap1.xml.gz', lastmod: '2004-10-01T18:23:17+00:00', line: 3 },
      { loc: 'http://www.example.com/sitemap2.xml.gz', lastmod: '2005-01-01', line: 7 },
    ]);
    expect(result.sample.map((e) => e.loc)).toEqual([
      'http://www.example.com/sitemap1.xml.gz',
      'http://www.example.com/sitemap2.xml.gz',
    ]);
  });

  // The protocol's entity-escaping table: & ' " > < must be written as entities inside the XML.
  it.each([
    ['ampersand', '&amp;', '&'],
    ['single quote', '&apos;', "'"],
    ['double quote', '&quot;', '"'],
    ['greater than', '&gt;', '>'],
    ['less than', '&lt;', '<'],
    ['decimal reference', '&#38;', '&'],
    ['hex reference', '&#x26;', '&'],
  ])('decodes the escaped %s (%s) in <loc>', async (_name, escaped, raw) => {
    const result = await validate(urlset(url(`http://www.example.com/page?a=1${escaped}b=2`)));
    expect(result.errors).toEqual([]);
    expect(result.sample[0].loc).toBe(`http://www.example.com/page?a=1${raw}b=2`);
  });

  it('accepts the escaped form of the protocol example http://www.example.com/ümlat.php&q=name', async () => {
    const result = await validate(urlset(url('http://www.example.com/%C3%BCmlat.php&amp;q=name')));
    expect(result).toMatchObject({ valid: true, errors: [], warnings: [] });
    expect(result.sample[0].loc).toBe('http://www.example.com/%C3%BCmlat.php&q=name');
  });

  it('flags the unescaped form of that example: a bare & is a fatal XML error on its line', async () => {
    const result = await validate(
      urlset(
        url('http://www.example.com/x'),
        url('http://www.example.com/ümlat.php&q=name'),
        url('http://www.example.com/a;b'),
      ),
    );
    expect(result.valid).toBe(false);
    expect(result.truncated).toBe(true);
    expect(result.errors).toEqual([
      { line: 4, code: 'UNESCAPED_AMPERSAND', message: expect.stringContaining('&amp;') },
    ]);
  });

  it('warns about non-ASCII characters that should be percent-encoded', async () => {
    const result = await validate(urlset(url('http://www.example.com/ümlat.php')));
    expect(result.valid).toBe(true);
    expect(result.warnings).toEqual([
      { line: 3, code: 'LOC_UNESCAPED_CHARS', message: expect.stringContaining('percent-encoded') },
    ]);
  });
});

describe('validateSitemap: inputs', () => {
  it('decompresses gzip (detected by magic bytes) from a Buffer and from a stream', async () => {
    const plain = await validate(PROTOCOL_URLSET);
    const gz = gzipSync(PROTOCOL_URLSET);
    for (const input of [gz, chunked(gz, 10)]) {
      const result = await validate(input);
      expect(result).toEqual({ ...plain, compressed: true });
    }
  });

  it('reads a Uint8Array, an async iterable of bytes and a Readable with string chunks alike', async () => {
    const plain = await validate(PROTOCOL_URLSET);
    const bytes = new TextEncoder().encode(PROTOCOL_URLSET);
    async function* iterable(): AsyncGenerator<Uint8Array> {
      yield bytes.subarray(0, 100);
      yield bytes.subarray(100);
    }
    const stringStream = Readable.from([PROTOCOL_URLSET.slice(0, 50), PROTOCOL_URLSET.slice(50)]);
    for (const input of [bytes, iterable(), stringStream]) expect(await validate(input)).toEqual(plain);
  });

  it('skips a UTF-8 byte order mark', async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(PROTOCOL_URLSET)]);
    expect((await validate(bom)).valid).toBe(true);
    expect((await validate(chunked(bom, 1))).valid).toBe(true);
    expect((await validate(`\ufeff${PROTOCOL_URLSET}`)).valid).toBe(true);
  });

  const boundaryDocs: Array<[string, string]> = [
    ['protocol urlset', PROTOCOL_URLSET],
    [
      'multi-byte text, CDATA and comments',
      urlset(
        '<!-- a comment with & and <tags> -->',
        url('<![CDATA[http://www.example.com/?a=1&b=2]]>', '<lastmod>2005-01-01</lastmod>'),
        url('http://www.example.com/%C3%A9t%C3%A9', '<!-- é ü 日本 --><priority>0.5</priority>'),
        '<?pi with & inside?>',
        url('http://www.example.com/ünï'),
      ),
    ],
    [
      'entity errors after long text',
      urlset(url('http://www.example.com/a&amp;b&lt;c&#x41;&#65;'), url('http://www.example.com/q?x=1&y=2')),
    ],
    ['undefined entity', urlset(url('http://www.example.com/&nbsp;'))],
    [
      'field errors',
      urlset(
        url('ftp://www.example.com/', '<lastmod>2005-02-30</lastmod><changefreq>Daily</changefreq>'),
        '<url></url>',
      ),
    ],
  ];

  it.each(boundaryDocs)('gives the same result for %s fed one byte at a time', async (_name, doc) => {
    const whole = await validate(doc);
    for (const size of [1, 2, 3, 7]) {
      const result = await validate(chunked(Buffer.from(doc), size));
      // A stream stopped by a fatal error has read less of the input; everything else must match.
      expect(result).toEqual(whole.truncated ? { ...whole, sizeBytes: result.sizeBytes } : whole);
    }
  });

  it('reports a failing input stream by rejecting (the caller owns the transport)', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('socket hang up'));
      },
    });
    await expect(validate(failing)).rejects.toThrow('socket hang up');
  });

  it('rejects a malformed baseUrl as a programming error', async () => {
    await expect(validate(PROTOCOL_URLSET, { baseUrl: 'not a url' })).rejects.toThrow(TypeError);
    await expect(validate(PROTOCOL_URLSET, { baseUrl: 'ftp://www.example.com/' })).rejects.toThrow(TypeError);
  });
});

interface IssueCase {
  name: string;
  doc: string | Uint8Array;
  code: SitemapIssueCode;
  line: number | undefined;
  options?: SitemapValidationOptions;
  message?: RegExp;
}

const LONG_PATH = 'a'.repeat(2_049 - 'http://www.example.com/'.length);

const errorCases: IssueCase[] = [
  {
    name: 'url without loc',
    doc: urlset(url('http://www.example.com/'), '<url>', '<lastmod>2005-01-01</lastmod>', '</url>'),
    code: 'LOC_MISSING',
    line: 4,
  },
  {
    name: 'two locs',
    doc: urlset('<url>', '<loc>http://www.example.com/a</loc>', '<loc>http://www.example.com/b</loc>', '</url>'),
    code: 'LOC_MULTIPLE',
    line: 5,
  },
  { name: 'empty loc', doc: urlset(url('  ')), code: 'LOC_EMPTY', line: 3 },
  { name: 'self-closing loc', doc: urlset('<url><loc/></url>'), code: 'LOC_EMPTY', line: 3 },
  { name: 'relative loc', doc: urlset(url('/about')), code: 'LOC_NOT_ABSOLUTE', line: 3, message: /absolute URL/ },
  { name: 'loc without scheme', doc: urlset(url('www.example.com/about')), code: 'LOC_NOT_ABSOLUTE', line: 3 },
  {
    name: 'loc with host:port but no scheme',
    doc: urlset(url('www.example.com:8080/about')),
    code: 'LOC_NOT_ABSOLUTE',
    line: 3,
  },
  {
    name: 'ftp loc',
    doc: urlset(url('ftp://www.example.com/file')),
    code: 'LOC_BAD_SCHEME',
    line: 3,
    message: /only http and https/,
  },
  { name: 'javascript loc', doc: urlset(url('javascript:alert(1)')), code: 'LOC_BAD_SCHEME', line: 3 },
  { name: 'unparseable loc', doc: urlset(url('http://exa mple.com/')), code: 'LOC_INVALID', line: 3 },
  {
    name: 'loc of 2,049 characters',
    doc: urlset('', url(`http://www.example.com/${LONG_PATH}`)),
    code: 'LOC_TOO_LONG',
    line: 4,
    message: /2,048/,
  },
  {
    name: 'loc of 10,000 characters',
    doc: urlset(url(`http://www.example.com/${'b'.repeat(10_000)}`)),
    code: 'LOC_TOO_LONG',
    line: 3,
  },
  {
    name: 'loc on another host than baseUrl',
    doc: urlset(url('https://www.example.com/'), url('https://cdn.example.net/')),
    options: { baseUrl: 'https://www.example.com/sitemap.xml' },
    code: 'LOC_OTHER_HOST',
    line: 4,
    message: /cdn\.example\.net, not on www\.example\.com/,
  },
  {
    name: 'http loc in an https sitemap',
    doc: urlset(url('http://www.example.com/')),
    options: { baseUrl: 'https://www.example.com/sitemap.xml' },
    code: 'LOC_SCHEME_MISMATCH',
    line: 3,
    message: /uses http but the sitemap uses https/,
  },
  {
    name: 'non-www loc in a www sitemap',
    doc: urlset(url('https://example.com/')),
    options: { baseUrl: 'https://www.example.com/sitemap.xml' },
    code: 'LOC_WWW_MISMATCH',
    line: 3,
    message: /www and non-www are different hosts/,
  },
  {
    name: 'loc on another port',
    doc: urlset(url('https://www.example.com:8443/')),
    options: { baseUrl: 'https://www.example.com/' },
    code: 'LOC_OTHER_HOST',
    line: 3,
  },
  {
    name: 'hosts mixed without baseUrl',
    doc: urlset(url('https://a.example/'), url('https://b.example/')),
    code: 'LOC_OTHER_HOST',
    line: 4,
    message: /first URL of the sitemap/,
  },
  {
    name: 'month 13',
    doc: urlset(url('http://www.example.com/', '<lastmod>2005-13-01</lastmod>')),
    code: 'LASTMOD_INVALID',
    line: 3,
    message: /month 13/,
  },
  {
    name: '30 February',
    doc: urlset(url('http://www.example.com/', '<lastmod>2004-02-30</lastmod>')),
    code: 'LASTMOD_INVALID',
    line: 3,
  },
  {
    name: 'time without zone',
    doc: urlset(url('http://www.example.com/', '<lastmod>2005-01-01T10:00:00</lastmod>')),
    code: 'LASTMOD_INVALID',
    line: 3,
    message: /time zone/,
  },
  {
    name: 'RFC 2822 lastmod',
    doc: urlset(url('http://www.example.com/', '<lastmod>Sat, 01 Jan 2005 00:00:00 GMT</lastmod>')),
    code: 'LASTMOD_INVALID',
    line: 3,
  },
  {
    name: 'empty lastmod',
    doc: urlset(url('http://www.example.com/', '<lastmod></lastmod>')),
    code: 'LASTMOD_INVALID',
    line: 3,
  },
  {
    name: 'unknown changefreq',
    doc: urlset(url('http://www.example.com/', '<changefreq>sometimes</changefreq>')),
    code: 'CHANGEFREQ_INVALID',
    line: 3,
  },
  {
    name: 'priority above 1',
    doc: urlset(url('http://www.example.com/', '<priority>1.5</priority>')),
    code: 'PRIORITY_INVALID',
    line: 3,
  },
  {
    name: 'negative priority',
    doc: urlset(url('http://www.example.com/', '<priority>-0.1</priority>')),
    code: 'PRIORITY_INVALID',
    line: 3,
  },
  {
    name: 'word priority',
    doc: urlset(url('http://www.example.com/', '<priority>high</priority>')),
    code: 'PRIORITY_INVALID',
    line: 3,
  },
  {
    name: 'missing namespace',
    doc: `<urlset>\n${url('http://www.example.com/')}\n</urlset>`,
    code: 'WRONG_NAMESPACE',
    line: 1,
    message: /has no namespace/,
  },
  {
    name: 'https namespace',
    doc:
      `<?xml version="1.0"?>\n<urlset ` +
      `xmlns="https://www.sitemaps.org/schemas/sitemap/0.9">\n${url('http://www.example.com/')}\n</urlset>`,
    code: 'WRONG_NAMESPACE',
    line: 2,
    message: /must be exactly "http:\/\/www\.sitemaps\.org/,
  },
  {
    name: 'HTML page',
    doc: '<!DOCTYPE html>\n<html lang="en"><head></head></html>',
    code: 'INVALID_ROOT',
    line: 2,
    message: /HTML page/,
  },
  {
    name: 'RSS feed',
    doc: '<?xml version="1.0"?>\n<rss version="2.0"><channel></channel></rss>',
    code: 'INVALID_ROOT',
    line: 2,
    message: /RSS\/Atom feed/,
  },
  { name: 'other root', doc: '<?xml version="1.0"?>\n<urls></urls>', code: 'INVALID_ROOT', line: 2 },
  {
    name: 'mismatched tags',
    doc: urlset('<url>', '<loc>http://www.example.com/</loc>', '</urll>'),
    code: 'XML_SYNTAX',
    line: 5,
  },
  {
    name: 'unclosed root',
    doc: `<urlset xmlns="${NS}">\n${url('http://www.example.com/')}\n`,
    code: 'XML_SYNTAX',
    line: 3,
    message: /unclosed tag/,
  },
  { name: 'unescaped <', doc: urlset(url('http://www.example.com/?a<b')), code: 'XML_SYNTAX', line: 3 },
  {
    name: 'unescaped & followed by a later ;',
    doc: urlset(url('http://www.example.com/?a=1&b=2'), '', url('http://www.example.com/x;y')),
    code: 'UNESCAPED_AMPERSAND',
    line: 3,
  },
  {
    name: 'unescaped & at the very end',
    doc: `<urlset xmlns="${NS}">\n<url><loc>http://www.example.com/?&`,
    code: 'UNESCAPED_AMPERSAND',
    line: 2,
  },
  {
    name: 'HTML entity',
    doc: urlset('', url('http://www.example.com/caf&eacute;')),
    code: 'UNDEFINED_ENTITY',
    line: 4,
    message: /&eacute;/,
  },
  { name: 'bad character reference', doc: urlset(url('http://www.example.com/&#0;')), code: 'XML_SYNTAX', line: 3 },
  {
    name: 'undeclared prefix',
    doc: urlset(url('http://www.example.com/', '<image:image><image:loc>x</image:loc></image:image>')),
    code: 'UNBOUND_PREFIX',
    line: 3,
  },
  {
    name: 'declared Latin-1',
    doc: `<?xml version="1.0" encoding="ISO-8859-1"?>\n<urlset xmlns="${NS}"></urlset>`,
    code: 'UNSUPPORTED_ENCODING',
    line: 1,
  },
  {
    name: 'UTF-16 bytes',
    doc: Buffer.from(`\ufeff<urlset xmlns="${NS}"></urlset>`, 'utf16le'),
    code: 'UNSUPPORTED_ENCODING',
    line: 1,
  },
  {
    name: 'plain text',
    doc: 'User-agent: *\nDisallow: /',
    code: 'NOT_XML',
    line: 1,
    message: /starts with "User-agent/,
  },
  { name: 'JSON', doc: '  \n {"urls": []}', code: 'NOT_XML', line: 2 },
  { name: 'whitespace only', doc: ' \n\n ', code: 'NOT_XML', line: 3 },
  { name: 'empty string', doc: '', code: 'EMPTY_INPUT', line: 1 },
  { name: 'empty buffer', doc: new Uint8Array(0), code: 'EMPTY_INPUT', line: 1 },
  { name: 'NUL bytes', doc: new Uint8Array(64), code: 'BINARY_CONTENT', line: 1 },
  { name: 'PNG image', doc: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), code: 'INVALID_UTF8', line: 1 },
  {
    name: 'ZIP archive',
    doc: Buffer.from('504b0304140000000800', 'hex'),
    code: 'BINARY_CONTENT',
    line: 1,
    message: /ZIP/,
  },
  {
    name: 'invalid UTF-8 in a loc',
    doc: Buffer.concat([
      Buffer.from(urlset().slice(0, -10)),
      Buffer.from('\n<url><loc>http://www.example.com/'),
      Buffer.from([0xc3, 0x28]),
    ]),
    code: 'INVALID_UTF8',
    line: 3,
  },
  { name: 'truncated gzip', doc: gzipSync(PROTOCOL_URLSET).subarray(0, 200), code: 'GZIP_ERROR', line: undefined },
  {
    name: 'corrupt gzip',
    doc: Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), Buffer.alloc(40, 0xff)]),
    code: 'GZIP_ERROR',
    line: 1,
  },
  {
    name: 'too many entries',
    doc: urlset(url('http://www.example.com/1'), url('http://www.example.com/2'), url('http://www.example.com/3')),
    options: { maxUrls: 2 },
    code: 'TOO_MANY_ENTRIES',
    line: 5,
  },
];

describe('validateSitemap: errors', () => {
  it.each(errorCases)('$name → $code on line $line', async ({ doc, code, line, options, message }) => {
    const result = await validate(doc, options);
    expect(result.valid).toBe(false);
    const error = result.errors.find((e) => e.code === code);
    expect(error, JSON.stringify(result.errors)).toBeDefined();
    if (line !== undefined) expect(error!.line).toBe(line);
    if (message !== undefined) expect(error!.message).toMatch(message);
    expect(result.errorCount).toBe(result.errors.length);
  });

  it('stops at the first well-formedness error and keeps what came before', async () => {
    const result = await validate(
      urlset(
        url('http://www.example.com/1', '<priority>2</priority>'),
        url('http://www.example.com/2&x'),
        url('http://www.example.com/3'),
      ),
    );
    expect(codes(result).errors).toEqual(['PRIORITY_INVALID', 'UNESCAPED_AMPERSAND']);
    expect(result.truncated).toBe(true);
    expect(result.sample.map((e) => e.loc)).toEqual(['http://www.example.com/1']);
  });

  it('keeps validating after content errors such as a wrong namespace', async () => {
    const result = await validate(
      `<urlset xmlns="http://www.google.com/schemas/sitemap/0.84">\n` +
        `${url('http://www.example.com/', '<changefreq>often</changefreq>')}\n</urlset>`,
    );
    expect(codes(result).errors).toEqual(['WRONG_NAMESPACE', 'CHANGEFREQ_INVALID']);
    expect(result.type).toBe('urlset');
    expect(result.urlCount).toBe(1);
    expect(result.truncated).toBe(false);
  });

  it('gives a partial result for a truncated gzip stream', async () => {
    const result = await validate(gzipSync(PROTOCOL_URLSET).subarray(0, 200));
    expect(result.compressed).toBe(true);
    expect(result.truncated).toBe(true);
    expect(codes(result).errors).toEqual(['GZIP_ERROR']);
  });
});

const warningCases: IssueCase[] = [
  {
    name: 'future lastmod',
    doc: urlset(url('http://www.example.com/', '<lastmod>2025-06-03</lastmod>')),
    code: 'LASTMOD_FUTURE',
    line: 3,
  },
  {
    name: 'future lastmod with time',
    doc: urlset('', url('http://www.example.com/', '<lastmod>2025-06-01T00:00:01Z</lastmod>')),
    code: 'LASTMOD_FUTURE',
    line: 4,
  },
  {
    name: 'capitalised changefreq',
    doc: urlset(url('http://www.example.com/', '<changefreq>Weekly</changefreq>')),
    code: 'CHANGEFREQ_CASE',
    line: 3,
    message: /"weekly"/,
  },
  {
    name: 'unknown element in url',
    doc: urlset('<url>', '<loc>http://www.example.com/</loc>', '<title>Home</title>', '</url>'),
    code: 'UNKNOWN_ELEMENT',
    line: 5,
  },
  { name: 'unknown element in urlset', doc: urlset('<note>hi</note>'), code: 'UNKNOWN_ELEMENT', line: 3 },
  {
    name: 'sitemap in a urlset',
    doc: urlset('<sitemap><loc>http://www.example.com/s.xml</loc></sitemap>'),
    code: 'UNKNOWN_ELEMENT',
    line: 3,
    message: /belong in a <sitemapindex>/,
  },
  {
    name: 'url in a sitemap index',
    doc: sitemapIndex('<sitemap><loc>http://www.example.com/s.xml</loc></sitemap>', url('http://www.example.com/')),
    code: 'UNKNOWN_ELEMENT',
    line: 4,
    message: /belong in a <urlset>/,
  },
  {
    name: 'priority in a sitemap index',
    doc: sitemapIndex('<sitemap><loc>http://www.example.com/s.xml</loc><priority>1</priority></sitemap>'),
    code: 'UNKNOWN_ELEMENT',
    line: 3,
  },
  {
    name: 'element inside loc',
    doc: urlset('<url><loc>http://www.example.com/<b>x</b></loc></url>'),
    code: 'UNKNOWN_ELEMENT',
    line: 3,
  },
  {
    name: 'duplicate loc',
    doc: urlset(url('http://www.example.com/a'), url('http://www.example.com/b'), url('http://www.example.com/a')),
    code: 'LOC_DUPLICATE',
    line: 5,
    message: /first listed on line 3/,
  },
  { name: 'empty urlset', doc: urlset(), code: 'EMPTY_SITEMAP', line: undefined },
  { name: 'empty sitemap index', doc: sitemapIndex(), code: 'EMPTY_SITEMAP', line: undefined },
  { name: 'spaces in loc', doc: urlset(url('http://www.example.com/my page')), code: 'LOC_UNESCAPED_CHARS', line: 3 },
  {
    name: 'loc outside the sitemap folder',
    doc: urlset(url('https://www.example.com/catalog/a'), url('https://www.example.com/images/b')),
    options: { baseUrl: 'https://www.example.com/catalog/sitemap.xml' },
    code: 'LOC_OUTSIDE_PATH',
    line: 4,
  },
  {
    name: 'two lastmods',
    doc: urlset(
      '<url>',
      '<loc>http://www.example.com/</loc>',
      '<lastmod>2005-01-01</lastmod>',
      '<lastmod>2005-01-02</lastmod>',
      '</url>',
    ),
    code: 'DUPLICATE_FIELD',
    line: 6,
  },
];

describe('validateSitemap: warnings', () => {
  it.each(warningCases)('$name → $code on line $line', async ({ doc, code, line, options, message }) => {
    const result = await validate(doc, options);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    const warning = result.warnings.find((w) => w.code === code);
    expect(warning, JSON.stringify(result.warnings)).toBeDefined();
    expect(warning!.line).toBe(line);
    if (message !== undefined) expect(warning!.message).toMatch(message);
  });

  it('does not warn about a lastmod of today or of the past', async () => {
    const result = await validate(
      urlset(
        url('http://www.example.com/', '<lastmod>2025-06-01</lastmod>'),
        url('http://www.example.com/b', '<lastmod>2025-05-31T23:59:59Z</lastmod>'),
      ),
    );
    expect(result.warnings).toEqual([]);
  });

  it('reports a repeated lastmod value on every entry that has it', async () => {
    const bad = '<lastmod>2005-13-01</lastmod>';
    const future = '<lastmod>2030-01-01</lastmod>';
    const result = await validate(
      urlset(
        url('http://www.example.com/a', bad),
        url('http://www.example.com/b', bad),
        url('http://www.example.com/c', future),
        url('http://www.example.com/d', future),
      ),
    );
    expect(result.errors.map((e) => [e.code, e.line])).toEqual([
      ['LASTMOD_INVALID', 3],
      ['LASTMOD_INVALID', 4],
    ]);
    expect(result.warnings.map((w) => [w.code, w.line])).toEqual([
      ['LASTMOD_FUTURE', 5],
      ['LASTMOD_FUTURE', 6],
    ]);
  });

  it('keeps the first of repeated fields', async () => {
    const result = await validate(
      urlset('<url><loc>http://www.example.com/</loc><lastmod>2005-01-01</lastmod><lastmod>2006-01-01</lastmod></url>'),
    );
    expect(result.sample[0].lastmod).toBe('2005-01-01');
  });
});

describe('validateSitemap: namespaces and extensions', () => {
  it('skips image, video, news and xhtml extension elements without findings', async () => {
    const doc =
      `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc>https://www.example.com/article</loc>
    <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/article"/>
    <image:image><image:loc>https://cdn.example.net/a.jpg</image:loc></image:image>
    <video:video><video:title>Clip &amp; ` +
      `more</video:title><video:content_loc>https://cdn.example.net/v.mp4</video:content_loc></video:video>
    <news:news><news:publication><news:name>Example</news:name></news:publication>` +
      `<news:publication_date>2008-12-23</news:publication_date></news:news>
  </url>
</urlset>`;
    const result = await validate(doc);
    expect(result).toMatchObject({ valid: true, urlCount: 1, errors: [], warnings: [] });
    expect(result.sample[0].loc).toBe('https://www.example.com/article');
  });

  it('accepts the sitemap namespace bound to a prefix', async () => {
    const doc = `<sm:urlset xmlns:sm="${NS}">\n<sm:url><sm:loc>http://www.example.com/</sm:loc></sm:url>\n</sm:urlset>`;
    expect(await validate(doc)).toMatchObject({ valid: true, urlCount: 1, warnings: [] });
  });

  it('accepts a DOCTYPE before the root, and still reports a bare & after it', async () => {
    const doc =
      `<?xml version="1.0"?>\n<!DOCTYPE urlset>\n<urlset ` +
      `xmlns="${NS}">\n${url('http://www.example.com/?a=1&amp;b=2')}\n</urlset>`;
    expect(await validate(doc)).toMatchObject({ valid: true, urlCount: 1 });
    const broken = await validate(doc.replace('&amp;', '&'));
    expect(broken.valid).toBe(false);
    expect(broken.errors[0].code).toBe('XML_SYNTAX');
  });

  it('ignores unprefixed elements of another default namespace', async () => {
    const doc = urlset(url('http://www.example.com/', '<meta xmlns="urn:example"><loc>not checked</loc></meta>'));
    expect(await validate(doc)).toMatchObject({ valid: true, warnings: [] });
  });
});

describe('validateSitemap: bounded output', () => {
  it('keeps the first maxIssues errors and counts the rest', async () => {
    const lines = Array.from({ length: 150 }, (_, i) => url(`/relative-${i}`));
    const result = await validate(urlset(...lines));
    expect(result.errors).toHaveLength(100);
    expect(result.errorCount).toBe(150);
    expect(result.errors[99].line).toBe(102);
    const small = await validate(urlset(...lines), { maxIssues: 5 });
    expect(small.errors).toHaveLength(5);
    expect(small.errorCount).toBe(150);
    expect(small.issueCounts).toEqual({ LOC_NOT_ABSOLUTE: 150 });
  });

  it('counts issues per code, e.g. URLs on other hosts for the audit', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => url(`https://other.example/${i}`));
    const result = await validate(
      urlset(
        url('https://www.example.com/'),
        ...lines,
        url('http://www.example.com/x'),
        url('https://www.example.com/My Page'),
      ),
      {
        baseUrl: 'https://www.example.com/sitemap.xml',
      },
    );
    expect(result.issueCounts).toEqual({ LOC_OTHER_HOST: 120, LOC_SCHEME_MISMATCH: 1, LOC_UNESCAPED_CHARS: 1 });
    expect(result.errors).toHaveLength(100);
  });

  it('lists 20 duplicates and summarises the others', async () => {
    const lines = Array.from({ length: 31 }, () => url('http://www.example.com/same'));
    const result = await validate(urlset(...lines));
    expect(result.duplicateCount).toBe(30);
    const duplicates = result.warnings.filter((w) => w.code === 'LOC_DUPLICATE');
    expect(duplicates).toHaveLength(21);
    expect(duplicates[20]).toEqual({ code: 'LOC_DUPLICATE', message: expect.stringContaining('10 more duplicate') });
    expect(result.valid).toBe(true);
  });

  it('samples the first sampleSize entries', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => url(`http://www.example.com/${i}`));
    expect((await validate(urlset(...lines))).sample).toHaveLength(20);
    const result = await validate(urlset(...lines), { sampleSize: 3 });
    expect(result.sample.map((e) => e.loc)).toEqual([
      'http://www.example.com/0',
      'http://www.example.com/1',
      'http://www.example.com/2',
    ]);
  });
});

describe('validateSitemap: callbacks for the crawler', () => {
  it('hands every valid page URL to onUrl, in document order', async () => {
    const received: SitemapEntry[] = [];
    const result = await validate(PROTOCOL_URLSET, { sampleSize: 0, onUrl: (entry) => void received.push(entry) });
    expect(received).toEqual(PROTOCOL_ENTRIES);
    expect(result.sample).toEqual([]);
  });

  it('skips invalid, off-host and repeated URLs', async () => {
    const received: string[] = [];
    await validate(
      urlset(
        url('https://www.example.com/a'),
        url('/relative'),
        url('https://other.example/b'),
        url('https://www.example.com/a'),
        url('https://www.example.com/c'),
      ),
      { baseUrl: 'https://www.example.com/', onUrl: (entry) => void received.push(entry.loc) },
    );
    expect(received).toEqual(['https://www.example.com/a', 'https://www.example.com/c']);
  });

  it('awaits an async onUrl before reading on, and delivers across many chunks', async () => {
    const lines = Array.from({ length: 3_000 }, (_, i) => url(`https://www.example.com/page/${i}`));
    const doc = Buffer.from(urlset(...lines));
    let active = 0;
    let maxActive = 0;
    const received: string[] = [];
    await validate(chunked(doc, 4_096), {
      onUrl: async (entry) => {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((resolve) => setImmediate(resolve));
        received.push(entry.loc);
        active--;
      },
    });
    expect(maxActive).toBe(1);
    expect(received).toHaveLength(3_000);
    expect(received[2_999]).toBe('https://www.example.com/page/2999');
  });

  it('hands child sitemaps of an index to onSitemap', async () => {
    const received: SitemapIndexEntry[] = [];
    await validate(PROTOCOL_INDEX, { onSitemap: (entry) => void received.push(entry) });
    expect(received.map((e) => e.loc)).toEqual([
      'http://www.example.com/sitemap1.xml.gz',
      'http://www.example.com/sitemap2.xml.gz',
    ]);
  });

  it('propagates an error thrown by onUrl', async () => {
    await expect(
      validate(PROTOCOL_URLSET, {
        onUrl: () => {
          throw new Error('queue full');
        },
      }),
    ).rejects.toThrow('queue full');
  });
});

describe('isW3cDatetime', () => {
  it.each([
    ['1997', true],
    ['1997-07', true],
    ['1997-07-16', true],
    ['1997-07-16T19:20+01:00', true],
    ['1997-07-16T19:20:30+01:00', true],
    ['1997-07-16T19:20:30.45+01:00', true],
    ['1997-07-16T19:20:30.45Z', true],
    ['2004-12-23T18:00:15+00:00', true],
    ['2000-02-29', true],
    ['1997-07-16T23:59:59-12:00', true],
    ['1900-02-29', false],
    ['1997-13-01', false],
    ['1997-00-10', false],
    ['1997-04-31', false],
    ['1997-07-16T24:00Z', false],
    ['1997-07-16T19:60Z', false],
    ['1997-07-16T19:20:60Z', false],
    ['1997-07-16T19:20', false],
    ['1997-07-16T19:20:30', false],
    ['1997-07-16T19:20:30.Z', false],
    ['1997-07-16T19:20+0100', false],
    ['1997-07-16T19:20+25:00', false],
    ['1997-07-16 19:20Z', false],
    ['1997-7-16', false],
    ['97-07-16', false],
    ['16/07/1997', false],
    ['1997-07-16Z', false],
    ['', false],
  ])('%s → %s', (value, expected) => {
    expect(isW3cDatetime(value)).toBe(expected);
  });
});
