import type { VitalMetric, VitalPoorFact } from './alert-facts.js';

/** One measurement of a URL's Core Web Vitals (an audit's technical snapshot); null: not measured. */
export type VitalsRow = { url: string; device: string } & Record<VitalMetric, number | null>;

/** The "poor" bound of each metric: poor above it (the technical module's VITAL_BANDS). */
export interface PoorBound {
  metric: VitalMetric;
  poor: number;
}

const isPoor = (value: number | null, poor: number): value is number => value !== null && value > poor;

/**
 * The vitals that crossed into "poor": poor in the head audit's measurement of a URL (and device) and not poor in the
 * base audit's (or not measured there). One entry per URL and metric, the first device found.
 */
export function poorVitalCrossings(
  head: readonly VitalsRow[],
  base: readonly VitalsRow[],
  bounds: readonly PoorBound[],
): VitalPoorFact[] {
  const before = new Map(base.map((r) => [`${r.device}\u0000${r.url}`, r]));
  const seen = new Set<string>();
  const out: VitalPoorFact[] = [];
  for (const row of head) {
    const previous = before.get(`${row.device}\u0000${row.url}`);
    for (const { metric, poor } of bounds) {
      const value = row[metric];
      const was = previous?.[metric] ?? null;
      const key = `${metric}\u0000${row.url}`;
      if (!isPoor(value, poor) || isPoor(was, poor) || seen.has(key)) continue;
      seen.add(key);
      out.push({ url: row.url, metric, value, before: was });
    }
  }
  return out;
}
