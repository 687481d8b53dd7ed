import type { NativeDb, NativeTx } from '../platform/db/native-query.js';
import type { Audit, AuditPhase } from './audit.entity.js';
import {
  AuditRepository,
  type AuditAttempt,
  type CompletedResult,
  type NewAudit,
  type SeenAudit,
  type StatusTransition,
} from './audit.repository.js';

/**
 * The audit state machine: the only code that writes `audit.status` (and `audit.phase`, which only a RUNNING audit
 * has). Each transition is ONE guarded statement (`UPDATE ... WHERE id = $1 AND status = ANY(from)`) that says whether
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
 *   COMPLETED, attempt n,      COMPLETED  finalizeExternal      AuditJobRunner: the external verdicts folded in
 *     not final
 *   COMPLETED, not final,      COMPLETED  finalizeExternalSeen  AuditSweeper, or the runner stopped while waiting:
 *     as seen                                                   final without them (the worker stopped)
 *
 * An audit whose external link checks outlast its pages completes readable but not final (`external_links_final`
 * false: scores and issues without the checks that read other hosts' answers, no alerts, left out of comparisons);
 * one of the two "finalize" transitions makes it final, once, with its alerts owed in the same transaction.
 * COMPLETED, FAILED and CANCELLED are final: no transition leaves them (running an audit again creates a new one).
 * "attempt n" fences a run: `claim` increments `attempts`, and a run's later transitions match only its own attempt.
 * "as seen": the sweeper's status and attempt at the time it looked, so that a worker's claim meanwhile wins.
 * Leaving RUNNING clears the phase (a database constraint: a phase only while RUNNING).
 *
 * The table is TRANSITIONS below; the statements are in audit.repository.ts (its "Status writes" section, which only
 * this file calls): this file decides which transition applies, from which statuses, and acts on the answer.
 */

export type { AuditAttempt, NewAudit, SeenAudit } from './audit.repository.js';

/** The transition table: for each transition, the statuses it may leave from and the one it reaches. */
export const TRANSITIONS = {
  create: { from: [], to: 'QUEUED' },
  claim: { from: ['QUEUED', 'RUNNING'], to: 'RUNNING' },
  enterPhase: { from: ['RUNNING'], to: 'RUNNING' },
  complete: { from: ['RUNNING'], to: 'COMPLETED' },
  failAttempt: { from: ['RUNNING'], to: 'FAILED' },
  fail: { from: ['QUEUED', 'RUNNING'], to: 'FAILED' },
  requeue: { from: ['RUNNING'], to: 'QUEUED' },
  cancel: { from: ['QUEUED', 'RUNNING'], to: 'CANCELLED' },
  requeueSeen: { from: ['QUEUED', 'RUNNING'], to: 'QUEUED' },
  failSeen: { from: ['QUEUED', 'RUNNING'], to: 'FAILED' },
  finalizeExternal: { from: ['COMPLETED'], to: 'COMPLETED' },
  finalizeExternalSeen: { from: ['COMPLETED'], to: 'COMPLETED' },
} as const satisfies Record<string, StatusTransition>;

const repo = new AuditRepository();

/** (none) -> QUEUED. Null when the project already has a queued or running audit (the partial unique index). */
export function create(db: NativeDb, audit: NewAudit): Promise<Audit | null> {
  return repo.insertQueued(db, audit, TRANSITIONS.create);
}

/** QUEUED | RUNNING -> RUNNING (phase CRAWLING, counters reset): the new attempt, or null when the audit is final. */
export function claim(db: NativeDb, auditId: string): Promise<AuditAttempt | null> {
  return repo.updateClaimed(db, auditId, TRANSITIONS.claim);
}

/** RUNNING (attempt n) -> RUNNING in another phase. */
export function enterPhase(db: NativeDb, run: AuditAttempt, phase: AuditPhase): Promise<boolean> {
  return repo.updatePhase(db, run, TRANSITIONS.enterPhase, phase);
}

/**
 * RUNNING (attempt n) -> COMPLETED with its scores, inside the transaction that writes the results: the row stays
 * locked until commit, so a cancel at the same moment waits and then finds the audit final. The same statement group
 * records the audit's alerts as owed (an `alert_evaluation` row): committed with the completion, evaluated once by an
 * alert worker, late if Redis was away, never lost.
 */
export function complete(tx: NativeTx, run: AuditAttempt, result: CompletedResult): Promise<boolean> {
  return repo.updateCompleted(tx, run, TRANSITIONS.complete, result);
}

/** RUNNING (attempt n) -> FAILED, with the pages that run reached. A cancelled or superseded run fails nothing. */
export function failAttempt(
  db: NativeDb,
  run: AuditAttempt,
  message: string,
  pages: { pagesCrawled: number; pagesFailed: number },
): Promise<boolean> {
  return repo.updateAttemptFailed(db, run, TRANSITIONS.failAttempt, message, pages);
}

/** QUEUED | RUNNING -> FAILED, whichever attempt: the queue gave up on the audit's job. */
export function fail(db: NativeDb, auditId: string, message: string): Promise<boolean> {
  return repo.updateFailed(db, auditId, TRANSITIONS.fail, message);
}

/** RUNNING -> QUEUED: the job goes back to the queue (a retry, an outage, a shutdown); `note` replaces the error. */
export function requeue(db: NativeDb, auditId: string, note: string | null): Promise<boolean> {
  return repo.updateRequeued(db, auditId, TRANSITIONS.requeue, note);
}

/**
 * QUEUED | RUNNING -> CANCELLED: the project's active audit, or the one named (null when it is not active). The
 * audits cancelled by this call, with their job ids (their queued jobs are then removed by the caller).
 */
export function cancel(
  db: NativeDb,
  target: { projectId: string; auditId: string | null },
  reason: string,
): Promise<{ id: string; jobId: string }[]> {
  return repo.updateCancelled(db, target, TRANSITIONS.cancel, reason);
}

/**
 * QUEUED | RUNNING, as seen -> QUEUED. With a note (a lost job, queued again) the error says why; without one (a
 * RUNNING audit whose job waits: it is queued, as it is) the error is left as it was.
 */
export function requeueSeen(db: NativeDb, seen: SeenAudit, note?: string): Promise<boolean> {
  return repo.updateSeenRequeued(db, seen, TRANSITIONS.requeueSeen, note);
}

/** QUEUED | RUNNING, as seen -> FAILED with the reason. */
export function failSeen(db: NativeDb, seen: SeenAudit, reason: string): Promise<boolean> {
  return repo.updateSeenFailed(db, seen, TRANSITIONS.failSeen, reason);
}

/**
 * COMPLETED, attempt n, not final -> final: the external verdicts folded in (scores, counts), in the transaction that
 * replaces the audit's issues; its alerts are owed from this commit on.
 */
export function finalizeExternal(
  tx: NativeTx,
  run: AuditAttempt,
  result: Pick<CompletedResult, 'scores' | 'breakdown' | 'crawl' | 'counts'>,
): Promise<boolean> {
  return repo.updateExternalFinal(tx, run, TRANSITIONS.finalizeExternal, result);
}

/**
 * COMPLETED, not final, as seen -> final without its external verdicts: the worker that waited for them stopped (a
 * shutdown, or found gone by the sweeper). The targets still pending are counted as such; alerts are owed.
 */
export function finalizeExternalSeen(db: NativeDb, seen: SeenAudit): Promise<boolean> {
  return repo.updateExternalFinalSeen(db, seen, TRANSITIONS.finalizeExternalSeen);
}
