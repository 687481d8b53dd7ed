import { nativeQuery, type NativeDb, type NativeTx } from '../platform/db/native-query.js';
import type { AuditScores } from '../seo/scoring/index.js';
import type { Audit, AuditPhase } from './audit.entity.js';

/**
 * The audit state machine: the only code that writes `audit.status` (and `audit.phase`, which only a RUNNING audit
 * has). Each transition is ONE guarded statement (`UPDATE ... WHERE id = $1 AND status IN (...)`) that says whether
 * it happened; the caller acts on that answer, so two processes racing for the same audit cannot both win.
 *
 *   from                       to         function     caller: why
 *   (none)                     QUEUED     create       AuditService.start; one active audit per project (an index)
 *   QUEUED | RUNNING           RUNNING    claim        AuditJobRunner.run: attempt n+1 starts; a RUNNING audit is
 *                                                      claimed again when its job's lock expired (n is superseded)
 *   RUNNING, attempt n         RUNNING    enterPhase   AuditJobRunner: CRAWLING -> ANALYZING -> MEASURING -> SAVING
 *   RUNNING, attempt n         COMPLETED  complete     AuditJobRunner, in the transaction that writes the results
 *   RUNNING, attempt n         FAILED     failAttempt  AuditJobRunner: the site could not be audited (no retry)
 *   QUEUED | RUNNING           FAILED     fail         the worker: last attempt spent; AuditService.start: not queued
 *   RUNNING                    QUEUED     requeue      the worker: an attempt to retry, an outage, a shutdown
 *   QUEUED | RUNNING           CANCELLED  cancel       AuditService.cancel; project deletion
 *   QUEUED | RUNNING, as seen  QUEUED     requeueSeen  AuditSweeper: its job was lost, or waits while it "runs"
 *   QUEUED | RUNNING, as seen  FAILED     failSeen     AuditSweeper: its job failed unseen, or was lost too often
 *
 * COMPLETED, FAILED and CANCELLED are final: no transition leaves them (running an audit again creates a new one).
 * "attempt n" fences a run: `claim` increments `attempts`, and a run's later transitions match only its own attempt.
 * "as seen": the sweeper's status and attempt at the time it looked, so that a worker's claim meanwhile wins.
 * Leaving RUNNING clears the phase (a database constraint: a phase only while RUNNING).
 */

/** One run of an audit: the attempt number `claim` gave it. */
export interface AuditAttempt {
  auditId: string;
  attempt: number;
}

/** An active audit as the sweeper read it. */
export interface SeenAudit {
  id: string;
  status: 'QUEUED' | 'RUNNING';
  attempts: number;
}

export interface NewAudit {
  id: string;
  projectId: string;
  maxPages: number;
  createdAt: Date;
}

/** The row as the Audit entity names it (plain, not managed by an EntityManager). */
const AUDIT_COLUMNS = `id, project_id AS "projectId", status, phase, job_id AS "jobId",
  overall_score AS "overallScore", meta_score AS "metaScore", content_score AS "contentScore",
  links_score AS "linksScore", technical_score AS "technicalScore", performance_score AS "performanceScore",
  pages_crawled AS "pagesCrawled", pages_queued AS "pagesQueued", pages_failed AS "pagesFailed",
  max_pages AS "maxPages", attempts, error, created_at AS "createdAt", started_at AS "startedAt",
  completed_at AS "completedAt"`;

/** (none) -> QUEUED. Null when the project already has a queued or running audit (the partial unique index). */
export async function create(db: NativeDb, audit: NewAudit): Promise<Audit | null> {
  const [row] = await nativeQuery<Audit>(
    db,
    `INSERT INTO audit (id, project_id, status, job_id, pages_crawled, pages_queued, pages_failed, max_pages, attempts,
       created_at)
     VALUES ($1, $2, 'QUEUED', $3, 0, 0, 0, $4, 0, $5)
     ON CONFLICT (project_id) WHERE status IN ('QUEUED', 'RUNNING') DO NOTHING
     RETURNING ${AUDIT_COLUMNS}`,
    [audit.id, audit.projectId, audit.id, audit.maxPages, audit.createdAt],
  );
  return row ?? null;
}

/** QUEUED | RUNNING -> RUNNING (phase CRAWLING, counters reset): the new attempt, or null when the audit is final. */
export async function claim(db: NativeDb, auditId: string): Promise<AuditAttempt | null> {
  const [row] = await nativeQuery<{ attempts: number }>(
    db,
    `UPDATE audit SET status = 'RUNNING', phase = 'CRAWLING', started_at = now(), attempts = attempts + 1, error = NULL,
       pages_crawled = 0, pages_failed = 0, pages_queued = 0
     WHERE id = $1 AND status IN ('QUEUED', 'RUNNING') RETURNING attempts`,
    [auditId],
  );
  return row ? { auditId, attempt: row.attempts } : null;
}

/** RUNNING (attempt n) -> RUNNING in another phase. */
export async function enterPhase(db: NativeDb, run: AuditAttempt, phase: AuditPhase): Promise<boolean> {
  const rows = await nativeQuery(
    db,
    `UPDATE audit SET phase = $3 WHERE id = $1 AND attempts = $2 AND status = 'RUNNING' RETURNING id`,
    [run.auditId, run.attempt, phase],
  );
  return rows.length > 0;
}

/**
 * RUNNING (attempt n) -> COMPLETED with its scores, inside the transaction that writes the results: the row stays
 * locked until commit, so a cancel at the same moment waits and then finds the audit final.
 */
export async function complete(
  tx: NativeTx,
  run: AuditAttempt,
  result: { scores: AuditScores; pagesCrawled: number; pagesFailed: number },
): Promise<boolean> {
  const s = result.scores;
  const rows = await tx.query(
    `UPDATE audit SET status = 'COMPLETED', phase = NULL, overall_score = $3, meta_score = $4, content_score = $5,
       links_score = $6, technical_score = $7, performance_score = $8, pages_crawled = $9, pages_failed = $10,
       pages_queued = 0, completed_at = now(), error = NULL
     WHERE id = $1 AND attempts = $2 AND status = 'RUNNING' RETURNING id`,
    [
      run.auditId,
      run.attempt,
      s.overall,
      s.meta,
      s.content,
      s.links,
      s.technical,
      s.performance,
      result.pagesCrawled,
      result.pagesFailed,
    ],
  );
  return rows.length > 0;
}

/** RUNNING (attempt n) -> FAILED, with the pages that run reached. A cancelled or superseded run fails nothing. */
export async function failAttempt(
  db: NativeDb,
  run: AuditAttempt,
  message: string,
  pages: { pagesCrawled: number; pagesFailed: number },
): Promise<boolean> {
  const rows = await nativeQuery(
    db,
    `UPDATE audit SET status = 'FAILED', phase = NULL, error = $3, completed_at = now(), pages_crawled = $4,
       pages_failed = $5, pages_queued = 0
     WHERE id = $1 AND attempts = $2 AND status = 'RUNNING' RETURNING id`,
    [run.auditId, run.attempt, message, pages.pagesCrawled, pages.pagesFailed],
  );
  return rows.length > 0;
}

/** QUEUED | RUNNING -> FAILED, whichever attempt: the queue gave up on the audit's job. */
export async function fail(db: NativeDb, auditId: string, message: string): Promise<boolean> {
  const rows = await nativeQuery(
    db,
    `UPDATE audit SET status = 'FAILED', phase = NULL, error = $2, completed_at = now()
     WHERE id = $1 AND status IN ('QUEUED', 'RUNNING') RETURNING id`,
    [auditId, message],
  );
  return rows.length > 0;
}

/** RUNNING -> QUEUED: the job goes back to the queue (a retry, an outage, a shutdown); `note` replaces the error. */
export async function requeue(db: NativeDb, auditId: string, note: string | null): Promise<boolean> {
  const rows = await nativeQuery(
    db,
    `UPDATE audit SET status = 'QUEUED', phase = NULL, error = $2 WHERE id = $1 AND status = 'RUNNING' RETURNING id`,
    [auditId, note],
  );
  return rows.length > 0;
}

/**
 * QUEUED | RUNNING -> CANCELLED: the project's active audit, or the one named (null when it is not active). The
 * audits cancelled by this call, with their job ids (their queued jobs are then removed by the caller).
 */
export async function cancel(
  db: NativeDb,
  target: { projectId: string; auditId: string | null },
  reason: string,
): Promise<{ id: string; jobId: string }[]> {
  return nativeQuery<{ id: string; jobId: string }>(
    db,
    `UPDATE audit SET status = 'CANCELLED', phase = NULL, completed_at = now(), error = $3
     WHERE project_id = $1 AND ($2::uuid IS NULL OR id = $2) AND status IN ('QUEUED', 'RUNNING')
     RETURNING id, job_id AS "jobId"`,
    [target.projectId, target.auditId, reason],
  );
}

/**
 * QUEUED | RUNNING, as seen -> QUEUED. With a note (a lost job, queued again) the error says why; without one (a
 * RUNNING audit whose job waits: it is queued, as it is) the error is left as it was.
 */
export async function requeueSeen(db: NativeDb, seen: SeenAudit, note?: string): Promise<boolean> {
  const rows = await nativeQuery(
    db,
    note === undefined
      ? `UPDATE audit SET status = 'QUEUED', phase = NULL
         WHERE id = $1 AND status = $2 AND attempts = $3 AND status IN ('QUEUED', 'RUNNING') RETURNING id`
      : `UPDATE audit SET status = 'QUEUED', phase = NULL, error = $4
         WHERE id = $1 AND status = $2 AND attempts = $3 AND status IN ('QUEUED', 'RUNNING') RETURNING id`,
    note === undefined ? [seen.id, seen.status, seen.attempts] : [seen.id, seen.status, seen.attempts, note],
  );
  return rows.length > 0;
}

/** QUEUED | RUNNING, as seen -> FAILED with the reason. */
export async function failSeen(db: NativeDb, seen: SeenAudit, reason: string): Promise<boolean> {
  const rows = await nativeQuery(
    db,
    `UPDATE audit SET status = 'FAILED', phase = NULL, error = $4, completed_at = now()
     WHERE id = $1 AND status = $2 AND attempts = $3 AND status IN ('QUEUED', 'RUNNING') RETURNING id`,
    [seen.id, seen.status, seen.attempts, reason],
  );
  return rows.length > 0;
}
