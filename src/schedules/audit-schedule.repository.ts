import { nativeQuery, nativeTransaction, type NativeDb } from '../platform/db/native-query.js';

// ---- Scheduled audit runs (scheduled_audit_run; the schedules themselves are the project's columns) ----

export type ScheduledRunOutcome = 'STARTED' | 'SKIPPED';
export type ScheduledRunSkipReason = 'ALREADY_RUNNING' | 'PLAN_LIMIT' | 'NOT_ALLOWED';

/** What became of a slot: the audit it started, or why it started none (with the audit that was running, if any). */
export interface ScheduledRunDecision {
  outcome: ScheduledRunOutcome;
  reason: ScheduledRunSkipReason | null;
  message: string | null;
  auditId: string | null;
}

/** One row of scheduled_audit_run. */
export interface ScheduledRunRow extends ScheduledRunDecision {
  id: string;
  projectId: string;
  slotAt: Date;
  createdAt: Date;
}

/** The columns of a run (of the table named `t`, when given) in the shape ScheduledRunRow names. */
const runColumns = (t = '') => `${t}id, ${t}project_id AS "projectId", ${t}slot_at AS "slotAt", ${t}outcome,
  ${t}reason, ${t}message, ${t}audit_id AS "auditId", ${t}created_at AS "createdAt"`;
const RUN_COLUMNS = runColumns();

export class AuditScheduleRepository {
  /**
   * Claims a slot and records what `decide` made of it, in one transaction. The INSERT of the (project, slot) row is
   * the claim: a second claimant of the same slot waits on the unique index until the first commits, then inserts
   * nothing and gets null (`decide` is not called). Should `decide` throw, or the process die, the transaction rolls
   * back and the slot is free again for the job's retry. Null too when the project was deleted meanwhile.
   */
  claimScheduledSlot(
    db: NativeDb,
    run: { id: string; projectId: string; slotAt: Date },
    decide: () => Promise<ScheduledRunDecision>,
  ): Promise<ScheduledRunRow | null> {
    return nativeTransaction(db, async (tx) => {
      let claimed: { id: string }[];
      try {
        claimed = await tx.query<{ id: string }>(
          `INSERT INTO scheduled_audit_run (id, project_id, slot_at, outcome) VALUES ($1, $2, $3, 'STARTED')
           ON CONFLICT (project_id, slot_at) DO NOTHING RETURNING id`,
          [run.id, run.projectId, run.slotAt],
        );
      } catch (err) {
        if ((err as { code?: string }).code === '23503') return null;
        throw err;
      }
      if (claimed.length === 0) return null;
      const decision = await decide();
      const [row] = await tx.query<ScheduledRunRow>(
        `UPDATE scheduled_audit_run SET outcome = $2, reason = $3, message = $4, audit_id = $5 WHERE id = $1
         RETURNING ${RUN_COLUMNS}`,
        [run.id, decision.outcome, decision.reason, decision.message, decision.auditId],
      );
      return row;
    });
  }

  /** Whether a slot of the project was claimed (a catch-up is not needed). */
  async hasScheduledRun(db: NativeDb, projectId: string, slotAt: Date): Promise<boolean> {
    const rows = await nativeQuery<{ one: number }>(
      db,
      'SELECT 1 AS one FROM scheduled_audit_run WHERE project_id = $1 AND slot_at = $2',
      [projectId, slotAt],
    );
    return rows.length > 0;
  }

  /** The latest `limit` runs of each project, latest first (one statement for a list of projects). */
  latestScheduledRuns(db: NativeDb, projectIds: readonly string[], limit: number): Promise<ScheduledRunRow[]> {
    return nativeQuery<ScheduledRunRow>(
      db,
      `SELECT ${runColumns('r.')} FROM unnest($1::uuid[]) AS p(id)
        CROSS JOIN LATERAL (SELECT * FROM scheduled_audit_run s WHERE s.project_id = p.id
          ORDER BY s.slot_at DESC LIMIT $2) r
        ORDER BY r.project_id, r.slot_at DESC`,
      [projectIds, limit],
    );
  }
}
