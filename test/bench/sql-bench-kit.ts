import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { percentile } from './bench-report.js';

export { dropDatabase } from '../support/private-database.js';

/**
 * What the SQL-level benches (pageview, compare) share: their settings from the environment, the statements a
 * repository sends, interleaved measurement rounds, the paired figures they report, and their database's removal.
 */

export const intFromEnv = (name: string, fallback: number, min = 1): number => {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}`);
  return value;
};

/** One statement as node-postgres received it. */
export interface Statement {
  text: string;
  values: unknown[];
}

/** The statements `use` sends through the pool (the repositories' raw statements), captured as they go. */
export async function captureStatements(pool: pg.Pool, use: () => Promise<unknown>): Promise<Statement[]> {
  const statements: Statement[] = [];
  const original = pool.query;
  pool.query = ((text: string, values?: unknown[]) => {
    statements.push({ text, values: values ?? [] });
    return (original as (text: string, values?: unknown[]) => Promise<pg.QueryResult>).call(pool, text, values);
  }) as typeof pool.query;
  try {
    await use();
  } finally {
    pool.query = original;
  }
  return statements;
}

export interface Measurement {
  name: string;
  label: string;
  /** Runs once; returns the milliseconds to count when the measurement times itself (else its wall time). */
  run(): Promise<unknown>;
}

async function timeOnce(m: Measurement): Promise<number> {
  const started = performance.now();
  const own = await m.run();
  return typeof own === 'number' ? own : performance.now() - started;
}

/** Every measurement once per round, in an order rotated each round; warm-up rounds are dropped. */
export async function measureInterleaved(
  measurements: Measurement[],
  runs: number,
  warmup: number,
  log: (line: string) => void,
  every = 10,
): Promise<Map<string, number[]>> {
  const samples = new Map(measurements.map((m) => [m.name, [] as number[]]));
  for (let round = 0; round < warmup + runs; round++) {
    for (let k = 0; k < measurements.length; k++) {
      const m = measurements[(k + round) % measurements.length];
      const ms = await timeOnce(m);
      if (round >= warmup) samples.get(m.name)!.push(ms);
    }
    if ((round + 1) % every === 0) log(`  round ${round + 1}/${warmup + runs}`);
  }
  return samples;
}

export const median = (xs: number[]) => percentile(xs, 50);
/** The median of the per-round ratios: both sides measured in the same round, so load affects them alike. */
export const pairedRatio = (ours: number[], base: number[]) => median(ours.map((x, i) => x / base[i]));
export const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
