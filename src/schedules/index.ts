/*
 * Scheduled audits: a project's audit schedule (the setting itself, its rule and columns, is the project's:
 * src/projects/audit-schedule.ts) kept as a BullMQ job scheduler, each run time it fires claimed once and started as
 * a manual audit would be. The module sits above projects and audits: it uses both, and neither knows it.
 */
export { AuditScheduleService, SKIP_MESSAGES, type ScheduledSlotResult } from './audit-schedule.service.js';
export {
  AUDIT_SCHEDULER_PREFIX,
  SCHEDULED_AUDIT_JOB_NAME,
  auditSchedulerId,
  scheduledAuditSlot,
  type ScheduledAuditJobData,
} from './audit-schedule-job.js';
export type { ScheduledRunRow, ScheduledRunSkipReason } from './audit-schedule.repository.js';
