/** Audit scoring: the documented formula (score-formula.ts) and Lighthouse's metric curves. */
export {
  BLOCKED_OVERALL_CAP,
  BLOCKER_CODES,
  CATEGORY_WEIGHTS,
  categoryScore,
  computeScores,
  isBlocked,
  passRate,
  type AuditScores,
  type StoredScores,
  type ScoreOptions,
  type ScoredCheck,
} from './score-formula.js';
export {
  LIGHTHOUSE_CONTROL_POINTS,
  LIGHTHOUSE_WEIGHTS,
  getLogNormalScore,
  lighthousePerformanceScore,
  metricScore,
  type LighthouseMetric,
} from './lighthouse-metric-score.js';
