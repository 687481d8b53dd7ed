/** BullMQ job data for an audit: ids only, never secrets (STYLE: XxxJobData). */
export interface AuditJobData {
  auditId: string;
  /** Times the job was put back because PostgreSQL or Redis was unreachable (not counted as attempts). */
  outageRetries?: number;
}

export const AUDIT_JOB_NAME = 'audit';

/**
 * Job options, the same wherever an audit is queued (the API, the sweeper): retries with backoff; the job id is
 * the audit's, so queueing twice is a no-op.
 */
export function auditJobOptions(jobId: string) {
  return {
    jobId,
    attempts: 3,
    backoff: { type: 'exponential', delay: 5_000 },
    removeOnComplete: { age: 24 * 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

/** API state names of a job, derived from the audit row (PostgreSQL is the source of truth). */
export const JOB_STATE_BY_STATUS = {
  QUEUED: 'queued',
  RUNNING: 'running',
  COMPLETED: 'completed',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
} as const;
