/** BullMQ job data for an audit: ids only, never secrets (STYLE: XxxJobData). */
export interface AuditJobData {
  auditId: string;
}

export const AUDIT_JOB_NAME = 'audit';

/** API state names of a job, derived from the audit row (PostgreSQL is the source of truth). */
export const JOB_STATE_BY_STATUS = {
  QUEUED: 'queued',
  RUNNING: 'running',
  COMPLETED: 'completed',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
} as const;
