/**
 * Why each audit check matters and how to fix it, in plain English for SEO practitioners: each definition's `why`
 * and `howToFix` (check-definitions.ts), keyed by code. The texts follow each check's rule and thresholds as the
 * catalog describes them (docs/scores.md).
 */
import type { CheckCode } from './check-catalog.js';
import { CHECK_DEFINITIONS } from './check-definitions.js';

export interface CheckGuidance {
  /** Why this matters for search (crawling, indexing, ranking, snippets, users): 1-2 plain sentences, no marketing. */
  why: string;
  /** How to fix it: 1-3 concrete sentences (what to change, where; examples of good values when useful). */
  fix: string;
}

export const CHECK_GUIDANCE: Readonly<Record<CheckCode, CheckGuidance>> = Object.fromEntries(
  CHECK_DEFINITIONS.map((check) => [check.code, { why: check.why, fix: check.howToFix }]),
) as Record<CheckCode, CheckGuidance>;

export function guidanceFor(code: string): CheckGuidance | undefined {
  return Object.hasOwn(CHECK_GUIDANCE, code) ? CHECK_GUIDANCE[code as CheckCode] : undefined;
}
