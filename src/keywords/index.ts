export {
  KeywordService,
  keywordChange,
  MAX_RANKING_DAYS,
  MAX_RANKING_KEYWORD_IDS,
  type RankingsOptions,
} from './keyword.service.js';
export { KEYWORD_COUNT_SOURCE, KeywordRepository } from './keyword.repository.js';
export { normalizeTerm, parseTerms, parseTarget } from './keyword-terms.js';
export {
  rankJobOptions,
  dailyRankPattern,
  dailySchedulerId,
  scheduleDailyRankCheck,
  unscheduleDailyRankCheck,
  dailyRankScheduler,
  reconcileRankSchedules,
  RANK_SCHEDULER_PREFIX,
  type RankJobData,
  type RankQueue,
} from './rank-jobs.js';
export {
  RankCheckRunner,
  RetryableRankError,
  type KeywordCheckOutcome,
  type RankCheckOptions,
} from './rank-check.runner.js';
export {
  CANNIBALISATION_DAYS,
  DEFAULT_CANNIBALISATION_DAYS,
  MAX_CANNIBALISATION_DAYS,
  MIN_CANNIBALISING_URLS,
  MAX_CANNIBALISING_URLS,
  groupCannibalisation,
  siteUrlsOf,
  type KeywordCannibalisation,
  type KeywordSnapshotRow,
  type StoredSerpResult,
} from './cannibalisation.js';
