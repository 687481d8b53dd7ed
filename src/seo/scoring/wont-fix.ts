/**
 * "Won't fix" (docs/scores.md, "Won't fix"): occurrences a project marked as accepted are left out of the score's
 * costs and health, from the audit's own breakdown and the counts of what is marked (src/audits/wont-fix.*). The
 * formula does not change: a marked occurrence is priced as if the check had passed on that URL.
 *
 * - a page-level issue costs what it costs on its unmarked pages (a banded check's pages keep their bands: its
 *   points shrink in proportion, the stored breakdown does not say which band each page was in);
 * - a site-level issue (or a site fact) costs nothing once every URL it was seen on is marked; a site fact with
 *   unmarked URLs left is priced on those;
 * - health counts a crawled HTML page whose every page-level CRITICAL occurrence is marked as a page without one;
 * - a blocker check whose every occurrence is marked no longer caps the overall score.
 *
 * Always from the breakdown as the audit scored before any marking (`wontFix.base`), so that marking and undoing
 * in any order give the same scores.
 */
import {
  BLOCKER_CODES,
  costOrder,
  healthOf,
  issueCost,
  type AuditScores,
  type ScoreBreakdown,
  type ScoreCost,
  type ScoreResult,
  type StoredScores,
} from './score-formula.js';
import { scoresOf } from './rescore.js';

/** What is marked among one audit's occurrences. */
export interface WontFixExclusions {
  /** Per check code, the distinct URLs of its occurrences in the audit that are marked. */
  pagesByCode: Readonly<Record<string, number>>;
  /** Crawled HTML pages with a page-level CRITICAL occurrence, every one of them marked. */
  criticalPagesReleased: number;
  /** The marked occurrences (rows), as "why this score" counts them. */
  occurrences: number;
}

/** The breakdown as the audit scored before any marking. */
export function baseBreakdown(breakdown: ScoreBreakdown): Omit<ScoreBreakdown, 'wontFix'> {
  if (breakdown.wontFix) return breakdown.wontFix.base;
  const base: ScoreBreakdown = { ...breakdown };
  delete base.wontFix;
  return base;
}

const same = (a: number, b: number) => Math.abs(a - b) < 1e-9;

/** One cost with `marked` of its affected pages left out; null when nothing of it is left. */
function remainingCost(cost: ScoreCost, marked: number, htmlPages: number): ScoreCost | null {
  if (marked <= 0) return cost;
  const affectedPages = Math.max(0, cost.affectedPages - marked);
  if (affectedPages === 0) return null;
  const { code, category, severity, scope } = cost;
  const priced = (pages: number) =>
    issueCost({ code, category, severity, scope, affectedPages: pages, applicablePages: Math.max(1, pages) }, htmlPages)
      ?.points ?? 0;
  let points: number;
  if (cost.scope === 'site') points = priced(affectedPages);
  // A fix-grouped issue's fixes by page are not in the breakdown: the same share of its points stays.
  else if (cost.fixes) points = (cost.points * affectedPages) / cost.affectedPages;
  else if (same(priced(cost.affectedPages), cost.points)) points = priced(affectedPages);
  // A banded check's pages were each charged at their band: the same share of its points stays.
  else points = (cost.points * affectedPages) / cost.affectedPages;
  return { ...cost, affectedPages, points };
}

/**
 * The audit's scores and breakdown with the marked occurrences left out, from its stored breakdown and scores; the
 * base breakdown itself when nothing is marked. Null when the breakdown cannot give its scores again (kept before a
 * formula change, or without page counts): such an audit keeps its stored scores.
 */
export function scoreExcludingWontFix(
  stored: ScoreBreakdown,
  storedScores: StoredScores,
  exclusions: WontFixExclusions,
): ScoreResult | null {
  const base = baseBreakdown(stored);
  const baseScores = scoresOf(base, new Set());
  if (!baseScores) return null;
  // Unmarked so far: the breakdown must give the audit's own scores again (the guard rescore.ts keeps too).
  const keys = Object.keys(baseScores) as (keyof AuditScores)[];
  if (!stored.wontFix && keys.some((k) => baseScores[k] !== storedScores[k])) return null;
  if (exclusions.occurrences <= 0) return { scores: baseScores, breakdown: { ...base } };
  const html = base.htmlPages;
  const costs: ScoreCost[] = [];
  const gone = new Set<string>();
  for (const cost of base.costs) {
    const left = remainingCost(cost, exclusions.pagesByCode[cost.code] ?? 0, html);
    if (left) costs.push(left);
    else gone.add(cost.code);
  }
  const pagesWithCritical = Math.max(0, base.pagesWithCritical - Math.max(0, exclusions.criticalPagesReleased));
  costs.sort(costOrder(html, { withCritical: pagesWithCritical, shownWorse: base.pagesShownWorse }));
  const health = healthOf(html, pagesWithCritical, base.pagesShownWorse ?? 0);
  const blockers = base.blockers.filter((code) => !(BLOCKER_CODES.includes(code) && gone.has(code)));
  const next: ScoreBreakdown = {
    ...base,
    health: Math.round(health * 10) / 10,
    pagesWithCritical,
    costs,
    blockers,
    cappedFrom: null,
  };
  const scores = scoresOf(next, new Set());
  const uncapped = scoresOf({ ...next, blockers: [] }, new Set());
  if (!scores || !uncapped) return null;
  next.cappedFrom = scores.overall < uncapped.overall ? uncapped.overall : null;
  next.wontFix = { excludedOccurrences: exclusions.occurrences, base };
  return { scores, breakdown: next };
}

const NO_SCORES: StoredScores = {
  overall: null,
  meta: null,
  content: null,
  links: null,
  technical: null,
  performance: null,
};

/**
 * An audit as it scored before any "won't fix" marking: its stored scores and breakdown when nothing is marked, else
 * the scores its base breakdown gives (no scores when it cannot give them). Two audits compare on these: a marking
 * accepts an issue, it does not fix one, so it is neither progress nor, undone, a drop.
 */
export function scoredBeforeWontFix(
  stored: StoredScores,
  breakdown: ScoreBreakdown | null,
): { scores: StoredScores; breakdown: ScoreBreakdown | null; marked: boolean } {
  if (!breakdown?.wontFix) return { scores: stored, breakdown, marked: false };
  const base = baseBreakdown(breakdown);
  return { scores: scoresOf(base, new Set()) ?? NO_SCORES, breakdown: base, marked: true };
}
