/**
 * The calibration table of CHECKS.md "Scoring", one test per row, on generated sites: every page-level check of
 * the catalog evaluated on every page (passing unless the row names it), every site-level check evaluated once,
 * folded by the audit's own aggregator and scored by the audit's own formula, as the engine does.
 */
import { describe, expect, it } from 'vitest';
import { CHECK_CATALOG, CheckAggregator, getCheck, type CheckCode } from '../../../src/seo/checks/index.js';
import { scoreAudit, type ScoreResult } from '../../../src/seo/scoring/index.js';

interface GeneratedSite {
  /** HTML pages, /p/0 .. /p/N-1. */
  pages: number;
  /** Page-level codes failing on the first n pages ('all': every page). */
  failing?: Partial<Record<CheckCode, number | 'all'>>;
  /** Site-level codes that fail. */
  siteFailing?: CheckCode[];
  /** Non-HTML URLs the crawl also fetched (a link's 404 target), each with the page-level codes failing on it. */
  targets?: { url: string; failing: CheckCode[] }[];
}

const PAGE_CODES = CHECK_CATALOG.filter((c) => c.scope === 'page').map((c) => c.code as CheckCode);
const SITE_CODES = CHECK_CATALOG.filter((c) => c.scope === 'site').map((c) => c.code as CheckCode);

function score(site: GeneratedSite): ScoreResult {
  const aggregator = new CheckAggregator({ maxOccurrencesPerCode: 20 });
  const failingOn = (code: CheckCode, page: number) => {
    const n = site.failing?.[code];
    return n === 'all' || (n !== undefined && page < n);
  };
  const urls: string[] = [];
  for (let page = 0; page < site.pages; page++) {
    const url = `https://generated.example/p/${page}`;
    urls.push(url);
    aggregator.addPageResults(
      url,
      PAGE_CODES.map((code) => ({ code, applicable: true, failed: failingOn(code, page) })),
    );
  }
  for (const target of site.targets ?? []) {
    aggregator.addPageResults(
      target.url,
      target.failing.map((code) => ({ code, applicable: true, failed: true })),
    );
  }
  aggregator.addSiteResults(
    SITE_CODES.map((code) => {
      const failed = site.siteFailing?.includes(code) ?? false;
      return { code, applicable: true, failed, occurrences: failed ? [{ url: urls[0] }] : [], applicablePages: 1 };
    }),
  );
  return scoreAudit(aggregator.aggregates(), {
    pages: { html: site.pages, withCritical: aggregator.pagesWithCritical(urls) },
    startUrlStatus: 200,
  });
}

const NOTICE_PAGE_CODES = PAGE_CODES.filter((code) => getCheck(code).severity === 'NOTICE');

describe('score calibration (CHECKS.md), sites of 200 HTML pages', () => {
  it('1: a clean site scores 100 everywhere', () => {
    const { scores, breakdown } = score({ pages: 200 });
    expect(scores).toEqual({ overall: 100, meta: 100, content: 100, links: 100, technical: 100, performance: 100 });
    expect(breakdown).toMatchObject({ health: 100, costs: [], cappedFrom: null, blockers: [] });
  });

  it('2: a missing title on 2 pages (1%): META <= 99, overall <= 99', () => {
    const { scores } = score({ pages: 200, failing: { META_TITLE_MISSING: 2 } });
    expect(scores.meta).toBeLessThanOrEqual(99);
    expect(scores.overall).toBeLessThanOrEqual(99);
  });

  it('3: a missing title on 20 pages (10%): META 85-92, overall 90-97', () => {
    const { scores } = score({ pages: 200, failing: { META_TITLE_MISSING: 20 } });
    expect(scores.meta).toBeGreaterThanOrEqual(85);
    expect(scores.meta).toBeLessThanOrEqual(92);
    expect(scores.overall).toBeGreaterThanOrEqual(90);
    expect(scores.overall).toBeLessThanOrEqual(97);
  });

  it('4: a missing title on every page: META <= 50, overall <= 60', () => {
    const { scores } = score({ pages: 200, failing: { META_TITLE_MISSING: 'all' } });
    expect(scores.meta).toBeLessThanOrEqual(50);
    expect(scores.overall).toBeLessThanOrEqual(60);
  });

  it('5: no meta description on any page: META 65-80, overall 93-98', () => {
    const { scores } = score({ pages: 200, failing: { META_DESCRIPTION_MISSING: 'all' } });
    expect(scores.meta).toBeGreaterThanOrEqual(65);
    expect(scores.meta).toBeLessThanOrEqual(80);
    expect(scores.overall).toBeGreaterThanOrEqual(93);
    expect(scores.overall).toBeLessThanOrEqual(98);
  });

  it('6: no viewport on any page: META <= 75, and <= 45 with no description either', () => {
    expect(score({ pages: 200, failing: { META_VIEWPORT_MISSING: 'all' } }).scores.meta).toBeLessThanOrEqual(75);
    const both = score({ pages: 200, failing: { META_VIEWPORT_MISSING: 'all', META_DESCRIPTION_MISSING: 'all' } });
    expect(both.scores.meta).toBeLessThanOrEqual(45);
  });

  it('7: 5 pages (2.5%) with a broken internal link: LINKS <= 98, overall <= 99', () => {
    const { scores, breakdown } = score({
      pages: 200,
      failing: { LINKS_INTERNAL_BROKEN: 5 },
      // The link's target answered 404: crawled, but not an HTML page of the site.
      targets: [{ url: 'https://generated.example/gone', failing: ['TECH_STATUS_4XX'] }],
    });
    expect(scores.links).toBeLessThanOrEqual(98);
    expect(scores.overall).toBeLessThanOrEqual(99);
    expect(breakdown.htmlPages).toBe(200);
    expect(breakdown.pagesWithCritical).toBe(5);
  });

  it('8: one page answers 500: TECHNICAL <= 99', () => {
    expect(score({ pages: 200, failing: { TECH_STATUS_5XX: 1 } }).scores.technical).toBeLessThanOrEqual(99);
  });

  it('9: three notice-level issues on every page: overall >= 97', () => {
    // The worst case: three notices of one category.
    const category = NOTICE_PAGE_CODES.map((code) => getCheck(code).category).find(
      (c) => NOTICE_PAGE_CODES.filter((code) => getCheck(code).category === c).length >= 3,
    );
    const three = NOTICE_PAGE_CODES.filter((code) => getCheck(code).category === category).slice(0, 3);
    const failing = Object.fromEntries(three.map((code) => [code, 'all' as const]));
    const { scores, breakdown } = score({ pages: 200, failing });
    expect(breakdown.costs).toHaveLength(3);
    expect(scores.overall).toBeGreaterThanOrEqual(97);
  });

  it('10: noindex on every page: overall <= 50', () => {
    const { scores, breakdown } = score({
      pages: 200,
      failing: { TECH_NOINDEX: 'all' },
      siteFailing: ['TECH_NOINDEX_SITEWIDE'],
    });
    expect(scores.overall).toBeLessThanOrEqual(50);
    expect(breakdown.blockers).toEqual(['TECH_NOINDEX_SITEWIDE']);
  });

  it('11: 150 pages, 4 missing titles and one 500 page, then all fixed: overall rises by >= 2', () => {
    const before = score({ pages: 150, failing: { META_TITLE_MISSING: 4, TECH_STATUS_5XX: 1 } });
    const after = score({ pages: 150 });
    expect(after.scores.overall - before.scores.overall).toBeGreaterThanOrEqual(2);
  });

  it('12: one issue on one page, then the same issue on 10 pages: the score with 10 is strictly lower', () => {
    const critical = (n: number) => score({ pages: 200, failing: { META_TITLE_MISSING: n } }).scores;
    expect(critical(10).overall).toBeLessThan(critical(1).overall);
    expect(critical(10).meta).toBeLessThan(critical(1).meta);
    const warning = (n: number) => score({ pages: 200, failing: { META_DESCRIPTION_MISSING: n } }).scores;
    expect(warning(10).meta).toBeLessThan(warning(1).meta);
  });
});
