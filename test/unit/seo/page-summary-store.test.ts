/**
 * The columnar page summaries give back what was stored: every getter of PageSummaryStore against the PageSummary
 * it was given (with the getter's documented normalisation), UrlTable ids, UrlCounts as a Map<string, number> and
 * SeenUrls as a Map<string, boolean>.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeenUrls } from '../../../src/crawler/seen-urls.js';
import type { PageSummary } from '../../../src/seo/checks/check.types.js';
import { PageSummaryStore, hashString, textKey, type TextField } from '../../../src/seo/checks/page-summary-store.js';
import { UrlCounts, UrlTable, simhashHalves } from '../../../src/seo/page/index.js';
import type { ResourceKind } from '../../../src/seo/page/page-facts.types.js';

const KINDS: ResourceKind[] = ['image', 'script', 'stylesheet', 'font', 'icon', 'media', 'other'];
const FIELDS: TextField[] = ['title', 'description', 'h1'];

/** Longer than the store's id-run chunk (2^16 values), with duplicates. */
const HUGE_LINKS = Array.from({ length: (1 << 16) + 1500 }, (_, i) => `https://example.com/p/${i % 40_000}`);
const HUGE_RESOURCES = HUGE_LINKS.map((url, i) => ({ url, kind: KINDS[i % KINDS.length] }));

const hostArb = fc.constantFrom(
  'https://example.com',
  'https://www.example.com',
  'http://example.com',
  'https://bücher.de',
  'https://shop.example.org',
);
const pathArb = fc.constantFrom('/', '', '/a', '/a/b', '/a/b?x=1', '/café', '/😀/', '/blog/post#top');
const urlArb = fc.oneof(
  { arbitrary: fc.tuple(hostArb, pathArb).map(([host, path]) => host + path), weight: 8 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 1 },
);

/** Characters that stress UTF-8 and whitespace handling: emoji, accents, NUL, lone surrogates, tabs, newlines. */
const charArb = fc.oneof(
  fc.constantFrom(' ', '\t', '\n', '\u00a0', 'É', 'é', 'ß', '😀', '👩‍👩‍👧', '\u0000', '\uD83D', '\uDE00', 'A', 'z'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
);
const textArb = fc.oneof(
  { arbitrary: fc.constant(null), weight: 2 },
  { arbitrary: fc.constant(''), weight: 1 },
  { arbitrary: fc.constantFrom('  ', ' \t\n '), weight: 1 },
  { arbitrary: fc.string({ unit: charArb, maxLength: 40 }), weight: 6 },
  {
    // Around the store's inline limit for text (16 KiB of UTF-8) and beyond.
    arbitrary: fc
      .tuple(fc.string({ unit: charArb, minLength: 1, maxLength: 6 }), fc.integer({ min: 500, max: 6000 }))
      .map(([part, times]) => part.repeat(times)),
    weight: 1,
  },
);
const hexArb = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));
const textHashArb = fc.oneof(
  fc.constant(null),
  fc.constant(''),
  hexArb(20),
  hexArb(20),
  hexArb(20).map((h) => h.toUpperCase()),
  fc.constantFrom('abc', 'not a hash', '0'.repeat(40), '0'.repeat(41)),
);
const simhashArb = fc.oneof(fc.constant(null), fc.constant(''), hexArb(8), hexArb(8));

const linksArb = fc.oneof(
  { arbitrary: fc.array(urlArb, { maxLength: 12 }), weight: 150 },
  {
    // Around the first id-run chunk's initial size (1024).
    arbitrary: fc.integer({ min: 1000, max: 1100 }).map((n) => HUGE_LINKS.slice(0, n)),
    weight: 2,
  },
  { arbitrary: fc.constant(HUGE_LINKS), weight: 1 },
);
const resourcesArb = fc.oneof(
  { arbitrary: fc.array(fc.record({ url: urlArb, kind: fc.constantFrom(...KINDS) }), { maxLength: 12 }), weight: 150 },
  { arbitrary: fc.integer({ min: 1000, max: 1100 }).map((n) => HUGE_RESOURCES.slice(0, n)), weight: 2 },
  { arbitrary: fc.constant(HUGE_RESOURCES), weight: 1 },
);

const pageArb: fc.Arbitrary<PageSummary> = fc.record(
  {
    url: urlArb,
    finalUrl: urlArb,
    status: fc.oneof(fc.constantFrom(0, 200, 301, 302, 404, 410, 500, 503), fc.integer({ min: 0, max: 999 })),
    depth: fc.nat(1000),
    redirected: fc.boolean(),
    isHtml: fc.boolean(),
    indexable: fc.boolean(),
    noindex: fc.boolean(),
    canonical: fc.option(urlArb, { nil: null }),
    title: textArb,
    description: textArb,
    h1: fc.oneof(textArb, fc.constant(undefined)),
    textHash: textHashArb,
    simhash: simhashArb,
    wordCount: fc.oneof(fc.nat(), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
    hasIconLink: fc.boolean(),
    internalLinks: linksArb,
    externalLinks: linksArb,
    hreflang: fc.array(
      fc.record({ lang: fc.oneof(fc.constantFrom('en', 'de-DE', 'x-default', ''), fc.string()), url: urlArb }),
      { maxLength: 4 },
    ),
    resources: resourcesArb,
    inSitemap: fc.option(fc.boolean(), { nil: undefined }),
    ampHtml: fc.oneof(fc.constant(undefined), fc.constant(null), urlArb),
    pagination: fc.option(
      fc.array(fc.record({ rel: fc.constantFrom('next', 'prev'), url: urlArb }), { maxLength: 3 }),
      {
        nil: undefined,
      },
    ),
  },
  // Optional fields are absent or present (sometimes as an explicit undefined).
  {
    requiredKeys: [
      ...['url', 'finalUrl', 'status', 'depth', 'redirected', 'isHtml', 'indexable', 'noindex', 'canonical'],
      ...['title', 'description', 'textHash', 'simhash', 'wordCount', 'hasIconLink', 'internalLinks'],
      ...['externalLinks', 'hreflang', 'resources'],
    ] as const,
  },
) as fc.Arbitrary<PageSummary>;

/** Pages that share URLs: some pages repeat an earlier page's URL, or link to other pages of the array. */
const pagesArb = fc.array(pageArb, { maxLength: 25 }).chain((pages) =>
  fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: Math.min(pages.length, 6) }).map((pairs) => {
    const out = pages.map((page) => ({ ...page }));
    for (const [a, b] of pairs) {
      const from = out[a % out.length];
      const to = out[b % out.length];
      from.internalLinks = [...from.internalLinks.slice(0, 20), to.url, to.url];
      to.canonical = from.url;
    }
    return out;
  }),
);

/** Everything the store's getters say of a row. */
function readRow(store: PageSummaryStore, row: number) {
  const viaIds: string[] = [];
  store.forEachInternalLink(row, (id) => viaIds.push(store.urls.url(id)));
  return {
    url: store.url(row),
    urlId: store.urlId(row),
    finalUrl: store.finalUrl(row),
    finalUrlId: store.finalUrlId(row),
    canonical: store.canonical(row),
    status: store.status(row),
    depth: store.depth(row),
    wordCount: store.wordCount(row),
    redirected: store.redirected(row),
    isHtml: store.isHtml(row),
    indexable: store.indexable(row),
    noindex: store.noindex(row),
    hasIconLink: store.hasIconLink(row),
    inSitemap: store.inSitemap(row),
    texts: FIELDS.map((field) => store.text(field, row)),
    keys: FIELDS.map((field) => (store.hasTextKey(field, row) ? store.textKeyHash(field, row) : null)),
    simhash: store.hasSimhash(row) ? store.simhash(row) : null,
    textHash: store.textHash(row),
    hasTextHash: store.hasTextHash(row),
    textHashCode: store.hasTextHash(row) ? store.textHashCode(row) : null,
    internalLinks: store.internalLinks(row),
    viaIds,
    externalLinks: store.externalLinks(row),
    resources: store.resources(row),
    hreflang: store.hreflang(row),
    ampHtml: store.ampHtml(row),
    pagination: store.pagination(row),
  };
}

/** Adds copies of `pages` to a new store, then scribbles on the copies: the store must have kept nothing of them. */
function storeOf(pages: readonly PageSummary[]): PageSummaryStore {
  const store = new PageSummaryStore();
  pages.forEach((page, i) => {
    const copy: PageSummary = {
      ...page,
      hreflang: page.hreflang.map((h) => ({ ...h })),
      pagination: page.pagination?.map((p) => ({ ...p })),
    };
    if (!('pagination' in page)) delete copy.pagination;
    expect(store.add(copy)).toBe(i);
    for (const h of copy.hreflang) h.url = 'scribbled';
    for (const p of copy.pagination ?? []) p.url = 'scribbled';
    copy.hreflang.push({ lang: 'scribbled', url: 'scribbled' });
  });
  return store;
}

function checkStore(store: PageSummaryStore, pages: readonly PageSummary[]): void {
  expect(store.size).toBe(pages.length);
  const rows = pages.map((_, row) => readRow(store, row));
  pages.forEach((page, row) => {
    const got = rows[row];
    expect(got.url).toBe(page.url);
    expect(got.urlId).toBe(store.urls.idOf(page.url));
    expect(got.finalUrl).toBe(page.finalUrl);
    expect(got.finalUrlId).toBe(store.urls.idOf(page.finalUrl));
    expect(got.canonical).toBe(page.canonical);
    expect(got.status).toBe(page.status);
    expect(got.depth).toBe(page.depth);
    expect(got.wordCount).toBe(page.wordCount);
    expect(got.redirected).toBe(page.redirected);
    expect(got.isHtml).toBe(page.isHtml);
    expect(got.indexable).toBe(page.indexable);
    expect(got.noindex).toBe(page.noindex);
    expect(got.hasIconLink).toBe(page.hasIconLink);
    // undefined when the crawl did not say.
    expect(got.inSitemap).toBe(page.inSitemap);
    // As written; an absent h1 reads as null.
    expect(got.texts).toEqual([page.title, page.description, page.h1 ?? null]);
    // A duplicate key when textKey gives one, hashed with hashString.
    expect(got.keys).toEqual(
      [page.title, page.description, page.h1].map((v) => {
        const key = textKey(v);
        return key === null ? null : hashString(key);
      }),
    );
    expect(got.simhash).toEqual(page.simhash ? simhashHalves(page.simhash) : null);
    // null when empty or absent; otherwise as given (hex digests come back as lowercase hex, i.e. as given).
    expect(got.hasTextHash).toBe(Boolean(page.textHash));
    expect(got.textHash).toBe(page.textHash ? page.textHash : null);
    expect(got.internalLinks).toEqual(page.internalLinks);
    expect(got.viaIds).toEqual(page.internalLinks);
    expect(got.externalLinks).toEqual(page.externalLinks);
    expect(got.resources).toEqual(page.resources.map(({ url, kind }) => ({ url, kind })));
    expect(got.hreflang).toEqual(page.hreflang);
    expect(got.ampHtml).toBe(page.ampHtml);
    if (page.pagination === undefined) expect(got.pagination).toBeUndefined();
    else expect(got.pagination).toEqual(page.pagination);
  });

  // Duplicate keys and text hashes compare across rows as the strings do: each row against the first row of its
  // group, and against the first row of another group.
  FIELDS.forEach((field, i) => {
    const first = new Map<string, number>();
    pages.forEach((page, row) => {
      const key = textKey(field === 'h1' ? page.h1 : page[field]);
      if (key === null) return;
      const other = first.get(key);
      if (other === undefined) first.set(key, row);
      else expect(rows[row].keys[i]).toBe(rows[other].keys[i]);
    });
  });
  const firstHash = new Map<string, number>();
  pages.forEach((page, row) => {
    if (!page.textHash) return;
    const same = firstHash.get(page.textHash);
    if (same === undefined) {
      for (const other of firstHash.values()) expect(store.sameTextHash(row, other)).toBe(false);
      firstHash.set(page.textHash, row);
    } else {
      expect(store.sameTextHash(row, same)).toBe(true);
      expect(store.sameTextHash(same, row)).toBe(true);
      expect(rows[row].textHashCode).toBe(rows[same].textHashCode);
    }
  });

  const withExtras = pages.flatMap((page, row) =>
    page.hreflang.length > 0 || page.ampHtml !== undefined || page.pagination !== undefined ? [row] : [],
  );
  expect([...store.rowsWithLinkExtras()]).toEqual(withExtras);

  // Every URL named is interned once.
  const named = new Set(
    pages.flatMap((p) => [
      p.url,
      p.finalUrl,
      ...(p.canonical === null ? [] : [p.canonical]),
      ...p.internalLinks,
      ...p.externalLinks,
      ...p.resources.map((r) => r.url),
    ]),
  );
  expect(store.urls.size).toBe(named.size);
}

describe('PageSummaryStore', () => {
  it('gives back every stored field, by add and by from', () => {
    fc.assert(
      fc.property(pagesArb, (pages) => {
        const store = storeOf(pages);
        checkStore(store, pages);
        const from = PageSummaryStore.from(pages);
        expect(from.size).toBe(store.size);
        for (let row = 0; row < pages.length; row++) expect(readRow(from, row)).toEqual(readRow(store, row));
      }),
      { numRuns: 300 },
    );
  });

  it('gives back every field past its initial capacities (rows, text chunks)', () => {
    // The seeds repeat ~260 times each: their link lists and texts are kept short, or a seed with a 67,000-link page
    // (the first test's case) makes one run take a minute. The long titles below are what fill the text chunks.
    const seedArb = pageArb.map((page) => ({
      ...page,
      description: page.description?.slice(0, 400) ?? null,
      h1: page.h1?.slice(0, 400) ?? page.h1,
      internalLinks: page.internalLinks.slice(0, 12),
      externalLinks: page.externalLinks.slice(0, 12),
      resources: page.resources.slice(0, 12),
    }));
    fc.assert(
      fc.property(
        fc.array(seedArb, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1020, max: 2100 }),
        (seed, n) => {
          // ~250 bytes of UTF-8 per title: the rows' titles fill more than one 256 KiB text chunk.
          const pages = Array.from({ length: n }, (_, i) => ({
            ...seed[i % seed.length],
            url: `https://example.com/${i}`,
            title: `${'😀é'.repeat(40)} ${i}`,
          }));
          checkStore(storeOf(pages), pages);
        },
      ),
      { numRuns: 4 },
    );
  });
});

describe('UrlTable', () => {
  it('gives one stable id per distinct string, in first-intern order', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(urlArb, fc.string()), { maxLength: 60 }), fc.string(), (urls, other) => {
        const table = new UrlTable();
        const ids = urls.map((url) => table.intern(url));
        const distinct = [...new Set(urls)];
        expect(table.size).toBe(distinct.length);
        distinct.forEach((url, id) => {
          expect(table.idOf(url)).toBe(id);
          expect(table.url(id)).toBe(url);
        });
        urls.forEach((url, i) => {
          expect(ids[i]).toBe(distinct.indexOf(url));
          expect(table.intern(url)).toBe(ids[i]);
        });
        if (!urls.includes(other)) expect(table.idOf(other)).toBe(-1);
        expect(table.size).toBe(distinct.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('UrlCounts', () => {
  it('reads as the Map<string, number> of the increments', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(urlArb, fc.string()), { maxLength: 60 }),
        fc.array(fc.oneof(urlArb, fc.string()), { maxLength: 10 }),
        fc.nat(3000),
        (increments, alsoInterned, filler) => {
          const table = new UrlTable();
          // Ids past the counts' initial capacity (1024), and URLs interned but never counted.
          for (let i = 0; i < filler; i++) table.intern(`https://filler.example/${i}`);
          const counts = new UrlCounts(table);
          const expected = new Map<string, number>();
          increments.forEach((url, i) => {
            counts.increment(table.intern(url));
            expected.set(url, (expected.get(url) ?? 0) + 1);
            if (i < alsoInterned.length) table.intern(alsoInterned[i]);
          });
          expect(counts.size).toBe(expected.size);
          for (const url of [...increments, ...alsoInterned, 'https://filler.example/0', 'never interned']) {
            expect(counts.get(url)).toBe(expected.get(url));
            expect(counts.has(url)).toBe(expected.has(url));
            expect(counts.countOf(table.idOf(url))).toBe(expected.get(url) ?? 0);
          }
          const byId = [...expected].sort(([a], [b]) => table.idOf(a) - table.idOf(b));
          expect([...counts]).toEqual(byId);
          expect([...counts.entries()]).toEqual(byId);
          expect([...counts.keys()]).toEqual(byId.map(([url]) => url));
          expect([...counts.values()]).toEqual(byId.map(([, count]) => count));
          const visited: [string, number][] = [];
          counts.forEach((count, url, map) => {
            expect(map).toBe(counts);
            visited.push([url, count]);
          });
          expect(visited).toEqual(byId);
          expect(new Map(counts)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('SeenUrls', () => {
  type Op = { kind: 'set'; url: string; scheduled: boolean } | { kind: 'intern'; url: string };
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), url: fc.oneof(urlArb, fc.string()), scheduled: fc.boolean() }),
    fc.record({ kind: fc.constant('intern' as const), url: fc.oneof(urlArb, fc.string()) }),
  );

  it('reads as the Map<string, boolean> of its sets, on a table shared with other interning', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), fc.nat(2500), fc.string(), (ops, filler, probe) => {
        const table = new UrlTable();
        const seen = new SeenUrls(table);
        const expected = new Map<string, boolean>();
        ops.forEach((op, i) => {
          if (op.kind === 'set') {
            seen.set(op.url, op.scheduled);
            expected.set(op.url, op.scheduled);
          } else table.intern(op.url);
          // Ids past the states' initial capacity (1024).
          if (i === 0) for (let n = 0; n < filler; n++) table.intern(`https://filler.example/${n}`);
        });
        for (const url of [...ops.map((op) => op.url), probe, 'https://filler.example/0']) {
          expect(seen.has(url)).toBe(expected.has(url));
          expect(seen.get(url)).toBe(expected.get(url));
        }
      }),
      { numRuns: 300 },
    );
  });
});
