/** The GraphQL face of the module (resolvers, object types); its services and entities are in index.ts. */
export { CompetitorResolver } from './competitor.resolver.js';
// Kept here for schema/domain-runtime.ts, which imports it from this file; it also is in index.ts.
export { COMPETITOR_COUNT_SOURCE } from './competitor.repository.js';
export { CompetitorType, CompetitorPositionType, CompetitorHomepageType } from './competitor.types.js';
