import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { MikroORM } from '../platform/db/orm.js';
import type { Logger } from '../platform/logger.js';
import { isInfrastructureFailure } from '../platform/infra-errors.js';
import { AUDIT_JOB_NAME, auditJobOptions, type AuditJobData } from './audit-job.js';
import * as lifecycle from './audit-lifecycle.js';
import { AuditRepository, type SweepCandidate } from './audit.repository.js';

export interface AuditSweeperOptions {
  /** Key prefix (REDIS_PREFIX) of the sweep lock. */
  prefix: string;
  /**
   * How long an audit may look inconsistent before the sweeper acts: the job lock (WORKER_LOCK_MS), after which
   * BullMQ itself would have noticed a dead worker.
   */
  graceMs: number;
  /**
   * A RUNNING audit whose heartbeat is younger than this is left alone, whatever the queue says of its job: its
   * worker is alive and will finish it (after Redis restarted empty, its job is missing though it runs). The worker
   * passes heartbeatGraceOf(AUDIT_HEARTBEAT_MS).
   */
  heartbeatGraceMs: number;
  /** Runs (claims) an audit may have had before a lost job fails it instead of being queued again. */
  maxRuns?: number;
  logger: Logger;
}

export interface SweepReport {
  /** Audits whose job was missing (or finished while they were still active), queued again under the same job id. */
  requeued: string[];
  /** Audits failed with a reason: their job failed without the audit knowing, or they were requeued too often. */
  failed: string[];
  /** RUNNING audits whose job is waiting or delayed (no worker holds it): shown as QUEUED, as they are. */
  corrected: string[];
  /**
   * COMPLETED audits that waited for their external verdicts when their worker stopped beating: made final without
   * them (the targets still pending counted as left by a stopped worker), their alerts owed.
   */
  finalized: string[];
}

export const DEFAULT_MAX_RUNS = 8;
/**
 * Heartbeats a live worker may miss before its audit counts as abandoned: one write can be slow or fail (a busy
 * database), and the sweep itself runs between beats.
 */
export const HEARTBEAT_MISSES = 3;
/** The heartbeat grace for a heartbeat interval (AUDIT_HEARTBEAT_MS). */
export const heartbeatGraceOf = (heartbeatMs: number): number => HEARTBEAT_MISSES * heartbeatMs;
const LOST_JOB_NOTE = 'Queued again: its job was lost (the queue restarted without its data).';
const WAITING_STATES = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Finds QUEUED and RUNNING audits that the queue no longer carries — their job is missing (Redis lost its data),
 * finished without the audit learning of it (the worker could not write to PostgreSQL), or waits while the audit
 * claims to run — and puts them right: queued again under the same job id (idempotent, bounded by `maxRuns`), or
 * failed with a reason. A RUNNING audit whose worker's heartbeat is fresh is not one of them: PostgreSQL says its
 * worker is alive, and that outranks what Redis says of its job. Safe with several worker groups: one sweep at a
 * time holds a Redis lock, and every change is a transition guarded on the status and attempt the sweeper saw
 * (audit-lifecycle.ts), so an audit that a worker claims meanwhile is left alone.
 */
export class AuditSweeper {
  private readonly maxRuns: number;

  constructor(
    private readonly orm: MikroORM,
    private readonly queue: Queue<AuditJobData>,
    private readonly redis: Redis,
    private readonly options: AuditSweeperOptions,
    private readonly repo = new AuditRepository(),
  ) {
    this.maxRuns = options.maxRuns ?? DEFAULT_MAX_RUNS;
  }

  /** One sweep, under the lock (null: another process holds it, or Redis is unreachable). */
  async sweepOnce(lockMs: number = this.options.graceMs): Promise<SweepReport | null> {
    const lockKey = `${this.options.prefix}:audit-sweeper:lock`;
    const token = randomUUID();
    const locked = await this.redis.set(lockKey, token, 'PX', Math.max(1_000, lockMs), 'NX').catch(() => null);
    if (locked !== 'OK') return null;
    return this.sweep();
  }

  /** The sweep itself (no lock): exported for tests and for callers that hold their own. */
  async sweep(): Promise<SweepReport> {
    const report: SweepReport = { requeued: [], failed: [], corrected: [], finalized: [] };
    const em = this.orm.em.fork();
    // An audit whose worker beats is not a candidate: requeued, it would run twice at once (the drill: three
    // runs, 492 requests for 200 pages), and the live run completes it in PostgreSQL, job or no job.
    const candidates = await this.repo.findSweepCandidates(em, this.options.graceMs, this.options.heartbeatGraceMs);
    for (const audit of candidates) {
      const job = await this.queue.getJob(audit.job_id);
      const state = job ? await job.getState() : 'missing';
      if (state === 'active') continue;
      if (WAITING_STATES.has(state)) {
        // Without a note: the error (e.g. "Attempt 1 failed; retrying.") still says why it waits.
        if (audit.status === 'RUNNING' && (await lifecycle.requeueSeen(this.orm.em, audit))) {
          report.corrected.push(audit.id);
        }
        continue;
      }
      if (state === 'failed') {
        const reason = (job?.failedReason ?? '').split('\n')[0].slice(0, 300) || 'unknown error';
        if (await this.fail(audit, `The audit failed: ${reason}`)) report.failed.push(audit.id);
        continue;
      }
      // Missing, finished ('completed') or in no list ('unknown'): the queue will never run it as it stands.
      if (audit.attempts >= this.maxRuns) {
        if (
          await this.fail(
            audit,
            `The audit was interrupted ${audit.attempts} times (its worker or the queue went away) and was given up.`,
          )
        )
          report.failed.push(audit.id);
        continue;
      }
      if (!(await lifecycle.requeueSeen(this.orm.em, audit, LOST_JOB_NOTE))) continue;
      if (job) await job.remove().catch(() => undefined);
      await this.queue.add(AUDIT_JOB_NAME, { auditId: audit.id }, auditJobOptions(audit.job_id));
      report.requeued.push(audit.id);
    }
    // Readable audits whose worker died while their external checks went on: final without them.
    for (const audit of await this.repo.findExternalOrphans(em, this.options.heartbeatGraceMs)) {
      const job = await this.queue.getJob(audit.job_id);
      if (job && (await job.getState()) === 'active') continue;
      if (await lifecycle.finalizeExternalSeen(this.orm.em, audit)) report.finalized.push(audit.id);
    }
    if (report.requeued.length || report.failed.length || report.corrected.length || report.finalized.length)
      this.options.logger.warn(report, 'audit sweeper repaired audits the queue had lost');
    return report;
  }

  /** Sweeps every `intervalMs` until the returned stop function is called; failures are logged, never thrown. */
  start(intervalMs: number): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.sweepOnce(Math.max(1_000, intervalMs - 500))
        .catch((err: unknown) => {
          if (!isInfrastructureFailure(err)) this.options.logger.error({ err }, 'audit sweep failed');
        })
        .finally(() => {
          running = false;
        });
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private fail(audit: SweepCandidate, reason: string): Promise<boolean> {
    return lifecycle.failSeen(this.orm.em, audit, reason);
  }
}
