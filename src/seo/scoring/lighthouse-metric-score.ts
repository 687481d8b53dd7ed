import type { LabMetrics } from '../checks/index.js';

/**
 * Lighthouse's metric scoring (core/lib/statistics.js, v10+ mobile). A metric maps onto a log-normal
 * curve given by two control points: `p10` scores 0.90 and `median` scores 0.50. Here, as in
 * docs/scores.md, p10 is the "good" threshold and the median the "poor" one.
 */

export type LighthouseMetric = 'FCP' | 'LCP' | 'TBT' | 'CLS' | 'SI';

export const LIGHTHOUSE_CONTROL_POINTS: Readonly<Record<LighthouseMetric, { p10: number; median: number }>> = {
  FCP: { p10: 1_800, median: 3_000 },
  LCP: { p10: 2_500, median: 4_000 },
  TBT: { p10: 200, median: 600 },
  CLS: { p10: 0.1, median: 0.25 },
  SI: { p10: 3_387, median: 5_800 },
};

export const LIGHTHOUSE_WEIGHTS: Readonly<Record<LighthouseMetric, number>> = {
  FCP: 10,
  LCP: 25,
  TBT: 30,
  CLS: 25,
  SI: 10,
};

// Exact doubles Lighthouse clamps each range to, so a value never crosses a band by rounding.
const MIN_PASSING_SCORE = 0.9000000000000000222;
const MAX_AVERAGE_SCORE = 0.8999999999999999112;
const MIN_AVERAGE_SCORE = 0.5;
const MAX_FAILING_SCORE = 0.4999999999999999445;
/** erfc^-1(1/5): places p10 at the 10th percentile of the complementary distribution. */
const INVERSE_ERFC_ONE_FIFTH = 0.9061938024368232;

/** Abramowitz & Stegun 7.1.26 approximation of the error function (max error 1.5e-7), as Lighthouse uses. */
function erf(x: number): number {
  const sign = Math.sign(x);
  const ax = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * ax);
  const y = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return sign * (1 - y * Math.exp(-ax * ax));
}

/**
 * Score in [0, 1] of `value` on the log-normal curve with the given control points:
 * complementary percentile = erfc(ln(value/median) * erfc^-1(0.2) / -ln(p10/median)) / 2.
 */
export function getLogNormalScore(points: { p10: number; median: number }, value: number): number {
  const { p10, median } = points;
  if (median <= 0 || p10 <= 0 || p10 >= median) throw new RangeError('control points need 0 < p10 < median');
  if (value <= 0) return 1;
  const xLogRatio = Math.log(Math.max(Number.MIN_VALUE, value / median));
  const p10LogRatio = -Math.log(Math.max(Number.MIN_VALUE, p10 / median));
  const standardizedX = (xLogRatio * INVERSE_ERFC_ONE_FIFTH) / p10LogRatio;
  const complementaryPercentile = (1 - erf(standardizedX)) / 2;
  if (value <= p10) return Math.max(MIN_PASSING_SCORE, Math.min(1, complementaryPercentile));
  if (value <= median) return Math.max(MIN_AVERAGE_SCORE, Math.min(MAX_AVERAGE_SCORE, complementaryPercentile));
  return Math.max(0, Math.min(MAX_FAILING_SCORE, complementaryPercentile));
}

/** Lighthouse score (0..1) of one metric value (ms, or unitless for CLS). */
export function metricScore(metric: LighthouseMetric, value: number): number {
  return getLogNormalScore(LIGHTHOUSE_CONTROL_POINTS[metric], value);
}

function metricValues(metrics: LabMetrics): Partial<Record<LighthouseMetric, number>> {
  const values: Partial<Record<LighthouseMetric, number>> = {};
  if (metrics.fcpMs !== undefined) values.FCP = metrics.fcpMs;
  if (metrics.lcpMs !== undefined) values.LCP = metrics.lcpMs;
  if (metrics.tbtMs !== undefined) values.TBT = metrics.tbtMs;
  if (metrics.cls !== undefined) values.CLS = metrics.cls;
  if (metrics.speedIndexMs !== undefined) values.SI = metrics.speedIndexMs;
  return values;
}

/**
 * Lighthouse performance score (0..1) of one page: weighted mean of the metric scores (each rounded
 * to two decimals, as Lighthouse does), weights re-normalized over the metrics present; null when
 * no metric is present.
 */
export function lighthousePerformanceScore(metrics: LabMetrics): number | null {
  let weighted = 0;
  let weights = 0;
  for (const [metric, value] of Object.entries(metricValues(metrics)) as [LighthouseMetric, number][]) {
    if (!Number.isFinite(value)) continue;
    weighted += LIGHTHOUSE_WEIGHTS[metric] * (Math.round(metricScore(metric, value) * 100) / 100);
    weights += LIGHTHOUSE_WEIGHTS[metric];
  }
  return weights === 0 ? null : weighted / weights;
}
