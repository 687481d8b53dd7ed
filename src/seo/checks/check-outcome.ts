import type { Severity } from './check-kinds.js';

/** An evaluator's verdict: null when not applicable, else pass/fail with optional evidence. */
export type CheckOutcome = {
  failed: boolean;
  evidence?: Record<string, unknown>;
  severity?: Severity;
  /**
   * What the failure is about, each one fix (a check whose definition has `fixUnit: 'target'`): every failing target
   * of the page (URL), or the element a shared template repeats; all of them, not the evidence's sample.
   */
  causes?: readonly string[];
} | null;

const PASS = Object.freeze({ failed: false }) as { failed: false };

export function pass(): CheckOutcome {
  return PASS;
}

export function fail(
  evidence?: Record<string, unknown>,
  severity?: Severity,
  causes?: readonly string[],
): CheckOutcome {
  const outcome: NonNullable<CheckOutcome> = { failed: true };
  if (evidence !== undefined) outcome.evidence = evidence;
  if (severity !== undefined) outcome.severity = severity;
  if (causes !== undefined) outcome.causes = causes;
  return outcome;
}

/** Banded metric: above `poor` fails as WARNING, above `good` (needs improvement) as NOTICE, else passes. */
export function banded(
  value: number,
  band: { good: number; poor: number },
  evidence: Record<string, unknown>,
): CheckOutcome {
  if (value > band.poor) return fail(evidence, 'WARNING');
  if (value > band.good) return fail(evidence, 'NOTICE');
  return pass();
}
