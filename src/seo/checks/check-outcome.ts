import type { Severity } from './check-catalog.js';

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

/** Banded metric: above `critical` fails as CRITICAL, above `warning` as WARNING, else passes. */
export function banded(
  value: number,
  band: { warning: number; critical: number },
  evidence: Record<string, unknown>,
): CheckOutcome {
  if (value > band.critical) return fail(evidence, 'CRITICAL');
  if (value > band.warning) return fail(evidence, 'WARNING');
  return pass();
}
