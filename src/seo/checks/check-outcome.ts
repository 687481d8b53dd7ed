import type { Severity } from './check-kinds.js';

/** An evaluator's verdict: null when not applicable, else pass/fail with optional evidence. */
export type CheckOutcome = { failed: boolean; evidence?: Record<string, unknown>; severity?: Severity } | null;

const PASS = Object.freeze({ failed: false }) as { failed: false };

export function pass(): CheckOutcome {
  return PASS;
}

export function fail(evidence?: Record<string, unknown>, severity?: Severity): CheckOutcome {
  const outcome: { failed: true; evidence?: Record<string, unknown>; severity?: Severity } = { failed: true };
  if (evidence !== undefined) outcome.evidence = evidence;
  if (severity !== undefined) outcome.severity = severity;
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
