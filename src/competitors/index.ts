export { CompetitorService, normalizeCompetitorDomain } from './competitor.service.js';
export { CompetitorResolver, COMPETITOR_COUNT_SOURCE } from './competitor.resolver.js';
export { CompetitorType, CompetitorPositionType, CompetitorHomepageType } from './competitor.types.js';
export { CompetitorProfileRunner } from './competitor-profile.runner.js';
export { competitorMetrics, type KeywordSnapshot } from './competitor-metrics.js';
