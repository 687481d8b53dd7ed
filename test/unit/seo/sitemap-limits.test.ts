import { once } from 'node:events';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateSitemap, type SitemapEntry } from '../../../src/seo/sitemap/index.js';

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const MIB = 1_048_576;

function bigUrlset(count: number): string {
  const parts = [`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n`];
  for (let i = 1; i <= count; i++) {
    parts.push(
      `<url><loc>https://www.example.com/p/${i}</loc><lastmod>2024-01-15T10:00:00+00:00</lastmod><changefr` +
        `eq>weekly</changefreq><priority>0.5</priority></url>\n`,
    );
  }
  parts.push('</urlset>\n');
  return parts.join('');
}

/** gzip of `prefix` + `size` bytes of `fill` + `suffix`, streamed so the test never holds the inflated data. */
async function gzipBomb(size: number, fill: number, prefix = '', suffix = ''): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = once(gzip, 'end');
  const block = Buffer.alloc(MIB, fill);
  gzip.write(prefix);
  for (let written = 0; written < size; written += MIB) {
    if (!gzip.write(block)) await once(gzip, 'drain');
  }
  gzip.end(suffix);
  await ended;
  return Buffer.concat(out);
}

/** Serves `bytes` in 1 KiB chunks and counts how many were pulled. */
function countingSource(bytes: Buffer): { stream: Readable; pulled: () => number; total: number } {
  let pulled = 0;
  const total = Math.ceil(bytes.length / 1024);
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let i = 0; i < bytes.length; i += 1024) {
      pulled++;
      yield bytes.subarray(i, i + 1024);
    }
  }
  // A chunk of read-ahead at a time (Node 20's Readable.from default; Node 24 buffers 64 KiB ahead), so that `pulled`
  // counts what the validator asked for.
  return { stream: Readable.from(chunks(), { objectMode: false, highWaterMark: 1 }), pulled: () => pulled, total };
}

describe('validateSitemap: the 50,000-entry limit', () => {
  const doc = bigUrlset(50_001);

  it('flags the 50,001st url on its line and hands only the first 50,000 to onUrl', async () => {
    let delivered = 0;
    let last: SitemapEntry | undefined;
    const result = await validateSitemap(doc, {
      onUrl: (entry) => {
        delivered++;
        last = entry;
      },
    });
    expect(result.urlCount).toBe(50_001);
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      { line: 50_003, code: 'TOO_MANY_ENTRIES', message: expect.stringContaining('50,000') },
    ]);
    expect(result.errorCount).toBe(1);
    expect(delivered).toBe(50_000);
    expect(last?.loc).toBe('https://www.example.com/p/50000');
    expect(result.sample).toHaveLength(20);
  });

  it('accepts exactly 50,000 urls, plain and gzip', async () => {
    const exact = bigUrlset(50_000);
    for (const input of [exact, gzipSync(exact)]) {
      const result = await validateSitemap(input, {
        baseUrl: 'https://www.example.com/sitemap.xml',
        now: new Date('2025-01-01'),
      });
      expect(result).toMatchObject({
        valid: true,
        urlCount: 50_000,
        errorCount: 0,
        warningCount: 0,
        duplicateCount: 0,
      });
    }
  });

  it('counts a sitemap index over the limit too', async () => {
    const entries = Array.from(
      { length: 4 },
      (_, i) => `<sitemap><loc>https://www.example.com/s${i}.xml</loc></sitemap>`,
    );
    const result = await validateSitemap(`<sitemapindex xmlns="${NS}">\n${entries.join('\n')}\n</sitemapindex>`, {
      maxUrls: 3,
    });
    expect(result.errors.map((e) => [e.code, e.line])).toEqual([['TOO_MANY_ENTRIES', 5]]);
    expect(result.sitemaps).toHaveLength(3);
  });
});

describe('validateSitemap: the byte cap', () => {
  const doc = `<urlset xmlns="${NS}">\n${'<url><loc>https://www.example.com/</loc></url>\n'.repeat(100)}</urlset>`;
  const size = Buffer.byteLength(doc);

  it.each([
    ['string', () => doc],
    ['buffer', () => Buffer.from(doc)],
    ['gzip', () => gzipSync(doc)],
  ])('stops a %s input past maxBytes with SIZE_LIMIT', async (_kind, input) => {
    const result = await validateSitemap(input(), { maxBytes: 1_000 });
    expect(result.valid).toBe(false);
    expect(result.truncated).toBe(true);
    expect(result.errors.at(-1)).toMatchObject({ code: 'SIZE_LIMIT', message: expect.stringContaining('1,000 bytes') });
  });

  it('accepts a document of exactly maxBytes', async () => {
    expect((await validateSitemap(doc, { maxBytes: size })).errors).toEqual([]);
    expect((await validateSitemap(Buffer.from(doc), { maxBytes: size - 1 })).errors.map((e) => e.code)).toEqual([
      'SIZE_LIMIT',
    ]);
  });

  it('defaults to 50 MiB', async () => {
    const result = await validateSitemap(await gzipBomb(50 * MIB, 0x20, `<urlset xmlns="${NS}">`));
    expect(result.errors.map((e) => e.code)).toEqual(['SIZE_LIMIT']);
    expect(result.errors[0].message).toContain('50 MiB');
  });
});

describe('validateSitemap: decompression bombs', () => {
  const BOMB_SIZE = 200 * MIB;
  let zeros: Buffer;
  let whitespace: Buffer;

  beforeAll(async () => {
    zeros = await gzipBomb(BOMB_SIZE, 0);
    whitespace = await gzipBomb(BOMB_SIZE, 0x20, `<?xml version="1.0"?>\n<urlset xmlns="${NS}">`, '</urlset>');
  }, 60_000);

  it('stops a gzip of 200 MiB of zeros at once, without inflating it', async () => {
    const source = countingSource(zeros);
    const started = performance.now();
    const result = await validateSitemap(source.stream, { maxBytes: MIB });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result).toMatchObject({ valid: false, truncated: true, compressed: true });
    expect(result.errors.map((e) => e.code)).toEqual(['BINARY_CONTENT']);
    expect(result.sizeBytes).toBeLessThanOrEqual(MIB);
    expect(source.pulled()).toBeLessThan(source.total / 10);
  });

  it('stops a well-formed 200 MiB bomb at maxBytes with SIZE_LIMIT', async () => {
    const source = countingSource(whitespace);
    const started = performance.now();
    const result = await validateSitemap(source.stream, { maxBytes: 4 * MIB });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.errors.map((e) => e.code)).toEqual(['SIZE_LIMIT']);
    expect(result.sizeBytes).toBeGreaterThan(4 * MIB);
    expect(result.sizeBytes).toBeLessThan(4 * MIB + 256 * 1024);
    expect(source.pulled()).toBeLessThan(source.total / 10);
  });

  it('stops a huge <loc> or comment long before the cap instead of buffering it', async () => {
    const hugeLoc = await gzipBomb(
      8 * MIB,
      0x61,
      `<urlset xmlns="${NS}">\n<url><loc>https://www.example.com/`,
      '</loc></url></urlset>',
    );
    const loc = await validateSitemap(hugeLoc);
    expect(loc.errors).toEqual([{ line: 2, code: 'NODE_TOO_LARGE', message: expect.stringContaining('<loc>') }]);
    expect(loc.sizeBytes).toBeLessThan(2 * MIB);

    const hugeComment = await gzipBomb(8 * MIB, 0x61, `<urlset xmlns="${NS}">\n<!--`, '--></urlset>');
    const comment = await validateSitemap(hugeComment);
    expect(comment.errors.map((e) => e.code)).toEqual(['NODE_TOO_LARGE']);
    expect(comment.sizeBytes).toBeLessThan(2 * MIB);
  });
});
