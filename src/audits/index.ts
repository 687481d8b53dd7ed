export { AuditEntity, AuditIssueEntity, AUDIT_STATUSES, ACTIVE_STATUSES, type Audit, type AuditIssue, type AuditStatus } from './audit.entity.js';
export { AuditService, type StartedAudit } from './audit.service.js';
export { AuditResolver, IssueResolver, ProjectAuditFieldsResolver, toAuditType, toJobType } from './audit.resolver.js';
export { AUDIT_COUNT_SOURCE } from './audit.loaders.js';
export { AuditType, IssueType, JobType, StartAuditPayload, AuditConnection, IssueCountsType, PageInfoType } from './audit.types.js';
export { AUDIT_JOB_NAME, JOB_STATE_BY_STATUS, type AuditJobData } from './audit-job.js';
export { runAuditEngine, type AuditSink, type AuditOutcome, type AuditPageRow, type OccurrenceRecord, type LabMeter, type VitalsRecord } from './audit-engine.js';
export { AuditJobRunner, type AuditRunResult } from './audit-job-runner.js';
