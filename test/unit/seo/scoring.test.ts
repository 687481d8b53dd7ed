import { describe, expect, it } from 'vitest';
import { aggregateChecks } from '../../../src/seo/checks/index.js';
import {
  LIGHTHOUSE_CONTROL_POINTS,
  categoryScore,
  computeScores,
  getLogNormalScore,
  lighthousePerformanceScore,
  metricScore,
  passRate,
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

describe('passRate', () => {
  it.each([
    ['page check, 1 of 4 pages affected', check('META_TITLE_MISSING', 1, 4), 0.75],
    ['page check, none affected', check('META_TITLE_MISSING', 0, 4), 1],
    ['site check failing: 0 whatever the page counts', check('META_TITLE_DUPLICATE', 2, 40), 0],
    ['site check passing', check('TECH_ROBOTS_MISSING', 0, 1), 1],
    ['not applicable', check('META_TITLE_MISSING', 0, 0), null],
  ])('%s', (_name, input, expected) => {
    expect(passRate(input)).toBe(expected);
  });
});

describe('categoryScore', () => {
  it.each([
    // META: CRITICAL failing on 1 of 4 pages, WARNING passing: (10×0.75 + 5×1) / (10+5) = 12.5/15 = 83.33 → 83
    ['META', [check('META_TITLE_MISSING', 1, 4), check('META_DESCRIPTION_MISSING', 0, 4)], 83],
    // TECHNICAL: WARNING site check failing (0), CRITICAL 0/10, NOTICE 5/10:
    // (5×0 + 10×1 + 1×0.5) / (5+10+1) = 10.5/16 = 65.625 → 66
    [
      'TECHNICAL',
      [check('TECH_ROBOTS_MISSING', 1, 1), check('TECH_STATUS_4XX', 0, 10), check('TECH_NOINDEX', 5, 10)],
      66,
    ],
    // No applicable check in the category → 100; checks of other categories are ignored.
    ['CONTENT', [check('META_TITLE_MISSING', 4, 4), check('CONTENT_H1_MISSING', 0, 0)], 100],
    // Banded checks weigh by their worst failing band: PERF_LCP CRITICAL 1/2, PERF_DOM_SIZE WARNING 0/2:
    // (10×0.5 + 5×1) / (10+5) = 10/15 = 66.67 → 67
    ['PERFORMANCE', [check('PERF_LCP', 1, 2, { severity: 'CRITICAL' }), check('PERF_DOM_SIZE', 0, 2)], 67],
    // Halves round up despite binary noise: WARNING 27/40 affected → 100 × (1 − 0.675) = 32.5 → 33
    // (computed naively in floating point it is 32.49999999999999, which Math.round would make 32)
    ['LINKS', [check('LINKS_TO_REDIRECT', 27, 40)], 33],
    // LINKS: CRITICAL 3/3 failing, NOTICE 0/3: (10×0 + 1×1)/11 = 9.09 → 9
    ['LINKS', [check('LINKS_INTERNAL_BROKEN', 3, 3), check('LINKS_DEAD_END', 0, 3)], 9],
  ] as const)('%s %#', (category, checks, expected) => {
    expect(categoryScore(category, checks)).toBe(expected);
  });
});

describe('computeScores', () => {
  it('combines category scores with weights 20/20/20/25/15', () => {
    // meta 83 (as above), technical 66 (as above), others 100:
    // (20×83 + 20×100 + 20×100 + 25×66 + 15×100) / 100 = (1660 + 2000 + 2000 + 1650 + 1500) / 100 = 88.1 → 88
    const scores = computeScores([
      check('META_TITLE_MISSING', 1, 4),
      check('META_DESCRIPTION_MISSING', 0, 4),
      check('TECH_ROBOTS_MISSING', 1, 1),
      check('TECH_STATUS_4XX', 0, 10),
      check('TECH_NOINDEX', 5, 10),
    ]);
    expect(scores).toEqual({ overall: 88, meta: 83, content: 100, links: 100, technical: 66, performance: 100 });
  });

  it('scores the aggregator output directly', () => {
    // META_TITLE_MISSING (CRITICAL) fails on 1 of 2 pages, META_DESCRIPTION_MISSING (WARNING) passes:
    //   META = (10×0.5 + 5×1)/15 = 66.67 → 67
    // TECH_ROBOTS_MISSING (WARNING, site) fails: TECHNICAL = 5×0/5 = 0
    // overall = (20×67 + 20×100 + 20×100 + 25×0 + 15×100)/100 = 6840/100 = 68.4 → 68
    const aggregates = aggregateChecks(
      [
        {
          url: 'https://e.com/1',
          results: [
            { code: 'META_TITLE_MISSING', applicable: true, failed: true },
            { code: 'META_DESCRIPTION_MISSING', applicable: true, failed: false },
          ],
        },
        {
          url: 'https://e.com/2',
          results: [
            { code: 'META_TITLE_MISSING', applicable: true, failed: false },
            { code: 'META_DESCRIPTION_MISSING', applicable: true, failed: false },
          ],
        },
      ],
      {
        site: [
          {
            code: 'TECH_ROBOTS_MISSING',
            applicable: true,
            failed: true,
            occurrences: [{ url: 'https://e.com/robots.txt' }],
            applicablePages: 1,
          },
        ],
        pages: [],
      },
    );
    expect(computeScores(aggregates)).toEqual({
      overall: 68,
      meta: 67,
      content: 100,
      links: 100,
      technical: 0,
      performance: 100,
    });
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

  it.each([
    // TECHNICAL = 0 (only a failing CRITICAL site check); overall = (3×20×100 + 25×0 + 15×100)/100 = 75 → capped at 50
    ['robots.txt blocks all', [check('TECH_ROBOTS_BLOCKS_ALL', 1, 1)], undefined, 50],
    ['site-wide noindex', [check('TECH_NOINDEX_SITEWIDE', 1, 1)], undefined, 50],
    ['robots.txt unreachable', [check('TECH_ROBOTS_UNREACHABLE', 1, 1)], undefined, 50],
    ['start URL answers 404', [], 404, 50],
    ['start URL answers 503', [], 503, 50],
    ['passing blocker checks do not cap', [check('TECH_ROBOTS_BLOCKS_ALL', 0, 1)], 200, 100],
  ] as const)('caps the overall score at 50: %s', (_name, checks, startUrlStatus, overall) => {
    expect(computeScores(checks, { startUrlStatus }).overall).toBe(overall);
  });

  it('keeps a score already under the cap', () => {
    // META 0 (CRITICAL 4/4), CONTENT 0 (WARNING 2/2), LINKS 0, TECHNICAL 0 (blocker), PERFORMANCE 100:
    // (0 + 0 + 0 + 0 + 15×100)/100 = 15 → stays 15
    const scores = computeScores([
      check('META_TITLE_MISSING', 4, 4),
      check('CONTENT_H1_MISSING', 2, 2),
      check('LINKS_INTERNAL_BROKEN', 2, 2),
      check('TECH_ROBOTS_BLOCKS_ALL', 1, 1),
    ]);
    expect(scores.overall).toBe(15);
  });

  it('uses Lighthouse scoring for performance when lab metrics exist, else the check formula', () => {
    const checks = [check('PERF_LCP', 2, 2, { severity: 'CRITICAL' })];
    expect(computeScores(checks).performance).toBe(0);
    // Every metric at its "good" threshold scores 0.90 → 90.
    const good = { fcpMs: 1_800, lcpMs: 2_500, tbtMs: 200, cls: 0.1, speedIndexMs: 3_387 };
    expect(computeScores(checks, { labMetrics: good }).performance).toBe(90);
    // Two pages, one all-good (0.90) and one at the poor thresholds (0.50): mean 0.70 → 70.
    const poor = { fcpMs: 3_000, lcpMs: 4_000, tbtMs: 600, cls: 0.25, speedIndexMs: 5_800 };
    expect(computeScores(checks, { labMetrics: [good, poor] }).performance).toBe(70);
    // Lab data without any Lighthouse metric falls back to the checks.
    expect(computeScores(checks, { labMetrics: { inpMs: 100 } }).performance).toBe(0);
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

  it('uses the CHECKS.md control points', () => {
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
