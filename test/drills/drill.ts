/** The contract of one drill module (`<name>.drill.ts` exports `drill`). */
export interface DrillOptions {
  /** The quick form (.ci/run): the same attacks on a smaller scale, seconds in all. */
  quick: boolean;
  /** Progress for people, on stderr. */
  log(line: string): void;
}

export interface DrillResult {
  /** Every expectation held. */
  ok: boolean;
  /** Measured figures (counts, durations, bytes) as recorded in docs/RELIABILITY.md. */
  figures: Record<string, unknown>;
  /** One readable line per expectation that did not hold. */
  failures: string[];
}

export interface Drill {
  description: string;
  run(options: DrillOptions): Promise<DrillResult>;
}

/** Collects expectations: `expect(cond, 'what should have held')`, then `result(figures)`. */
export function expectations() {
  const failures: string[] = [];
  return {
    expect(condition: boolean, message: string): boolean {
      if (!condition) failures.push(message);
      return condition;
    },
    result(figures: Record<string, unknown>): DrillResult {
      return { ok: failures.length === 0, figures, failures };
    },
  };
}
