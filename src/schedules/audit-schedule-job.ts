/**
 * The job of a scheduled audit, on the audit queue: a BullMQ job scheduler per scheduled project adds one at each run
 * time, and the handler (AuditScheduleService.runSlot) claims the slot and starts the audit as a manual one would.
 * Ids only (STYLE: XxxJobData).
 */
export interface ScheduledAuditJobData {
  projectId: string;
  /** The run time (ms since the epoch) of a catch-up job; the scheduler's own jobs carry it in their id. */
  slotAt?: number;
}

export const SCHEDULED_AUDIT_JOB_NAME = 'scheduled-audit';

/** Every audit scheduler's id starts with this (the reconciler owns those, and no other, on the audit queue). */
export const AUDIT_SCHEDULER_PREFIX = 'audit-schedule-';
export const auditSchedulerId = (projectId: string) => `${AUDIT_SCHEDULER_PREFIX}${projectId}`;

/** The id of a catch-up job: one per slot, so that reconcilers in several processes add it once. */
export const catchUpJobId = (projectId: string, slotAt: number) =>
  `${AUDIT_SCHEDULER_PREFIX}catch-up-${projectId}-${slotAt}`;

/** Retries with backoff when PostgreSQL or Redis fails under the handler (the slot row keeps a retry from a rerun). */
export const scheduledAuditJobOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 5_000 },
  removeOnComplete: { age: 7 * 24 * 3600, count: 1000 },
  removeOnFail: { age: 30 * 24 * 3600 },
};

/** A job as the audit worker receives it (the fields read here). */
export interface QueuedJob {
  name: string;
  id?: string;
  data: unknown;
}

/**
 * The project and run time of a scheduled-audit job; null for any other job of the audit queue. A job scheduler's job
 * id is `repeat:<scheduler id>:<run time in ms>` (BullMQ's getSchedulerNextJobId).
 */
export function scheduledAuditSlot(job: QueuedJob): { projectId: string; slotAt: number } | null {
  if (job.name !== SCHEDULED_AUDIT_JOB_NAME) return null;
  const data = job.data as Partial<ScheduledAuditJobData> | null;
  if (!data || typeof data.projectId !== 'string') return null;
  const slotAt = typeof data.slotAt === 'number' ? data.slotAt : Number(/:(\d+)$/.exec(job.id ?? '')?.[1] ?? NaN);
  return Number.isSafeInteger(slotAt) ? { projectId: data.projectId, slotAt } : null;
}
