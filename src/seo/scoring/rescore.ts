/**
 * An audit's scores again, from its stored breakdown, without some checks: how two audits scored with different
 * check settings are compared (src/comparison). Each is scored without the checks the other did not run, so that the
 * difference is the site's, not the settings' (docs/scores.md, "Settings and comparison").
 *
 * Exact or nothing: null when the breakdown cannot give the scores again. That is the case when
 * - the breakdown does not reproduce the audit's own stored scores (kept before a formula change, or without the
 *   page counts), the guard that keeps this file and score-formula.ts in step;
 * - a check to leave out is CRITICAL (health counts the pages with a CRITICAL issue, and which pages had only that
 *   one is not in the breakdown), or one whose metric Lighthouse's lab score already weighs.
 */
import { findCheck, type Category } from '../checks/index.js';
import {
  BLOCKED_OVERALL_CAP,
  CATEGORY_WEIGHTS,
  HEALTH_SHARE,
  LIGHTHOUSE_SCORED_CODES,
  healthOf,
  type AuditScores,
  type ScoreBreakdown,
  type StoredScores,
} from './score-formula.js';

const CATEGORIES = Object.keys(CATEGORY_WEIGHTS) as Category[];
const KEY: Record<Category, keyof AuditScores> = {
  META: 'meta',
  CONTENT: 'content',
  LINKS: 'links',
  TECHNICAL: 'technical',
  PERFORMANCE: 'performance',
};

/** As score-formula.ts rounds: off floating-point dust first, then to an integer. */
const round = (value: number) => Math.round(Math.round(value * 1e6) / 1e6);

/** The scores the breakdown gives without `left` (check codes); null when that cannot be said exactly. */
export function scoresOf(breakdown: ScoreBreakdown, left: ReadonlySet<string>): AuditScores | null {
  // Which pages had only that issue (and so count for health) is not in the breakdown: a CRITICAL check, or one
  // that shows pages worse in search, cannot be left out exactly.
  for (const cost of breakdown.costs)
    if (left.has(cost.code) && (cost.severity === 'CRITICAL' || findCheck(cost.code)?.shownWorse)) return null;
  if (breakdown.labPerformance !== null && [...left].some((code) => LIGHTHOUSE_SCORED_CODES.has(code))) return null;
  if (!Number.isInteger(breakdown.htmlPages) || !Number.isInteger(breakdown.pagesWithCritical)) return null;
  const costs = breakdown.costs.filter((cost) => !left.has(cost.code));
  const category = (c: Category) => {
    const from = c === 'PERFORMANCE' ? (breakdown.labPerformance ?? 100) : 100;
    const lost = costs.filter((cost) => cost.category === c).reduce((sum, cost) => sum + cost.points, 0);
    return Math.max(0, round(from - lost));
  };
  const scores = Object.fromEntries(CATEGORIES.map((c) => [KEY[c], category(c)])) as Omit<AuditScores, 'overall'>;
  const categories =
    CATEGORIES.reduce((sum, c) => sum + CATEGORY_WEIGHTS[c] * scores[KEY[c] as keyof typeof scores], 0) / 100;
  const { htmlPages: html, pagesWithCritical } = breakdown;
  const health = healthOf(html, pagesWithCritical, breakdown.pagesShownWorse ?? 0);
  const uncapped = round(HEALTH_SHARE * health + (1 - HEALTH_SHARE) * categories);
  const blocked = breakdown.blockers.some((code) => !left.has(code));
  return { overall: blocked ? Math.min(uncapped, BLOCKED_OVERALL_CAP) : uncapped, ...scores };
}

/**
 * The audit's scores without the checks in `without`, from its breakdown; the stored scores themselves when
 * `without` is empty. Null when they cannot be given exactly (see above).
 */
export function rescoreWithout(
  stored: StoredScores,
  breakdown: ScoreBreakdown | null,
  without: readonly string[],
): AuditScores | null {
  const complete = Object.values(stored).every((v) => v !== null);
  if (!without.length) return complete ? (stored as AuditScores) : null;
  if (!breakdown || !complete) return null;
  const again = scoresOf(breakdown, new Set());
  if (!again || (Object.keys(again) as (keyof AuditScores)[]).some((k) => again[k] !== stored[k])) return null;
  return scoresOf(breakdown, new Set(without));
}
