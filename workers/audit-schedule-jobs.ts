import { QUEUES, createQueue } from '../src/platform/queues.js';
import { startReconciling } from '../src/platform/job-schedulers.js';
import { AuditService, type AuditJobData } from '../src/audits/index.js';
import {
  AuditScheduleService,
  SCHEDULED_AUDIT_JOB_NAME,
  type ScheduledAuditJobData,
  type ScheduledSlotResult,
} from '../src/schedules/index.js';
import { ProjectService } from '../src/projects/index.js';
import type { WorkerRuntime } from './run-worker.js';

/** A job of the audit queue, as far as telling a scheduled audit from an audit goes. */
interface AuditQueueJob {
  name: string;
  id?: string;
  data: unknown;
}

export interface AuditSchedules {
  /** Runs a scheduled-audit job (null for any other job of the audit queue: an audit, run as before). */
  handle(job: AuditQueueJob): Promise<ScheduledSlotResult> | null;
  /** Whether a job is a scheduled-audit job (its failures are not an audit's). */
  owns(job: AuditQueueJob): boolean;
  close(): Promise<void>;
}

/**
 * Scheduled audits in an audit worker process: the handler of their jobs, and the reconciler that re-creates their
 * job schedulers from the database at start and every SCHEDULE_RECONCILE_MS (a Redis that restarted empty loses no
 * schedule). The handler starts audits through AuditService.start, as the API does, with a fresh EntityManager per
 * job; the audits it queues are run by this queue's workers like any other.
 */
export async function startAuditSchedules(
  runtime: Pick<WorkerRuntime, 'config' | 'logger' | 'orm' | 'redis' | 'onError'>,
): Promise<AuditSchedules> {
  const { config, logger, orm, redis, onError } = runtime;
  const auditQueue = createQueue<AuditJobData>(QUEUES.audit, redis, config.REDIS_PREFIX, onError('schedule queue'));
  const scheduleQueue = createQueue<ScheduledAuditJobData>(
    QUEUES.audit,
    redis,
    config.REDIS_PREFIX,
    onError('schedule queue'),
  );
  const projects = new ProjectService(config);
  const schedules = new AuditScheduleService(
    projects,
    new AuditService(config, projects, auditQueue, logger),
    scheduleQueue,
    logger,
  );
  const reconciling = startReconciling(
    'audit',
    () => schedules.reconcile(orm.em.fork()),
    config.SCHEDULE_RECONCILE_MS,
    logger,
  );
  await reconciling.first;
  return {
    handle: (job) => schedules.handleJob(() => orm.em.fork(), job),
    owns: (job) => job.name === SCHEDULED_AUDIT_JOB_NAME,
    async close() {
      reconciling.stop();
      await Promise.allSettled([auditQueue.close(), scheduleQueue.close()]);
    },
  };
}
