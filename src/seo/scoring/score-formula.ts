/**
 * Audit scores (CHECKS.md "Scoring"), all integers 0..100:
 *
 *   weight(check)    = CRITICAL 10 | WARNING 5 | NOTICE 1   (banded checks: their worst failing band)
 *   passRate(check)  = 1 - affectedPages / applicablePages   (site-scope checks: 0 if failed, else 1)
 *   category         = round(100 * Σ weight * passRate / Σ weight) over the category's applicable
 *                      checks; 100 when none applies
 *   performance      = with lab metrics: round(100 * mean over pages of Lighthouse's score
 *                      (FCP 10, LCP 25, TBT 30, CLS 25, SI 10, re-normalized)); else the category formula
 *   overall          = round((20 META + 20 CONTENT + 20 LINKS + 25 TECHNICAL + 15 PERFORMANCE) / 100)
 *                      over the rounded category scores, capped at 50 when a site-wide blocker fires
 *                      (TECH_ROBOTS_BLOCKS_ALL, TECH_NOINDEX_SITEWIDE, TECH_ROBOTS_UNREACHABLE failing,
 *                      or the start URL answering 4xx/5xx).
 */
import {
  SEVERITY_WEIGHTS,
  getCheck,
  type Category,
  type CheckScope,
  type LabMetrics,
  type Severity,
} from '../checks/index.js';
import { lighthousePerformanceScore } from './lighthouse-metric-score.js';

export const CATEGORY_WEIGHTS: Readonly<Record<Category, number>> = {
  META: 20,
  CONTENT: 20,
  LINKS: 20,
  TECHNICAL: 25,
  PERFORMANCE: 15,
};

export const BLOCKER_CODES: readonly string[] = [
  'TECH_ROBOTS_BLOCKS_ALL',
  'TECH_NOINDEX_SITEWIDE',
  'TECH_ROBOTS_UNREACHABLE',
];

export const BLOCKED_OVERALL_CAP = 50;

/** What scoring needs of an aggregated check; severity, category and scope default to the catalog's. */
export interface ScoredCheck {
  code: string;
  severity?: Severity;
  category?: Category;
  scope?: CheckScope;
  affectedPages: number;
  applicablePages: number;
}

export interface ScoreOptions {
  /** Lab metrics of the measured pages; the performance score then follows Lighthouse. */
  labMetrics?: LabMetrics | readonly LabMetrics[];
  /** Final status of the start URL; 4xx/5xx caps the overall score. */
  startUrlStatus?: number | null;
}

export interface AuditScores {
  overall: number;
  meta: number;
  content: number;
  links: number;
  technical: number;
  performance: number;
}

/** Scores as an audit row holds them: null until the audit completes. */
export type StoredScores = { [K in keyof AuditScores]: AuditScores[K] | null };

/** Pass rate of one check in [0, 1], or null when it does not apply. */
export function passRate(check: ScoredCheck): number | null {
  if (check.applicablePages <= 0) return null;
  const scope = check.scope ?? getCheck(check.code).scope;
  if (scope === 'site') return check.affectedPages > 0 ? 0 : 1;
  return Math.min(1, Math.max(0, 1 - check.affectedPages / check.applicablePages));
}

/** Category score 0..100 from its checks (checks of other categories are ignored). */
export function categoryScore(category: Category, checks: readonly ScoredCheck[]): number {
  let weighted = 0;
  let weights = 0;
  for (const check of checks) {
    const definition = getCheck(check.code);
    if ((check.category ?? definition.category) !== category) continue;
    const rate = passRate(check);
    if (rate === null) continue;
    const weight = SEVERITY_WEIGHTS[check.severity ?? definition.severity];
    weighted += weight * rate;
    weights += weight;
  }
  return weights === 0 ? 100 : roundScore((100 * weighted) / weights);
}

export function computeScores(checks: readonly ScoredCheck[], options: ScoreOptions = {}): AuditScores {
  const meta = categoryScore('META', checks);
  const content = categoryScore('CONTENT', checks);
  const links = categoryScore('LINKS', checks);
  const technical = categoryScore('TECHNICAL', checks);
  const performance = labPerformanceScore(options.labMetrics) ?? categoryScore('PERFORMANCE', checks);
  let overall = roundScore(
    (CATEGORY_WEIGHTS.META * meta +
      CATEGORY_WEIGHTS.CONTENT * content +
      CATEGORY_WEIGHTS.LINKS * links +
      CATEGORY_WEIGHTS.TECHNICAL * technical +
      CATEGORY_WEIGHTS.PERFORMANCE * performance) /
      100,
  );
  if (isBlocked(checks, options.startUrlStatus)) overall = Math.min(overall, BLOCKED_OVERALL_CAP);
  return { overall, meta, content, links, technical, performance };
}

/** A site-wide blocker: search engines cannot crawl or index the site at all. */
export function isBlocked(checks: readonly ScoredCheck[], startUrlStatus?: number | null): boolean {
  if (startUrlStatus !== undefined && startUrlStatus !== null && startUrlStatus >= 400 && startUrlStatus < 600)
    return true;
  return checks.some(
    (check) => BLOCKER_CODES.includes(check.code) && check.applicablePages > 0 && check.affectedPages > 0,
  );
}

function labPerformanceScore(labMetrics: ScoreOptions['labMetrics']): number | null {
  if (!labMetrics) return null;
  const list = Array.isArray(labMetrics) ? (labMetrics as readonly LabMetrics[]) : [labMetrics as LabMetrics];
  const scores = list.map(lighthousePerformanceScore).filter((score): score is number => score !== null);
  if (scores.length === 0) return null;
  return roundScore((100 * scores.reduce((sum, score) => sum + score, 0)) / scores.length);
}

/** Rounds half up, immune to binary noise such as 82.49999999999999 for 82.5. */
function roundScore(value: number): number {
  return Math.round(Math.round(value * 1e6) / 1e6);
}
