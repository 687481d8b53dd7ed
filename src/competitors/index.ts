export { CompetitorService, normalizeCompetitorDomain } from './competitor.service.js';
export { COMPETITOR_COUNT_SOURCE } from './competitor.repository.js';
export { CompetitorProfileRunner } from './competitor-profile.runner.js';
export { competitorMetrics, type KeywordSnapshot } from './competitor-metrics.js';
export { enqueueCompetitorProfile, type CompetitorJobData, type CompetitorQueue } from './competitor-jobs.js';
