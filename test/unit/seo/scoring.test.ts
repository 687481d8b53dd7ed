import { describe, expect, it } from 'vitest';
import { CheckAggregator } from '../../../src/seo/checks/index.js';
import {
  LIGHTHOUSE_CONTROL_POINTS,
  FIX_CEILINGS,
  computeScores,
  fixCost,
  fixGroupCost,
  placeCost,
  getLogNormalScore,
  healthOf,
  issueCost,
  issuePriority,
  lighthousePerformanceScore,
  metricScore,
  scoreAudit,
  type LighthouseMetric,
  type ScoredCheck,
} from '../../../src/seo/scoring/index.js';

/** Shorthand: a check with `affected` of `applicable` pages failing; severity/category/scope from the catalog. */
const check = (code: string, affected: number, applicable: number, extra: Partial<ScoredCheck> = {}): ScoredCheck => ({
  code,
  affectedPages: affected,
  applicablePages: applicable,
  ...extra,
});

const pages = (html: number, withCritical = 0) => ({ pages: { html, withCritical } });

describe('issueCost', () => {
  it.each([
    // 100 × weight × share of the crawled HTML pages
    ['CRITICAL on 20 of 200 pages', check('META_TITLE_MISSING', 20, 200), 200, 10],
    ['WARNING on every page', check('META_DESCRIPTION_MISSING', 200, 200), 200, 30],
    ['NOTICE on every page', check('META_TITLE_TOO_SHORT', 200, 200), 200, 3],
    ['WARNING on 1 of 200 pages', check('META_DESCRIPTION_MISSING', 1, 200), 200, 0.15],
    // A CRITICAL issue costs at least 1 point, however few pages it affects.
    ['CRITICAL on 1 of 200 pages', check('TECH_STATUS_5XX', 1, 200), 200, 1],
    // The share is of HTML pages, whatever the check was applicable to (a 404 target is not a page).
    ['share of HTML pages, not of applicable URLs', check('TECH_STATUS_4XX', 3, 103), 100, 3],
    // Banded checks cost by their worst failing band.
    ['banded, CRITICAL band', check('PERF_LCP', 10, 10, { severity: 'CRITICAL' }), 10, 100],
    // Site-level checks cost a fixed amount by severity.
    ['site-level WARNING', check('TECH_SITEMAP_MISSING', 1, 1), 200, 5],
    ['site-level CRITICAL', check('TECH_ROBOTS_BLOCKS_ALL', 1, 1), 200, 15],
    ['site-level NOTICE', check('TECH_LLMS_TXT_MISSING', 1, 1), 200, 0.5],
  ] as const)('%s', (_name, input, htmlPages, points) => {
    expect(issueCost(input, htmlPages)?.points).toBeCloseTo(points, 10);
  });

  it('is null for a passing or not applicable check', () => {
    expect(issueCost(check('META_TITLE_MISSING', 0, 4), 4)).toBeNull();
    expect(issueCost(check('META_TITLE_MISSING', 0, 0), 4)).toBeNull();
  });
});

describe('fixes (Scoring v3: a fix is the unit of cost)', () => {
  const fixes = (reach: number[]) => ({
    fixes: { count: reach.length, listed: reach.map((pages, i) => ({ cause: `/gone/${i}`, pages })), reach },
  });

  it("costs one fix its severity's ceiling times the square root of its reach", () => {
    expect(fixCost('CRITICAL', 200, 200)).toBe(FIX_CEILINGS.CRITICAL);
    expect(fixCost('CRITICAL', 50, 200)).toBeCloseTo(FIX_CEILINGS.CRITICAL / 2, 10);
    expect(fixCost('WARNING', 200, 200)).toBe(FIX_CEILINGS.WARNING);
    // A fix cannot reach more than every page.
    expect(fixCost('NOTICE', 300, 200)).toBe(FIX_CEILINGS.NOTICE);
  });

  it('adds places in quadrature: more places cost more, never more than every page', () => {
    const place = (pages: number, fixes = 1) => ({ pages, fixes });
    const one = fixGroupCost('CRITICAL', [place(200)], 200);
    const two = fixGroupCost('CRITICAL', [place(200), place(100)], 200);
    expect(one).toBeCloseTo(35, 10);
    // √(35² + (35·√0.5)²) = 35·√1.5 = 42.87: more than one, less than the two added.
    expect(two).toBeCloseTo(35 * Math.sqrt(1.5), 10);
    // Twenty targets each on 1% of the pages cost what one on 20% costs.
    expect(
      fixGroupCost(
        'CRITICAL',
        Array.from({ length: 20 }, () => place(2)),
        200,
      ),
    ).toBeCloseTo(fixGroupCost('CRITICAL', [place(40)], 200), 10);
    expect(
      fixGroupCost(
        'CRITICAL',
        Array.from({ length: 1_000 }, () => place(200)),
        200,
      ),
    ).toBe(100);
    expect(
      fixGroupCost(
        'WARNING',
        Array.from({ length: 1_000 }, () => place(200)),
        200,
      ),
    ).toBe(30);
  });

  it('charges a place of k fixes on the very same pages as one fix times 1 + log10 k', () => {
    expect(placeCost('CRITICAL', { pages: 50, fixes: 1 }, 200)).toBeCloseTo(17.5, 10);
    expect(placeCost('CRITICAL', { pages: 50, fixes: 10 }, 200)).toBeCloseTo(35, 10);
    // 330 dead targets listed on one page of 1,000 are one place: 35 × √0.001 × (1 + log10 330) = 3.86.
    expect(fixGroupCost('CRITICAL', [{ pages: 1, fixes: 330 }], 1_000)).toBeCloseTo(
      35 * Math.sqrt(0.001) * (1 + Math.log10(330)),
      10,
    );
  });

  it('prices a broken internal link by its target (CRITICAL: the target is out of search), not by its pages', () => {
    // One target on every page: one fix at its ceiling; the check's own severity (WARNING) is the linking page's.
    const cost = issueCost(check('LINKS_INTERNAL_BROKEN', 200, 200, fixes([200])), 200)!;
    expect(cost).toMatchObject({ severity: 'WARNING', points: 35, fixes: { count: 1 } });
    // Two targets on 200 pages, not told whether the same: two places, √2 × 35.
    expect(issueCost(check('LINKS_INTERNAL_BROKEN', 200, 200, fixes([200, 200])), 200)!.points).toBeCloseTo(
      35 * Math.SQRT2,
    );
    // Told they are on the very same pages: one place of two fixes, 35 × (1 + log10 2), and the cost says so.
    const same = { ...fixes([200, 200]).fixes, places: [{ pages: 200, fixes: 2 }] };
    const placed = issueCost(check('LINKS_INTERNAL_BROKEN', 200, 200, { fixes: same }), 200)!;
    expect(placed.points).toBeCloseTo(35 * (1 + Math.log10(2)));
    expect(placed.fixes).toMatchObject({ count: 2, places: 1 });
  });

  it("prices a fix at a project's overridden severity, not the catalog's fix severity", () => {
    const notice = issueCost(check('LINKS_INTERNAL_BROKEN', 200, 200, { severity: 'NOTICE', ...fixes([200]) }), 200);
    expect(notice!.points).toBeCloseTo(FIX_CEILINGS.NOTICE, 10);
  });

  it('costs nothing for failing URLs another fix is charged for, and the rest as before', () => {
    expect(issueCost(check('TECH_STATUS_4XX', 3, 3, { chargedElsewhere: 3 }), 100)).toBeNull();
    expect(issueCost(check('TECH_STATUS_4XX', 3, 3, { chargedElsewhere: 1 }), 100)!.points).toBe(2);
  });

  it('counts a page shown worse in search as 2/3 of a healthy page, and a critical one not at all', () => {
    expect(healthOf(200, 0, 200)).toBeCloseTo(200 / 3, 10);
    expect(healthOf(200, 100, 100)).toBeCloseTo(100 / 3, 10);
    // A page both critical and shown worse counts once, as critical (the caller counts the others).
    expect(healthOf(200, 200, 200)).toBe(0);
    expect(healthOf(0, 0, 0)).toBe(100);
  });
});

describe('a site check charged by its spread (bySpread: duplicates)', () => {
  it('costs its fixed 5 on a few pages and half its page-level cost when it spreads over many', () => {
    // Two pages of 200 share a title: the fixed site-level cost.
    expect(issueCost(check('META_TITLE_DUPLICATE', 2, 200), 200)!.points).toBe(5);
    // 2,072 language copies of 2,657 pages: 0.5 × 100 × 0.3 × 2,072 / 2,657 = 11.7.
    expect(issueCost(check('META_TITLE_DUPLICATE', 2_072, 2_657), 2_657)!.points).toBeCloseTo(
      (0.5 * 100 * 0.3 * 2_072) / 2_657,
      10,
    );
    // A plain site check (no spread) keeps its fixed cost however many pages its evidence names.
    expect(issueCost(check('TECH_SITEMAP_MISSING', 2_072, 2_657), 2_657)!.points).toBe(5);
  });
});

describe('issuePriority', () => {
  const stored = (code: string, severity: 'CRITICAL' | 'WARNING' | 'NOTICE', affected: number, applicable: number) =>
    ({ code, severity, category: 'META', affectedPages: affected, applicablePages: applicable }) as const;

  it('is the cost: a wide WARNING comes before a CRITICAL on one page in a hundred', () => {
    const title = issuePriority(stored('META_TITLE_MISSING', 'CRITICAL', 1, 100), 100);
    const description = issuePriority(stored('META_DESCRIPTION_MISSING', 'WARNING', 80, 100), 100);
    expect(title).toBe(1);
    expect(description).toBeCloseTo(24, 10);
    expect(description).toBeGreaterThan(title);
  });

  it('is a fixed amount for a site-level issue, and a share of the applicable pages without an HTML count', () => {
    expect(issuePriority(stored('TECH_SITEMAP_MISSING', 'WARNING', 1, 1), 100)).toBe(5);
    expect(issuePriority(stored('META_DESCRIPTION_MISSING', 'WARNING', 5, 10), null)).toBeCloseTo(15, 10);
  });

  it('ranks a code the catalog no longer has as a page-level issue of its stored severity', () => {
    expect(issuePriority(stored('META_RETIRED_CHECK', 'CRITICAL', 50, 100), 100)).toBe(50);
  });
});

describe('scoreAudit', () => {
  it('takes each category its costs off 100 and blends health with the weighted categories', () => {
    // 100 HTML pages, 4 of them with a CRITICAL issue:
    //   META: title missing on 4 (4 × 1.0 = 4) and description missing on 50 (0.3 × 50 = 15) → 81
    //   TECHNICAL: sitemap missing (site WARNING 5) → 95
    //   categories = (20×81 + 20×100 + 20×100 + 25×95 + 15×100) / 100 = (1620 + 4000 + 2375 + 1500) / 100 = 94.95
    //   health = 96; overall = round(0.5 × 96 + 0.5 × 94.95) = round(95.475) = 95
    const { scores, breakdown } = scoreAudit(
      [
        check('META_TITLE_MISSING', 4, 100),
        check('META_DESCRIPTION_MISSING', 50, 100),
        check('TECH_SITEMAP_MISSING', 1, 1),
        check('CONTENT_H1_MISSING', 0, 100),
      ],
      pages(100, 4),
    );
    expect(scores).toEqual({ overall: 95, meta: 81, content: 100, links: 100, technical: 95, performance: 100 });
    expect(breakdown).toEqual({
      health: 96,
      htmlPages: 100,
      pagesWithCritical: 4,
      // Four checks applied, one passed everywhere.
      checksApplied: 4,
      checksPassed: 1,
      labPerformance: null,
      cappedFrom: null,
      blockers: [],
      // By what each takes off the overall score: the titles 2.4 (0.4 META, 2 health), the descriptions 1.5, the
      // sitemap 0.625 (5 TECHNICAL points of its 25% of the categories' half).
      costs: [
        expect.objectContaining({ code: 'META_TITLE_MISSING', severity: 'CRITICAL', affectedPages: 4, points: 4 }),
        expect.objectContaining({ code: 'META_DESCRIPTION_MISSING', category: 'META', points: 15 }),
        expect.objectContaining({ code: 'TECH_SITEMAP_MISSING', category: 'TECHNICAL', scope: 'site', points: 5 }),
      ],
    });
  });

  it('never takes a category below 0', () => {
    const { scores } = scoreAudit(
      [check('META_TITLE_MISSING', 10, 10), check('META_DESCRIPTION_MISSING', 10, 10)],
      pages(10, 10),
    );
    expect(scores.meta).toBe(0);
  });

  it('scores the aggregator output directly, health from its pages with a CRITICAL result', () => {
    const aggregator = new CheckAggregator();
    aggregator.addPageResults('https://e.com/1', [
      { code: 'META_TITLE_MISSING', applicable: true, failed: true },
      { code: 'META_DESCRIPTION_MISSING', applicable: true, failed: false },
    ]);
    aggregator.addPageResults('https://e.com/2', [
      { code: 'META_TITLE_MISSING', applicable: true, failed: false },
      { code: 'META_DESCRIPTION_MISSING', applicable: true, failed: true },
    ]);
    aggregator.addSiteResults([
      {
        code: 'TECH_SITEMAP_MISSING',
        applicable: true,
        failed: true,
        occurrences: [{ url: 'https://e.com/robots.txt' }],
        applicablePages: 1,
      },
    ]);
    const urls = ['https://e.com/1', 'https://e.com/2'];
    expect(aggregator.pagesWithCritical(urls)).toBe(1);
    // META: 100 × 1.0 × 1/2 + 100 × 0.3 × 1/2 = 50 + 15 = 65 → 35; TECHNICAL 95; health 50.
    // categories = (20×35 + 40×100 + 25×95 + 15×100) / 100 = 85.75; overall = round(25 + 42.875) = 68
    const { scores } = scoreAudit(aggregator.aggregates(), {
      pages: { html: 2, withCritical: aggregator.pagesWithCritical(urls) },
    });
    expect(scores).toEqual({ overall: 68, meta: 35, content: 100, links: 100, technical: 95, performance: 100 });
  });

  it('scores 100 everywhere when nothing applies', () => {
    expect(computeScores([])).toEqual({
      overall: 100,
      meta: 100,
      content: 100,
      links: 100,
      technical: 100,
      performance: 100,
    });
  });

  it('counts the pages from the widest page-level check when the caller does not', () => {
    // 1 of 4 pages: 100 × 1.0 × 1/4 = 25 → META 75; health unknown (100).
    expect(computeScores([check('META_TITLE_MISSING', 1, 4), check('TECH_SITEMAP_MISSING', 0, 1)]).meta).toBe(75);
  });

  it.each([
    ['robots.txt blocks all', [check('TECH_ROBOTS_BLOCKS_ALL', 1, 1)], undefined, ['TECH_ROBOTS_BLOCKS_ALL']],
    ['site-wide noindex', [check('TECH_NOINDEX_SITEWIDE', 1, 1)], undefined, ['TECH_NOINDEX_SITEWIDE']],
    ['robots.txt unreachable', [check('TECH_ROBOTS_UNREACHABLE', 1, 1)], undefined, ['TECH_ROBOTS_UNREACHABLE']],
    ['start URL answers 404', [], 404, ['START_URL_404']],
    ['start URL answers 503', [], 503, ['START_URL_503']],
  ] as const)('caps the overall score at 50: %s', (_name, checks, startUrlStatus, blockers) => {
    const { scores, breakdown } = scoreAudit(checks, { ...pages(10), startUrlStatus });
    expect(scores.overall).toBe(50);
    expect(breakdown.blockers).toEqual(blockers);
    expect(breakdown.cappedFrom).toBeGreaterThan(50);
  });

  it('does not cap for passing blocker checks, and keeps a score already under the cap', () => {
    expect(computeScores([check('TECH_ROBOTS_BLOCKS_ALL', 0, 1)], { startUrlStatus: 200 }).overall).toBe(100);
    // META 0, CONTENT 70, LINKS 65 (one broken target on every page: a fix at its ceiling, 35), TECHNICAL 85
    // (blocker 15); health 0: categories = (0 + 20×70 + 20×65 + 25×85 + 15×100) / 100 = 63.25;
    // overall = round(0 + 31.625) = 32, under the cap
    const { scores, breakdown } = scoreAudit(
      [
        check('META_TITLE_MISSING', 4, 4),
        check('CONTENT_H1_MISSING', 4, 4),
        check('LINKS_INTERNAL_BROKEN', 4, 4),
        check('TECH_ROBOTS_BLOCKS_ALL', 1, 1),
      ],
      pages(4, 4),
    );
    expect(scores.overall).toBe(32);
    expect(breakdown.cappedFrom).toBeNull();
  });

  it("uses Lighthouse's score for performance when lab metrics exist, minus the category's other costs", () => {
    const checks = [check('PERF_LCP', 2, 2, { severity: 'CRITICAL' })];
    expect(computeScores(checks, pages(2)).performance).toBe(0);
    // Every metric at its "good" threshold scores 0.90 → 90; the LCP check Lighthouse already weighs costs nothing.
    const good = { fcpMs: 1_800, lcpMs: 2_500, tbtMs: 200, cls: 0.1, speedIndexMs: 3_387 };
    expect(computeScores(checks, { ...pages(2), labMetrics: good }).performance).toBe(90);
    // Two pages, one all-good (0.90) and one at the poor thresholds (0.50): mean 0.70 → 70.
    const poor = { fcpMs: 3_000, lcpMs: 4_000, tbtMs: 600, cls: 0.25, speedIndexMs: 5_800 };
    expect(computeScores(checks, { ...pages(2), labMetrics: [good, poor] }).performance).toBe(70);
    // A performance issue Lighthouse does not measure still costs: DOM size (WARNING) on both pages, 30 → 60.
    const withDom = [...checks, check('PERF_DOM_SIZE', 2, 2)];
    const scored = scoreAudit(withDom, { ...pages(2), labMetrics: good });
    expect(scored.scores.performance).toBe(60);
    expect(scored.breakdown.labPerformance).toBe(90);
    // Lab data without any Lighthouse metric falls back to the checks.
    expect(computeScores(checks, { ...pages(2), labMetrics: { inpMs: 100 } }).performance).toBe(0);
  });
});

describe('Lighthouse metric scoring', () => {
  it.each(Object.entries(LIGHTHOUSE_CONTROL_POINTS) as [LighthouseMetric, { p10: number; median: number }][])(
    '%s: p10 scores 0.90 and the median 0.50',
    (metric, { p10, median }) => {
      expect(Math.abs(metricScore(metric, p10) - 0.9)).toBeLessThanOrEqual(0.005);
      expect(Math.abs(metricScore(metric, median) - 0.5)).toBeLessThanOrEqual(0.005);
    },
  );

  it('uses the docs/scores.md control points', () => {
    expect(LIGHTHOUSE_CONTROL_POINTS).toMatchObject({
      FCP: { p10: 1_800, median: 3_000 },
      LCP: { p10: 2_500, median: 4_000 },
      TBT: { p10: 200, median: 600 },
      CLS: { p10: 0.1, median: 0.25 },
    });
  });

  it('matches the log-normal distribution derived from the control points', () => {
    // score(v) = 1 − Φ((ln v − ln median) / σ), σ = (ln median − ln p10) / z₀.₉ (z₀.₉ = 1.2815515655),
    // with Φ computed here by Simpson integration — independent of the erf approximation under test.
    const phi = (z: number): number => {
      const steps = 2_000;
      const a = -10;
      const h = (z - a) / steps;
      const f = (x: number): number => Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI);
      let sum = f(a) + f(z);
      for (let i = 1; i < steps; i++) sum += (i % 2 === 0 ? 2 : 4) * f(a + i * h);
      return (sum * h) / 3;
    };
    const { p10, median } = LIGHTHOUSE_CONTROL_POINTS.LCP;
    const sigma = (Math.log(median) - Math.log(p10)) / 1.2815515655;
    for (const value of [500, 1_500, 2_000, 3_000, 3_500, 5_000, 8_000, 12_000]) {
      const expected = 1 - phi((Math.log(value) - Math.log(median)) / sigma);
      expect(metricScore('LCP', value), `LCP ${value}`).toBeCloseTo(expected, 4);
    }
  });

  it('is 1 at zero, decreasing, and keeps each band within its range', () => {
    expect(metricScore('TBT', 0)).toBe(1);
    const values = [50, 150, 200, 300, 599, 600, 900, 3_000];
    const scores = values.map((value) => metricScore('TBT', value));
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]);
    expect(metricScore('TBT', 199)).toBeGreaterThanOrEqual(0.9);
    expect(metricScore('TBT', 201)).toBeLessThan(0.9);
    expect(metricScore('TBT', 601)).toBeLessThan(0.5);
  });

  it('rejects control points that cannot describe a curve', () => {
    expect(() => getLogNormalScore({ p10: 5, median: 5 }, 1)).toThrow(RangeError);
  });

  it('re-normalizes the weights over the metrics present', () => {
    // LCP at its median (0.50, weight 25) and TBT at p10 (0.90, weight 30):
    // (25×0.50 + 30×0.90) / 55 = 39.5/55 = 0.7182
    expect(lighthousePerformanceScore({ lcpMs: 4_000, tbtMs: 200 })).toBeCloseTo(39.5 / 55, 6);
    expect(lighthousePerformanceScore({ inpMs: 300 })).toBeNull();
  });
});
