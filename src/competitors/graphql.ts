/** The GraphQL face of the module (resolvers, object types); its services and entities are in index.ts. */
export { CompetitorResolver } from './competitor.resolver.js';
export {
  CompetitorType,
  CompetitorPositionType,
  CompetitorHomepageType,
  CompetitorOverviewType,
  DomainVisibilityType,
  VisibilityPointType,
} from './competitor.types.js';
