/** The GraphQL face of the module (resolvers, object types); its services are in index.ts. */
export { AuditScheduleResolver } from './audit-schedule.resolver.js';
export { ScheduledAuditRunType } from './audit-schedule.types.js';
