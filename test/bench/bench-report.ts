import type { TargetSamples } from './load-client.js';

export interface TargetSummary {
  name: string;
  label: string;
  /** Mean over rounds of each round's completed responses per second. */
  rps: number;
  rpsMin: number;
  rpsMax: number;
  p50Ms: number;
  p99Ms: number;
  responses: number;
  non2xx: number;
  errors: number;
  /** rps / baseline rps over the whole run, and the same ratio per round (paired, same machine moment). */
  ratio: number;
  ratioPerRound: number[];
  /** Median of the paired per-round ratios: less swayed than the mean by one noisy round. */
  ratioMedian: number;
}

/** Nearest-rank percentile of an unsorted sample. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

export function summarize(samples: Map<string, TargetSamples>, baseline: string): TargetSummary[] {
  const base = samples.get(baseline);
  if (!base) throw new Error(`baseline ${baseline} was not measured`);
  const baseRps = mean(base.rounds.map((r) => r.rps));
  return [...samples.values()].map((s) => {
    const rpsPerRound = s.rounds.map((r) => r.rps);
    const rps = mean(rpsPerRound);
    const ratioPerRound = s.rounds.map((r, i) => r.rps / base.rounds[i].rps);
    return {
      name: s.target.name,
      label: s.target.label,
      rps,
      rpsMin: Math.min(...rpsPerRound),
      rpsMax: Math.max(...rpsPerRound),
      p50Ms: percentile(s.latencies, 50),
      p99Ms: percentile(s.latencies, 99),
      responses: s.latencies.length,
      non2xx: s.non2xx,
      errors: s.errors,
      ratio: rps / baseRps,
      ratioPerRound,
      ratioMedian: median(ratioPerRound),
    };
  });
}

export function formatTable(rows: TargetSummary[]): string {
  const header = ['target', 'req/s mean', 'min-max', 'p50 ms', 'p99 ms', 'vs hand-written', 'per round'];
  const body = rows.map((r) => [
    r.label,
    r.rps.toFixed(0),
    `${r.rpsMin.toFixed(0)}-${r.rpsMax.toFixed(0)}`,
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
    r.ratio.toFixed(3),
    r.ratioPerRound.map((x) => x.toFixed(2)).join(' '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
