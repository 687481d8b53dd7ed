import type { EntityManager } from '@mikro-orm/postgresql';
import { nativeQuery, nativeTransaction, type NativeDb, type NativeTx } from '../platform/db/native-query.js';
import { ProjectEntity, type Project } from '../projects/index.js';
import type { AuditScores, ScoreBreakdown } from '../seo/scoring/index.js';
import {
  ACTIVE_STATUSES,
  AuditEntity,
  type Audit,
  type AuditCounts,
  type AuditPhase,
  type AuditStatus,
} from './audit.entity.js';
import type { CrawlReport } from './audit-engine.js';

/*
 * The audits themselves: their rows read through the entity manager, the sweeper's candidates, and the status writes
 * of audit-lifecycle.ts. The module's other statements are in repositories by concern: audit-results (a running
 * attempt's rows), audit-issues, audit-pages (the pages explorer), audit-dashboard (the loaders' batch reads),
 * ranking-pages and audit-schedule. Callers hold the rules and pass the connection in: `db` (a NativeDb) for raw
 * statements, `em` for entity calls, `tx` inside a nativeTransaction. Raw statements are PostgreSQL's `$1, $2`
 * through native-query.ts.
 */

/** One run of an audit: the attempt number `claim` gave it. */
export interface AuditAttempt {
  auditId: string;
  attempt: number;
}

/** An active audit as the sweeper read it. */
export interface SeenAudit {
  id: string;
  /** COMPLETED: an audit still waiting for its external verdicts (findExternalOrphans). */
  status: 'QUEUED' | 'RUNNING' | 'COMPLETED';
  attempts: number;
}

/** A sweeper candidate: an active audit as seen, with its job id. */
export interface SweepCandidate extends SeenAudit {
  job_id: string;
}

export interface NewAudit {
  id: string;
  projectId: string;
  maxPages: number;
  createdAt: Date;
}

/** A transition of audit-lifecycle.ts: the statuses it may leave from, and the one it reaches. */
export interface StatusTransition {
  from: readonly AuditStatus[];
  to: AuditStatus;
}

/** What a completed attempt writes on its audit row. */
export interface CompletedResult {
  scores: AuditScores;
  breakdown: ScoreBreakdown;
  pagesCrawled: number;
  pagesFailed: number;
  crawl: CrawlReport;
  /** URLs crawled, HTML pages, indexable pages and the caps' N of M (audit.counts). */
  counts: AuditCounts;
  /** Readable before its external verdicts: not final (no alerts, no comparison) until they fold in. */
  externalPending?: boolean;
}

/** The row as the Audit entity names it (plain, not managed by an EntityManager). */
const AUDIT_COLUMNS = `id, project_id AS "projectId", status, phase, job_id AS "jobId",
  overall_score AS "overallScore", meta_score AS "metaScore", content_score AS "contentScore",
  links_score AS "linksScore", technical_score AS "technicalScore", performance_score AS "performanceScore",
  pages_crawled AS "pagesCrawled", pages_queued AS "pagesQueued", pages_failed AS "pagesFailed",
  external_links_checked AS "externalLinksChecked", external_links_found AS "externalLinksFound",
  external_links_final AS "externalLinksFinal", pages_discovered AS "pagesDiscovered",
  crawl_truncated AS "crawlTruncated", unchecked_links AS "uncheckedLinks",
  counts, max_pages AS "maxPages", attempts, error, created_at AS "createdAt", started_at AS "startedAt",
  completed_at AS "completedAt"`;

export class AuditRepository {
  // ---- Audits, read through the entity manager ----

  findById(em: EntityManager, auditId: string): Promise<Audit | null> {
    return em.findOne(AuditEntity, { id: auditId });
  }

  /** The audit's project (the job runner reads its URL and settings). */
  findProject(em: EntityManager, projectId: string): Promise<Project | null> {
    return em.findOne(ProjectEntity, { id: projectId });
  }

  /** The project's queued or running audit (at most one: a partial unique index). */
  findActive(em: EntityManager, projectId: string): Promise<Audit | null> {
    // A completed audit still waiting for its external verdicts holds its worker as a running one did: the project's
    // next audit waits for it too, so that one project cannot stack audits on the workers every organization shares.
    return em.findOne(AuditEntity, {
      projectId,
      $or: [{ status: { $in: ACTIVE_STATUSES } }, { status: 'COMPLETED', externalLinksFinal: false }],
    });
  }

  /** An audit of the project; `refresh` reads the row again rather than the identity map's copy. */
  findInProject(
    em: EntityManager,
    auditId: string,
    projectId: string,
    options: { refresh?: boolean } = {},
  ): Promise<Audit | null> {
    return options.refresh
      ? em.findOne(AuditEntity, { id: auditId, projectId }, { refresh: true })
      : em.findOne(AuditEntity, { id: auditId, projectId });
  }

  /** The project's latest audit, of any status. */
  findLatest(em: EntityManager, projectId: string): Promise<Audit | null> {
    return em.findOne(AuditEntity, { projectId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  findByJobId(em: EntityManager, jobId: string): Promise<Audit | null> {
    return em.findOne(AuditEntity, { jobId });
  }

  findByIds(em: EntityManager, auditIds: string[]): Promise<Audit[]> {
    return em.find(AuditEntity, { id: { $in: auditIds } });
  }

  /** Up to `limit` audits of the project, newest first (ids are UUIDv7), those older than `before` when given. */
  listForProject(em: EntityManager, projectId: string, limit: number, before: string | null): Promise<Audit[]> {
    const where = before ? { projectId, id: { $lt: before } } : { projectId };
    return em.find(AuditEntity, where, { orderBy: { id: 'desc' }, limit });
  }

  countForProject(em: EntityManager, projectId: string): Promise<number> {
    return em.count(AuditEntity, { projectId });
  }

  // ---- The sweeper ----

  /**
   * Active audits whose job started (or was created) more than `graceMs` ago, oldest first, at most 200; a RUNNING
   * audit whose heartbeat is younger than `heartbeatGraceMs` is not one (its worker is alive).
   */
  findSweepCandidates(db: NativeDb, graceMs: number, heartbeatGraceMs: number): Promise<SweepCandidate[]> {
    return nativeQuery<SweepCandidate>(
      db,
      `SELECT id, job_id, status, attempts FROM audit
       WHERE status IN ('QUEUED', 'RUNNING') AND coalesce(started_at,
        created_at) < now() - make_interval(secs => $1::float / 1000)
         AND (status <> 'RUNNING' OR heartbeat_at IS NULL
           OR heartbeat_at < now() - make_interval(secs => $2::float / 1000))
       ORDER BY created_at LIMIT 200`,
      [graceMs, heartbeatGraceMs],
    );
  }

  /**
   * COMPLETED audits still waiting for their external verdicts whose worker stopped beating (it stopped or crashed
   * while the checks went on): what the sweeper finalizes without them.
   */
  findExternalOrphans(db: NativeDb, heartbeatGraceMs: number): Promise<SweepCandidate[]> {
    return nativeQuery<SweepCandidate>(
      db,
      `SELECT id, job_id, status, attempts FROM audit
       WHERE NOT external_links_final AND status = 'COMPLETED'
         AND coalesce(heartbeat_at, completed_at) < now() - make_interval(secs => $1::float / 1000)
       ORDER BY completed_at LIMIT 200`,
      [heartbeatGraceMs],
    );
  }

  // ---- Status writes: called only by audit-lifecycle.ts ----
  // Each statement is guarded on the statuses the lifecycle passes (`transition.from`) and writes the one it
  // names (`transition.to`); the transition table, and which transition applies when, live in audit-lifecycle.ts.
  // Leaving RUNNING clears the phase (a database constraint: a phase only while RUNNING). A test refuses a status
  // write anywhere else, and a call of these methods from any other file.

  /** (none) -> QUEUED. Null when the project already has a queued or running audit (the partial unique index). */
  async insertQueued(db: NativeDb, audit: NewAudit, transition: StatusTransition): Promise<Audit | null> {
    // The conflict target names the partial index's predicate as it is written: PostgreSQL infers the index from it.
    const [row] = await nativeQuery<Audit>(
      db,
      `INSERT INTO audit (id, project_id, status, job_id, pages_crawled, pages_queued, pages_failed,
        max_pages, attempts,
         created_at)
       VALUES ($1, $2, $6, $3, 0, 0, 0, $4, 0, $5)
       ON CONFLICT (project_id) WHERE status IN ('QUEUED', 'RUNNING') DO NOTHING
       RETURNING ${AUDIT_COLUMNS}`,
      [audit.id, audit.projectId, audit.id, audit.maxPages, audit.createdAt, transition.to],
    );
    return row ?? null;
  }

  /** A new attempt (phase CRAWLING, counters reset): its number, or null when the audit was not in `from`. */
  async updateClaimed(db: NativeDb, auditId: string, transition: StatusTransition): Promise<AuditAttempt | null> {
    const [row] = await nativeQuery<{ attempts: number }>(
      db,
      `UPDATE audit SET status = $3, phase = 'CRAWLING', started_at = now(), attempts = attempts + 1, error = NULL,
         pages_crawled = 0, pages_failed = 0, pages_queued = 0, external_links_checked = 0, external_links_found = 0
       WHERE id = $1 AND status = ANY($2::text[]) RETURNING attempts`,
      [auditId, transition.from, transition.to],
    );
    return row ? { auditId, attempt: row.attempts } : null;
  }

  /** Another phase of attempt n, the status unchanged (`transition.from` is the status that has phases). */
  async updatePhase(
    db: NativeDb,
    run: AuditAttempt,
    transition: StatusTransition,
    phase: AuditPhase,
  ): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      `UPDATE audit SET phase = $3 WHERE id = $1 AND attempts = $2 AND status = ANY($4::text[]) RETURNING id`,
      [run.auditId, run.attempt, phase, transition.from],
    );
    return rows.length > 0;
  }

  /**
   * Attempt n's scores and final counters, inside the results transaction (the row stays locked until commit). With
   * `externalPending` the audit is readable but not final: its alerts are owed only once its external verdicts fold in.
   */
  async updateCompleted(
    tx: NativeTx,
    run: AuditAttempt,
    transition: StatusTransition,
    result: CompletedResult,
  ): Promise<boolean> {
    const rows = await tx.query(
      `UPDATE audit SET status = $12, phase = NULL, overall_score = $3, meta_score = $4, content_score = $5,
         links_score = $6, technical_score = $7, performance_score = $8, pages_crawled = $9, pages_failed = $10,
         pages_queued = 0, completed_at = now(), error = NULL, score_breakdown = $13::jsonb,
         pages_discovered = $14, crawl_truncated = $15, unchecked_links = $16::jsonb, counts = $17::jsonb,
         external_links_final = $18
       WHERE id = $1 AND attempts = $2 AND status = ANY($11::text[]) RETURNING id`,
      [
        run.auditId,
        run.attempt,
        ...scoreColumns(result.scores),
        result.pagesCrawled,
        result.pagesFailed,
        transition.from,
        transition.to,
        JSON.stringify(result.breakdown),
        result.crawl.pagesDiscovered,
        result.crawl.truncated,
        JSON.stringify(result.crawl.uncheckedLinks),
        JSON.stringify(result.counts),
        !result.externalPending,
      ],
    );
    if (!rows.length) return false;
    // The completion's outbox: its alerts are owed from this commit on, whatever becomes of the alert queue's job
    // (src/alerts claims the row once; its workers reconcile the queue with the pending ones).
    if (!result.externalPending) await oweAlerts(tx, run.auditId);
    return true;
  }

  /**
   * Attempt n's external verdicts folded in: the scores and counts again, and the audit final (alerts owed), inside
   * the transaction that replaces its issues. Only a COMPLETED audit of that attempt still waiting for them.
   */
  async updateExternalFinal(
    tx: NativeTx,
    run: AuditAttempt,
    transition: StatusTransition,
    result: Pick<CompletedResult, 'scores' | 'breakdown' | 'crawl' | 'counts'>,
  ): Promise<boolean> {
    const rows = await tx.query(
      `UPDATE audit SET status = $10, overall_score = $3, meta_score = $4, content_score = $5, links_score = $6,
         technical_score = $7, performance_score = $8, score_breakdown = $11::jsonb, unchecked_links = $12::jsonb,
         counts = $13::jsonb, external_links_final = true
       WHERE id = $1 AND attempts = $2 AND status = ANY($9::text[]) AND NOT external_links_final RETURNING id`,
      [
        run.auditId,
        run.attempt,
        ...scoreColumns(result.scores),
        transition.from,
        transition.to,
        JSON.stringify(result.breakdown),
        JSON.stringify(result.crawl.uncheckedLinks),
        JSON.stringify(result.counts),
      ],
    );
    if (!rows.length) return false;
    await oweAlerts(tx, run.auditId);
    return true;
  }

  /**
   * An audit still waiting for its external verdicts, as seen (status and attempt), made final without them: the
   * targets still pending are counted as left by a stopped worker, and its alerts are owed.
   */
  updateExternalFinalSeen(db: NativeDb, seen: SeenAudit, transition: StatusTransition): Promise<boolean> {
    return nativeTransaction(db, async (tx) => {
      const rows = await tx.query(
        `UPDATE audit SET status = $5, external_links_final = true,
           counts = CASE WHEN counts ? 'externalLinks' THEN jsonb_set(jsonb_set(counts, '{externalLinks,workerStopped}',
             to_jsonb(COALESCE((counts->'externalLinks'->>'pending')::int, 0))), '{externalLinks,pending}', '0')
             ELSE counts END
         WHERE id = $1 AND status = $2 AND attempts = $3 AND status = ANY($4::text[]) AND NOT external_links_final
         RETURNING id`,
        [seen.id, seen.status, seen.attempts, transition.from, transition.to],
      );
      if (!rows.length) return false;
      await oweAlerts(tx, seen.id);
      return true;
    });
  }

  /** Attempt n's end with an error and the pages it reached. */
  async updateAttemptFailed(
    db: NativeDb,
    run: AuditAttempt,
    transition: StatusTransition,
    message: string,
    pages: { pagesCrawled: number; pagesFailed: number },
  ): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      `UPDATE audit SET status = $7, phase = NULL, error = $3, completed_at = now(), pages_crawled = $4,
         pages_failed = $5, pages_queued = 0
       WHERE id = $1 AND attempts = $2 AND status = ANY($6::text[]) RETURNING id`,
      [run.auditId, run.attempt, message, pages.pagesCrawled, pages.pagesFailed, transition.from, transition.to],
    );
    return rows.length > 0;
  }

  /** The audit's end with an error, whichever attempt. */
  async updateFailed(db: NativeDb, auditId: string, transition: StatusTransition, message: string): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      `UPDATE audit SET status = $4, phase = NULL, error = $2, completed_at = now()
       WHERE id = $1 AND status = ANY($3::text[]) RETURNING id`,
      [auditId, message, transition.from, transition.to],
    );
    return rows.length > 0;
  }

  /** Back to the queue; `note` replaces the error. */
  async updateRequeued(
    db: NativeDb,
    auditId: string,
    transition: StatusTransition,
    note: string | null,
  ): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      `UPDATE audit SET status = $4, phase = NULL, error = $2 WHERE id = $1 AND status = ANY($3::text[]) RETURNING id`,
      [auditId, note, transition.from, transition.to],
    );
    return rows.length > 0;
  }

  /** The project's audits in `from` (or only the one named, when it is): their ids and job ids. */
  updateCancelled(
    db: NativeDb,
    target: { projectId: string; auditId: string | null },
    transition: StatusTransition,
    reason: string,
  ): Promise<{ id: string; jobId: string }[]> {
    return nativeQuery<{ id: string; jobId: string }>(
      db,
      `UPDATE audit SET status = $5, phase = NULL, completed_at = now(), error = $3
       WHERE project_id = $1 AND ($2::uuid IS NULL OR id = $2) AND status = ANY($4::text[])
       RETURNING id, job_id AS "jobId"`,
      [target.projectId, target.auditId, reason, transition.from, transition.to],
    );
  }

  /**
   * Back to the queue, if the audit is still as seen (status and attempt). With a note the error says why; without
   * one the error is left as it was.
   */
  async updateSeenRequeued(
    db: NativeDb,
    seen: SeenAudit,
    transition: StatusTransition,
    note?: string,
  ): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      note === undefined
        ? `UPDATE audit SET status = $5, phase = NULL
           WHERE id = $1 AND status = $2 AND attempts = $3 AND status = ANY($4::text[]) RETURNING id`
        : `UPDATE audit SET status = $5, phase = NULL, error = $6
           WHERE id = $1 AND status = $2 AND attempts = $3 AND status = ANY($4::text[]) RETURNING id`,
      note === undefined
        ? [seen.id, seen.status, seen.attempts, transition.from, transition.to]
        : [seen.id, seen.status, seen.attempts, transition.from, transition.to, note],
    );
    return rows.length > 0;
  }

  /** The audit's end with the reason, if it is still as seen (status and attempt). */
  async updateSeenFailed(
    db: NativeDb,
    seen: SeenAudit,
    transition: StatusTransition,
    reason: string,
  ): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      `UPDATE audit SET status = $5, phase = NULL, error = $6, completed_at = now()
       WHERE id = $1 AND status = $2 AND attempts = $3 AND status = ANY($4::text[]) RETURNING id`,
      [seen.id, seen.status, seen.attempts, transition.from, transition.to, reason],
    );
    return rows.length > 0;
  }

  // ---- End of status writes ----
}

/** The audit's alerts are owed (its evaluation row, committed with the write that makes it final). */
async function oweAlerts(tx: NativeTx, auditId: string): Promise<void> {
  await tx.query('INSERT INTO alert_evaluation (audit_id) VALUES ($1) ON CONFLICT (audit_id) DO NOTHING', [auditId]);
}

/** The six score columns' values, in the order the completion statements name them (overall_score first). */
function scoreColumns(s: AuditScores): (number | null)[] {
  return [s.overall, s.meta, s.content, s.links, s.technical, s.performance];
}
