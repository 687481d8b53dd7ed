import type { EntityManager } from '@mikro-orm/postgresql';
import { UnrecoverableError, type Queue } from 'bullmq';
import type { Principal } from '../platform/context.js';
import type { NativeDb } from '../platform/db/native-query.js';
import { DomainError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { isInfrastructureFailure } from '../platform/infra-errors.js';
import { reconcileJobSchedulers, type DesiredJobScheduler, type ReconcileReport } from '../platform/job-schedulers.js';
import type { Logger } from '../platform/logger.js';
import {
  auditScheduleOf,
  auditScheduleRepeat,
  isAuditScheduleSlot,
  previousAuditRunAt,
  type ProjectScheduleColumns,
  type ProjectService,
  type ScheduledProjectRow,
} from '../projects/index.js';
import type { AuditService } from '../audits/index.js';
import {
  AUDIT_SCHEDULER_PREFIX,
  SCHEDULED_AUDIT_JOB_NAME,
  auditSchedulerId,
  catchUpJobId,
  scheduledAuditJobOptions,
  scheduledAuditSlot,
  type QueuedJob,
  type ScheduledAuditJobData,
} from './audit-schedule-job.js';
import {
  AuditScheduleRepository,
  type ScheduledRunDecision,
  type ScheduledRunRow,
} from './audit-schedule.repository.js';

/** What the handler made of a scheduled-audit job. */
export type ScheduledSlotResult =
  | { kind: 'RECORDED'; run: ScheduledRunRow }
  /** Another job of the same slot claimed it first (a catch-up beside the scheduler's job, a second scheduler). */
  | { kind: 'DUPLICATE' }
  /** The job is stale: the project is gone, its schedule is OFF or no longer runs at that time. Nothing recorded. */
  | { kind: 'IGNORED'; why: string };

export const SKIP_MESSAGES = { ALREADY_RUNNING: 'An audit was already running.' } as const;

/**
 * Scheduled audits: the project's schedule (its columns, PostgreSQL being the source of truth) kept as a BullMQ job
 * scheduler `audit-schedule-<projectId>` on the audit queue, and each run time it fires claimed once in
 * scheduled_audit_run before an audit starts through AuditService.start, as a manual audit does (one active audit per
 * project, the plan's quotas with the organization's current plan).
 */
export class AuditScheduleService {
  constructor(
    private readonly projects: ProjectService,
    private readonly audits: AuditService,
    private readonly queue: Queue<ScheduledAuditJobData>,
    private readonly logger?: Logger,
    private readonly repo = new AuditScheduleRepository(),
  ) {}

  /** The scheduler a project's schedule asks for; null when it is OFF. */
  private desiredFor(
    project: { id: string } & ProjectScheduleColumns,
  ): DesiredJobScheduler<ScheduledAuditJobData> | null {
    const repeat = auditScheduleRepeat(auditScheduleOf(project));
    if (!repeat) return null;
    return {
      id: auditSchedulerId(project.id),
      repeat,
      name: SCHEDULED_AUDIT_JOB_NAME,
      data: { projectId: project.id },
      opts: scheduledAuditJobOptions,
    };
  }

  /**
   * After the API stored a changed schedule: the scheduler follows (upserted, or removed when OFF). An outage of Redis
   * does not fail the change, which is stored: the reconciler of every worker registers it within
   * SCHEDULE_RECONCILE_MS.
   */
  async sync(project: { id: string } & ProjectScheduleColumns): Promise<void> {
    const desired = this.desiredFor(project);
    try {
      if (desired) {
        const { name, data, opts } = desired;
        await this.queue.upsertJobScheduler(desired.id, desired.repeat, { name, data, opts });
      } else await this.queue.removeJobScheduler(auditSchedulerId(project.id));
    } catch (err) {
      if (!isInfrastructureFailure(err)) throw err;
      this.logger?.warn({ err, projectId: project.id }, 'audit schedule stored; the reconciler will register it');
    }
  }

  /**
   * Before a project goes. Redis being down does not keep the project: its scheduler, if left, is removed by the
   * reconciler, and a job it adds meanwhile finds no project and does nothing.
   */
  async unschedule(projectId: string): Promise<void> {
    try {
      await this.queue.removeJobScheduler(auditSchedulerId(projectId));
    } catch (err) {
      if (!isInfrastructureFailure(err)) throw err;
      this.logger?.warn({ err, projectId }, 'audit schedule of a deleted project left to the reconciler');
    }
  }

  /**
   * The audit queue's schedulers made equal to the scheduled projects of the database (src/platform/job-schedulers.ts).
   * A scheduler that was missing (Redis restarted empty) also gets its latest run time caught up, when it passed after
   * the schedule was set without a run being claimed: the outage cost a late audit, not a lost one.
   */
  async reconcile(db: NativeDb, now = Date.now()): Promise<ReconcileReport> {
    const rows = await this.projects.listScheduled(db);
    const desired = rows.flatMap((row) => this.desiredFor(row) ?? []);
    const report = await reconcileJobSchedulers(this.queue, AUDIT_SCHEDULER_PREFIX, desired);
    if (report.created.length) {
      const created = new Set(report.created);
      for (const row of rows) if (created.has(auditSchedulerId(row.id))) await this.catchUp(db, row, now);
    }
    return report;
  }

  private async catchUp(db: NativeDb, row: ScheduledProjectRow, now: number): Promise<void> {
    const slot = previousAuditRunAt(auditScheduleOf(row), now);
    if (!slot) return;
    if (row.auditScheduleChangedAt && slot.getTime() <= row.auditScheduleChangedAt.getTime()) return;
    if (await this.repo.hasScheduledRun(db, row.id, slot)) return;
    const slotAt = slot.getTime();
    await this.queue.add(
      SCHEDULED_AUDIT_JOB_NAME,
      { projectId: row.id, slotAt },
      { ...scheduledAuditJobOptions, jobId: catchUpJobId(row.id, slotAt) },
    );
    this.logger?.info({ projectId: row.id, slotAt: slot.toISOString() }, 'missed scheduled audit caught up');
  }

  /**
   * The handler of a scheduled-audit job: the slot is claimed (exactly once, whatever number of jobs fired for it),
   * then the audit starts as a manual one would, for the organization with its current plan; a refusal is recorded as
   * SKIPPED with its reason. An outage throws (nothing recorded): the job's retry claims the slot again.
   */
  async runSlot(em: EntityManager, projectId: string, slotAt: number): Promise<ScheduledSlotResult> {
    const project = await this.projects.findScheduled(em, projectId);
    if (!project) return { kind: 'IGNORED', why: 'the project was deleted' };
    if (project.auditScheduleFrequency === 'OFF') return { kind: 'IGNORED', why: 'the schedule is off' };
    if (!isAuditScheduleSlot(auditScheduleOf(project), slotAt))
      return { kind: 'IGNORED', why: 'the schedule no longer runs at this time' };
    const principal: Principal = {
      organizationId: project.organizationId,
      plan: project.plan,
      role: 'owner',
      via: 'SYSTEM',
      channel: 'WORKER',
    };
    const run = await this.repo.claimScheduledSlot(em, { id: newId(), projectId, slotAt: new Date(slotAt) }, () =>
      this.startAudit(em, principal, projectId),
    );
    return run ? { kind: 'RECORDED', run } : { kind: 'DUPLICATE' };
  }

  /**
   * A job of the audit queue, in an audit worker: a scheduled-audit job is run (runSlot, with a fresh EntityManager)
   * and its outcome logged; null for any other job (an audit, run as before).
   */
  handleJob(em: () => EntityManager, job: QueuedJob): Promise<ScheduledSlotResult> | null {
    if (job.name !== SCHEDULED_AUDIT_JOB_NAME) return null;
    const slot = scheduledAuditSlot(job);
    if (!slot) return Promise.reject(new UnrecoverableError('scheduled audit job without a project or run time'));
    return this.runSlot(em(), slot.projectId, slot.slotAt).then((result) => {
      const at = new Date(slot.slotAt).toISOString();
      if (result.kind === 'RECORDED') {
        const { outcome, reason, auditId } = result.run;
        this.logger?.info({ projectId: slot.projectId, slotAt: at, outcome, reason, auditId }, 'scheduled audit');
      } else this.logger?.info({ projectId: slot.projectId, slotAt: at, result }, 'scheduled audit job did nothing');
      return result;
    });
  }

  private async startAudit(em: EntityManager, principal: Principal, projectId: string): Promise<ScheduledRunDecision> {
    try {
      const { audit, created } = await this.audits.start(em, principal, projectId);
      if (created) return { outcome: 'STARTED', reason: null, message: null, auditId: audit.id };
      return {
        outcome: 'SKIPPED',
        reason: 'ALREADY_RUNNING',
        message: SKIP_MESSAGES.ALREADY_RUNNING,
        auditId: audit.id,
      };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err.code === 'PLAN_LIMIT')
        return { outcome: 'SKIPPED', reason: 'PLAN_LIMIT', message: err.message, auditId: null };
      if (err.code === 'FORBIDDEN')
        return { outcome: 'SKIPPED', reason: 'NOT_ALLOWED', message: err.message, auditId: null };
      throw err;
    }
  }

  /** The latest runs of projects already reached through a tenant-checked read (a list's field), by project. */
  async runsOf(db: NativeDb, projectIds: readonly string[], first: number): Promise<Map<string, ScheduledRunRow[]>> {
    const by = new Map<string, ScheduledRunRow[]>(projectIds.map((id) => [id, []]));
    for (const row of await this.repo.latestScheduledRuns(db, projectIds, clampRuns(first)))
      by.get(row.projectId)?.push(row);
    return by;
  }
}

/** 1-100 runs per project. */
export const clampRuns = (first: number) => Math.min(Math.max(Math.trunc(first) || 1, 1), 100);
