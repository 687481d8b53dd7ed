import type { EntityManager } from '@mikro-orm/postgresql';
import type { Queue } from 'bullmq';
import type { AppConfig } from '../platform/config.js';
import type { Principal } from '../platform/context.js';
import { DomainError, badInput, notFound } from '../platform/errors.js';
import { isUuid, newId } from '../platform/ids.js';
import { asUnavailable } from '../platform/infra-errors.js';
import type { Logger } from '../platform/logger.js';
import { assertApiAccess, quotaFor } from '../identity/index.js';
import type { Project, ProjectService } from '../projects/index.js';
import type { Audit, AuditIssue } from './audit.entity.js';
import { AUDIT_JOB_NAME, auditJobOptions, type AuditJobData } from './audit-job.js';
import * as lifecycle from './audit-lifecycle.js';
import { AuditIssueRepository, type OccurrenceRow } from './audit-issues.repository.js';
import { AuditRepository } from './audit.repository.js';

export interface StartedAudit {
  audit: Audit;
  created: boolean;
}

export type { OccurrenceRow } from './audit-issues.repository.js';

/** Most severe first: the order of an audit's issues and of a page's. */
export const SEVERITY_ORDER = { CRITICAL: 0, WARNING: 1, NOTICE: 2 } as const;
const CANCELLED_BY_USER = 'Cancelled by a user.';

export class AuditService {
  constructor(
    private readonly config: Pick<AppConfig, 'quotas'>,
    private readonly projects: ProjectService,
    private readonly queue: Queue<AuditJobData>,
    private readonly logger?: Logger,
    private readonly repo = new AuditRepository(),
    private readonly issueRows = new AuditIssueRepository(),
  ) {}

  private async enqueue(audit: Audit): Promise<void> {
    await this.queue.add(AUDIT_JOB_NAME, { auditId: audit.id }, auditJobOptions(audit.jobId));
  }

  /** Starts an audit, or returns the project's active one (one active audit per project, enforced by an index). */
  async start(em: EntityManager, principal: Principal | null, projectId: string): Promise<StartedAudit> {
    const p = assertApiAccess(principal, 'write');
    const project = await this.projects.findOwned(em, p, projectId);
    const active = await this.activeFor(em, project.id);
    if (active) {
      // Heals a queue that lost a QUEUED audit's job (e.g. Redis flushed). Not a RUNNING one's: its worker may be
      // alive without the job (its heartbeat says so), and the sweeper requeues it once the heartbeat goes stale.
      if (active.status === 'QUEUED') await this.enqueue(active);
      return { audit: active, created: false };
    }
    const quota = quotaFor(this.config, p.plan).pagesPerAudit;
    const id = newId();
    const maxPages = Math.min(project.settings.maxPages ?? quota, quota);
    let audit: Audit | null;
    try {
      audit = await lifecycle.create(em, { id, projectId: project.id, maxPages, createdAt: new Date() });
    } catch (err) {
      // 23503: the project was deleted since findOwned (a foreign key violation, not a server fault).
      if ((err as { code?: string }).code === '23503') throw notFound('Project');
      throw err;
    }
    if (!audit) {
      // Another request queued one since activeFor: theirs is the project's audit.
      const winner = await this.activeFor(em, project.id);
      if (!winner) throw new DomainError('INTERNAL', 'The audit could not be queued.');
      return { audit: winner, created: false };
    }
    try {
      await this.enqueue(audit);
    } catch (err) {
      this.logger?.error({ err, auditId: id }, 'could not enqueue audit');
      await lifecycle.fail(em, id, 'The audit could not be queued. Try again.');
      throw asUnavailable(err) ?? new DomainError('INTERNAL', 'The audit could not be queued.');
    }
    return { audit, created: true };
  }

  private activeFor(em: EntityManager, projectId: string): Promise<Audit | null> {
    return this.repo.findActive(em, projectId);
  }

  /** The selected audit, or the latest of any status. */
  async get(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    auditId?: string | null,
  ): Promise<Audit> {
    const p = assertApiAccess(principal, 'read');
    const project = await this.projects.findOwned(em, p, projectId);
    const audit = auditId
      ? isUuid(auditId)
        ? await this.repo.findInProject(em, auditId, project.id)
        : null
      : await this.repo.findLatest(em, project.id);
    if (!audit) throw notFound(auditId ? 'Audit' : 'Audit for this project');
    return audit;
  }

  async list(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    first: number,
    after?: string | null,
  ): Promise<{ audits: Audit[]; hasNext: boolean; total: number }> {
    const p = assertApiAccess(principal, 'read');
    const project = await this.projects.findOwned(em, p, projectId);
    const limit = Math.min(Math.max(first, 1), 100);
    // ids are UUIDv7 (time-ordered): keyset pagination on id, newest first.
    const before = after && isUuid(after) ? after : null;
    const [rows, total] = await Promise.all([
      this.repo.listForProject(em, project.id, limit + 1, before),
      this.repo.countForProject(em, project.id),
    ]);
    return { audits: rows.slice(0, limit), hasNext: rows.length > limit, total };
  }

  /** A job is found through its audit, within the caller's organization. */
  async job(em: EntityManager, principal: Principal | null, jobId: string): Promise<Audit> {
    const p = assertApiAccess(principal, 'read');
    // Job ids are the audits' UUIDs: anything else names no job and must not reach the query.
    if (!isUuid(jobId)) throw notFound('Job');
    const audit = await this.repo.findByJobId(em, jobId);
    if (audit) {
      const owned = await this.projects.findOwned(em, p, audit.projectId).catch(() => null);
      if (owned) return audit;
    }
    throw notFound('Job');
  }

  /** The audit's issues, in no set order: issue-order.ts orders a list (by severity, then priority). */
  issues(em: EntityManager, auditId: string): Promise<AuditIssue[]> {
    return this.issueRows.findIssues(em, auditId);
  }

  /** One issue of an audit (the audit was reached through a tenant-checked query); NOT_FOUND otherwise. */
  async issue(em: EntityManager, auditId: string, issueId: string): Promise<AuditIssue> {
    const issue = isUuid(issueId) ? await this.issueRows.findIssue(em, auditId, issueId) : null;
    if (!issue) throw notFound('Issue');
    return issue;
  }

  async occurrences(
    em: EntityManager,
    auditId: string,
    code: string,
    first: number,
    after?: string | null,
  ): Promise<{ rows: OccurrenceRow[]; hasNext: boolean }> {
    const limit = Math.min(Math.max(first, 1), 500);
    const cursor = after && /^\d{1,18}$/.test(after) ? after : '0';
    const rows = await this.issueRows.listOccurrences(em, auditId, code, cursor, limit + 1);
    return { rows: rows.slice(0, limit), hasNext: rows.length > limit };
  }

  /**
   * Cancels the project's queued or running audit, or the one named: an already cancelled audit is returned as it is,
   * a completed or failed one is refused. The pages and occurrences written so far stay.
   */
  async cancel(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    auditId?: string | null,
  ): Promise<Audit> {
    const p = assertApiAccess(principal, 'write');
    const project = await this.projects.findOwned(em, p, projectId);
    if (auditId && !isUuid(auditId)) throw notFound('Audit');
    const [cancelled] = await this.cancelActive(em, project.id, auditId ?? null, CANCELLED_BY_USER);
    const id = cancelled?.id ?? auditId;
    if (!id) throw new DomainError('NOT_FOUND', 'No queued or running audit for this project');
    // Read back (not from this request's identity map, which may hold the row as it was).
    const audit = await this.repo.findInProject(em, id, project.id, { refresh: true });
    if (!audit) throw notFound('Audit');
    if (cancelled || audit.status === 'CANCELLED') return audit;
    throw badInput(
      `The audit already ${audit.status === 'COMPLETED' ? 'completed' : 'failed'}: only a queued or ` +
        `running audit can be cancelled.`,
      [{ path: 'auditId', message: `the audit is ${audit.status}` }],
    );
  }

  /** Before a project goes: its active audits are cancelled and their queued jobs removed. */
  async cancelForProject(em: EntityManager, project: Project): Promise<void> {
    await this.cancelActive(em, project.id, null, 'Cancelled: the project was deleted.');
  }

  /**
   * QUEUED | RUNNING -> CANCELLED (audit-lifecycle.ts): a guarded UPDATE, so an audit that completes or fails at the
   * same moment is not cancelled too. A queued job is removed; a running one cannot be (its worker holds the lock):
   * the job runner watches the row and stops the crawl within a fraction of a second.
   */
  private async cancelActive(
    em: EntityManager,
    projectId: string,
    auditId: string | null,
    reason: string,
  ): Promise<{ id: string; jobId: string }[]> {
    const cancelled = await lifecycle.cancel(em, { projectId, auditId }, reason);
    for (const row of cancelled) await this.queue.remove(row.jobId).catch(() => 0);
    return cancelled;
  }
}
