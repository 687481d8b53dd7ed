/** Audit scoring: the documented formula (score-formula.ts) and Lighthouse's metric curves. */
export {
  BLOCKED_OVERALL_CAP,
  BLOCKER_CODES,
  CATEGORY_WEIGHTS,
  CRITICAL_MIN_COST,
  HEALTH_SHARE,
  LIGHTHOUSE_SCORED_CODES,
  NO_INDEXABLE_PAGES,
  PAGE_ISSUE_WEIGHTS,
  SITE_FACT_SHARE,
  SITE_ISSUE_COSTS,
  blockerNotices,
  blockersOf,
  costOrder,
  computeScores,
  isBlocked,
  issueCost,
  issuePriority,
  overallImpact,
  scoreAudit,
  type AuditScores,
  type BlockerNotice,
  type Indexability,
  type ScoreBreakdown,
  type ScoreCost,
  type ScoreResult,
  type StoredScores,
  type ScoreOptions,
  type ScoredCheck,
  type ScoredPages,
} from './score-formula.js';
export {
  LIGHTHOUSE_CONTROL_POINTS,
  LIGHTHOUSE_WEIGHTS,
  getLogNormalScore,
  lighthousePerformanceScore,
  metricScore,
  type LighthouseMetric,
} from './lighthouse-metric-score.js';
export {
  RANKING_POINTS,
  RANKING_POSITION_WEIGHTS,
  RANKING_TAIL_WEIGHT,
  rankingPositionWeight,
  rankingWeight,
} from './ranking-weight.js';
export { rescoreWithout } from './rescore.js';
export { baseBreakdown, scoreExcludingWontFix, scoredBeforeWontFix, type WontFixExclusions } from './wont-fix.js';
