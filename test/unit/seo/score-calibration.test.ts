/**
 * The calibration table of docs/scores.md ("Calibration", rows 1-18; row 19 is the comparison's), one test per row and
 * scheme, on generated sites: every page-level check of the catalog evaluated on every page (passing unless the row
 * names it), every site-level check evaluated once, folded by the audit's own aggregator and scored by the audit's
 * own formula, as the engine does. An http site is what the evaluators make of one: TECH_HTTP_PAGE fails on every
 * page, and the checks that judge https responses only (HSTS, security headers, mixed content, secure cookies, links
 * from https to http) do not apply.
 */
import { describe, expect, it } from 'vitest';
import {
  CHECK_CATALOG,
  CHECK_THRESHOLDS,
  CheckAggregator,
  getCheck,
  type CheckCode,
} from '../../../src/seo/checks/index.js';
import { banded } from '../../../src/seo/checks/check-outcome.js';
import {
  NO_INDEXABLE_PAGES,
  blockerNotices,
  scoreAudit,
  type Indexability,
  type ScoreResult,
} from '../../../src/seo/scoring/index.js';

type Scheme = 'https' | 'http';

interface GeneratedSite {
  /** HTML pages, /p/0 .. /p/N-1. */
  pages: number;
  /** Page-level codes failing on the first n pages ('all': every page). */
  failing?: Partial<Record<CheckCode, number | 'all'>>;
  /** Page-level codes failing at another severity than the catalog's on the first n pages (banded checks). */
  banded?: { code: CheckCode; pages: number | 'all'; severity: 'NOTICE' | 'WARNING' }[];
  /** Site-level codes that fail. */
  siteFailing?: CheckCode[];
  /** Non-HTML URLs the crawl also fetched (a link's 404 target), each with the page-level codes failing on it. */
  targets?: { url: string; failing: CheckCode[] }[];
  /** Every page names a canonical URL on another host. */
  canonicalOtherHost?: boolean;
}

const PAGE_CODES = CHECK_CATALOG.filter((c) => c.scope === 'page').map((c) => c.code as CheckCode);
const SITE_CODES = CHECK_CATALOG.filter((c) => c.scope === 'site').map((c) => c.code as CheckCode);
/** What an http response makes of the scheme-dependent checks: not applicable (they judge https responses). */
const HTTPS_ONLY = new Set<CheckCode>([
  'TECH_HSTS_MISSING',
  'TECH_HSTS_SHORT',
  'TECH_CSP_MISSING',
  'TECH_CONTENT_TYPE_OPTIONS_MISSING',
  'TECH_CLICKJACKING_UNPROTECTED',
  'TECH_MIXED_CONTENT',
  'TECH_COOKIE_INSECURE',
  'LINKS_HTTPS_TO_HTTP',
]);

function scoreOn(scheme: Scheme, site: GeneratedSite): ScoreResult {
  const aggregator = new CheckAggregator({ maxOccurrencesPerCode: 20 });
  const upTo = (n: number | 'all' | undefined, page: number) => n === 'all' || (n !== undefined && page < n);
  const failingOn = (code: CheckCode, page: number) =>
    upTo(site.failing?.[code], page) || (scheme === 'http' && code === 'TECH_HTTP_PAGE');
  const urls: string[] = [];
  let noindex = 0;
  for (let page = 0; page < site.pages; page++) {
    const url = `${scheme}://generated.example/p/${page}`;
    urls.push(url);
    if (failingOn('TECH_NOINDEX', page)) noindex++;
    aggregator.addPageResults(url, [
      ...PAGE_CODES.filter((code) => scheme === 'https' || !HTTPS_ONLY.has(code)).map((code) => {
        const band = site.banded?.find((b) => b.code === code && upTo(b.pages, page));
        return band
          ? { code, applicable: true, failed: true, severity: band.severity }
          : { code, applicable: true, failed: failingOn(code, page) };
      }),
    ]);
  }
  for (const target of site.targets ?? []) {
    aggregator.addPageResults(
      target.url.replace(/^https:/, `${scheme}:`),
      target.failing.map((code) => ({ code, applicable: true, failed: true })),
    );
  }
  aggregator.addSiteResults(
    SITE_CODES.filter((code) => scheme === 'https' || !HTTPS_ONLY.has(code)).map((code) => {
      const failed = site.siteFailing?.includes(code) ?? false;
      return { code, applicable: true, failed, occurrences: failed ? [{ url: urls[0] }] : [], applicablePages: 1 };
    }),
  );
  const canonicalOtherHost = site.canonicalOtherHost ? site.pages - noindex : 0;
  const indexability: Indexability = {
    indexable: site.pages - noindex - canonicalOtherHost,
    noindex,
    canonicalOtherHost,
    canonicalSameHost: 0,
  };
  return scoreAudit(aggregator.aggregates(), {
    pages: { html: site.pages, withCritical: aggregator.pagesWithCritical(urls), indexability },
    startUrlStatus: 200,
  });
}

const NOTICE_PAGE_CODES = PAGE_CODES.filter((code) => getCheck(code).severity === 'NOTICE');

describe('score calibration (docs/scores.md), row 1 (https; row 13 is the http site)', () => {
  it('1: a clean site scores 100 everywhere', () => {
    const { scores, breakdown } = scoreOn('https', { pages: 200 });
    expect(scores).toEqual({ overall: 100, meta: 100, content: 100, links: 100, technical: 100, performance: 100 });
    expect(breakdown).toMatchObject({ health: 100, costs: [], cappedFrom: null, blockers: [] });
  });
});

describe.each(['https', 'http'] as const)(
  'score calibration (docs/scores.md) on %s sites of 200 HTML pages',
  (scheme) => {
    const score = (site: GeneratedSite) => scoreOn(scheme, site);

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
      // On http, "No HTTPS" is charged too (row 13).
      expect(breakdown.costs.filter((c) => c.code !== 'TECH_HTTP_PAGE')).toHaveLength(3);
      expect(scores.overall).toBeGreaterThanOrEqual(97);
    });

    it('10: noindex on every page: overall <= 50', () => {
      const { scores, breakdown } = score({
        pages: 200,
        failing: { TECH_NOINDEX: 'all' },
        siteFailing: ['TECH_NOINDEX_SITEWIDE'],
      });
      expect(scores.overall).toBeLessThanOrEqual(50);
      expect(breakdown.blockers).toEqual(['TECH_NOINDEX_SITEWIDE', NO_INDEXABLE_PAGES]);
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
  },
);

describe('score calibration (docs/scores.md), rows 13-18: http sites and Scoring v2', () => {
  it('13: a clean site served over http: health 100%, overall 85-98 and below https, "No HTTPS" first', () => {
    const http = scoreOn('http', { pages: 200 });
    const https = scoreOn('https', { pages: 200 });
    expect(http.breakdown.health).toBe(100);
    expect(http.scores.overall).toBeGreaterThanOrEqual(85);
    expect(http.scores.overall).toBeLessThanOrEqual(98);
    expect(http.scores.overall).toBeLessThan(https.scores.overall);
    expect(http.breakdown.costs[0]).toMatchObject({ code: 'TECH_HTTP_PAGE', severity: 'WARNING', scope: 'site' });
    expect(getCheck('TECH_HTTP_PAGE').title).toBe('No HTTPS');
  });

  it.each(['http', 'https'] as const)(
    '14: noindex on every page (%s): overall <= 50, banner "0 indexable pages"',
    (s) => {
      const { scores, breakdown } = scoreOn(s, {
        pages: 200,
        failing: { TECH_NOINDEX: 'all' },
        siteFailing: ['TECH_NOINDEX_SITEWIDE'],
      });
      expect(scores.overall).toBeLessThanOrEqual(50);
      expect(breakdown.health).toBe(100);
      const [banner, ...others] = blockerNotices(breakdown);
      expect(banner.message).toMatch(/^0 indexable pages: every page is noindex\./);
      expect(banner.message).toContain('thin and duplicate content checks are not applicable');
      expect(others).toEqual([]);
    },
  );

  it.each(['http', 'https'] as const)('15: 150 pages, 4 titles + one 500 then fixed (%s): rises by >= 2', (s) => {
    const before = scoreOn(s, { pages: 150, failing: { META_TITLE_MISSING: 4, TECH_STATUS_5XX: 1 } });
    const after = scoreOn(s, { pages: 150 });
    expect(after.scores.overall - before.scores.overall).toBeGreaterThanOrEqual(2);
  });

  it.each(['http', 'https'] as const)('16: a missing title on 1 page vs 10 pages (%s): 10 strictly lower', (s) => {
    const one = scoreOn(s, { pages: 200, failing: { META_TITLE_MISSING: 1 } }).scores;
    const ten = scoreOn(s, { pages: 200, failing: { META_TITLE_MISSING: 10 } }).scores;
    expect(ten.overall).toBeLessThan(one.overall);
  });

  it.each(['http', 'https'] as const)(
    '17: a DOM of 1,600 nodes on every page (%s): WARNING, health 100, PERF >= 70',
    (s) => {
      // The evaluator's band for 1,600 nodes, not a severity written here.
      const band = banded(1_600, CHECK_THRESHOLDS.metrics.PERF_DOM_SIZE, {});
      expect(band).toMatchObject({ failed: true, severity: 'WARNING' });
      const { scores, breakdown } = scoreOn(s, {
        pages: 200,
        banded: [{ code: 'PERF_DOM_SIZE', pages: 'all', severity: band!.severity as 'WARNING' }],
      });
      const dom = breakdown.costs.find((c) => c.code === 'PERF_DOM_SIZE');
      expect(dom).toMatchObject({ severity: 'WARNING', affectedPages: 200 });
      expect(breakdown.health).toBe(100);
      expect(scores.performance).toBeGreaterThanOrEqual(70);
    },
  );

  it('17b: each page is charged at its own band (100 NOTICE pages and 100 WARNING pages)', () => {
    const mixed = scoreOn('https', {
      pages: 200,
      banded: [
        { code: 'PERF_DOM_SIZE', pages: 100, severity: 'WARNING' },
        { code: 'PERF_DOM_SIZE', pages: 'all', severity: 'NOTICE' },
      ],
    });
    const dom = mixed.breakdown.costs.find((c) => c.code === 'PERF_DOM_SIZE')!;
    expect(dom.severity).toBe('WARNING');
    // 100 x 0.3 x 100/200 + 100 x 0.03 x 100/200, not 100 x 0.3 x 200/200.
    expect(dom.points).toBeCloseTo(16.5, 6);
  });

  it.each(['http', 'https'] as const)(
    '18: every page canonical to another host (%s): <= 50, "0 indexable pages"',
    (s) => {
      const { scores, breakdown } = scoreOn(s, { pages: 200, canonicalOtherHost: true });
      expect(scores.overall).toBeLessThanOrEqual(50);
      expect(breakdown.blockers).toEqual([NO_INDEXABLE_PAGES]);
      expect(blockerNotices(breakdown)[0].message).toMatch(
        /^0 indexable pages: every page is canonical to another host\./,
      );
    },
  );
});
