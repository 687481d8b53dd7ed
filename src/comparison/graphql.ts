/** The GraphQL face of the module (resolvers, object types); its service is in index.ts. */
export { ComparisonResolver } from './comparison.resolver.js';
export { AuditComparisonType, IssueChangeEnum, PageChangeEnum } from './comparison.types.js';
