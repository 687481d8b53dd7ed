import { describe, expect, it } from 'vitest';
import { groupCannibalisation, siteUrlsOf, type KeywordSnapshotRow } from '../../../src/keywords/index.js';

const day = (d: number) => new Date(Date.UTC(2026, 10, d, 6));
const r = (position: number, url: string) => ({ position, url, domain: new URL(url).hostname });

function snap(keywordId: string, d: number, results: ReturnType<typeof r>[]): KeywordSnapshotRow {
  return {
    keywordId,
    term: `term ${keywordId}`,
    country: 'us',
    language: 'en',
    device: 'desktop',
    checkedAt: day(d),
    results,
  };
}

describe('the site’s URLs of a snapshot', () => {
  const results = [
    r(1, 'https://other.org/example.com'),
    r(2, 'https://www.example.com/a'),
    r(3, 'http://EXAMPLE.com/b#top'),
    r(4, 'https://blog.example.com/c'),
    r(5, 'https://example.com.evil.net/d'),
    r(6, 'https://notexample.com/e'),
    r(7, 'https://example.com/b#other'),
  ];

  it('are the project host’s, scheme and www. ignored, one per address without its fragment', () => {
    expect(siteUrlsOf(results, 'https://www.example.com/')).toEqual([
      { url: 'https://www.example.com/a', position: 2 },
      { url: 'http://EXAMPLE.com/b', position: 3 },
      { url: 'https://example.com/b', position: 7 },
    ]);
  });

  it('include subdomains only when asked', () => {
    expect(siteUrlsOf(results, 'example.com', { includeSubdomains: true }).map((u) => u.position)).toEqual([
      2, 3, 4, 7,
    ]);
  });

  it('ignore malformed stored results', () => {
    expect(siteUrlsOf([{ position: 1 } as never, null as never, r(2, 'https://example.com/x')], 'example.com')).toEqual(
      [{ url: 'https://example.com/x', position: 2 }],
    );
  });
});

describe('grouping snapshots into cannibalised keywords', () => {
  const rows = [
    // a: one URL, then another (a switch of ranking URL), then both at once.
    snap('a', 1, [r(4, 'https://example.com/guide')]),
    snap('a', 2, [r(6, 'https://example.com/blog/guide')]),
    snap('a', 3, [r(3, 'https://example.com/guide'), r(9, 'https://example.com/blog/guide'), r(1, 'https://x.org/')]),
    // b: one URL every time.
    snap('b', 1, [r(2, 'https://example.com/b')]),
    snap('b', 2, [r(2, 'https://example.com/b')]),
    // c: three URLs once, none at the latest check.
    snap('c', 1, [r(1, 'https://example.com/1'), r(2, 'https://example.com/2'), r(3, 'https://example.com/3')]),
    snap('c', 2, []),
  ];

  it('keeps keywords with 2+ distinct site URLs in the window, with their positions over time', () => {
    const out = groupCannibalisation(rows, 'example.com');
    expect(out.map((k) => k.keywordId)).toEqual(['a', 'c']);
    const [a, c] = out;
    expect(a).toMatchObject({ checks: 3, maxUrlsAtOneCheck: 2, latestUrls: 2, latestCheckedAt: day(3) });
    expect(a.urls).toEqual([
      {
        url: 'https://example.com/guide',
        bestPosition: 3,
        latestPosition: 3,
        positions: [
          { checkedAt: day(1), position: 4 },
          { checkedAt: day(3), position: 3 },
        ],
      },
      {
        url: 'https://example.com/blog/guide',
        bestPosition: 6,
        latestPosition: 9,
        positions: [
          { checkedAt: day(2), position: 6 },
          { checkedAt: day(3), position: 9 },
        ],
      },
    ]);
    expect(c).toMatchObject({ checks: 2, maxUrlsAtOneCheck: 3, latestUrls: 0 });
    expect(c.urls.map((u) => [u.url, u.latestPosition])).toEqual([
      ['https://example.com/1', null],
      ['https://example.com/2', null],
      ['https://example.com/3', null],
    ]);
  });

  it('applies the minimum number of URLs', () => {
    expect(groupCannibalisation(rows, 'example.com', { minUrls: 3 }).map((k) => k.keywordId)).toEqual(['c']);
    expect(groupCannibalisation(rows, 'example.com', { minUrls: 4 })).toEqual([]);
  });

  it('finds nothing for another domain, or without snapshots', () => {
    expect(groupCannibalisation(rows, 'example.org')).toEqual([]);
    expect(groupCannibalisation([], 'example.com')).toEqual([]);
  });
});
