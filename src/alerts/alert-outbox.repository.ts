import { nativeQuery, nativeTransaction, queryOn, type NativeDb, type NativeTx } from '../platform/db/native-query.js';
import { jsonParam } from '../platform/db/sql-params.js';

export interface AlertEventRow {
  id: string;
  projectId: string;
  ruleId: string | null;
  kind: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

export interface NewAlertEvent {
  id: string;
  projectId: string;
  ruleId: string | null;
  kind: string;
  dedupeKey: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/** Where a delivery stands: owed (PENDING), done (DELIVERED), given up (ABANDONED) or no longer wanted (SKIPPED). */
export type DeliveryState = 'PENDING' | 'DELIVERED' | 'ABANDONED' | 'SKIPPED';

/** A delivery owed to one recipient of one alert (the outbox row). */
export interface OwedDelivery {
  id: string;
  eventId: string;
  channel: 'WEBHOOK' | 'EMAIL';
  endpointId: string | null;
  userId: string | null;
  manual: boolean;
  /** Attempts claimed so far (the one just claimed included). */
  attempts: number;
  maxAttempts: number;
}

export type NewOwedDelivery = Omit<OwedDelivery, 'attempts'>;

const OWED_COLUMNS = `id, event_id AS "eventId", channel, endpoint_id AS "endpointId", user_id AS "userId", manual,
  attempts, max_attempts AS "maxAttempts"`;

/** How an attempt ended, as the outbox records it. */
export type DeliverySettlement =
  | { state: 'DELIVERED' }
  | { state: 'SKIPPED' | 'ABANDONED'; reason: string; lastError: string | null }
  | { state: 'PENDING'; retryInMs: number; lastError: string };

/** Something the alert queue owes that is due (or overdue) by PostgreSQL's clock. */
export interface DueWork {
  evaluations: { auditId: string }[];
  deliveries: { id: string; attempts: number }[];
}

/**
 * Raised alerts and the outbox: each completed audit's evaluation, and the deliveries (mail, webhook) the alert queue
 * owes, claimed and settled one attempt at a time.
 */
export class AlertOutboxRepository {
  // ---- raised alerts (events)

  /**
   * Records an alert once per rule and subject: a second insert of the same (rule, dedupe key) returns the first
   * row's id with `inserted` false, so a retried evaluation sends nothing new.
   */
  async insertEvent(db: NativeDb | NativeTx, e: NewAlertEvent): Promise<{ id: string; inserted: boolean }> {
    const [row] = await queryOn<{ id: string; inserted: boolean }>(
      db,
      `INSERT INTO alert_event (id, project_id, rule_id, kind, dedupe_key, payload, created_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
       ON CONFLICT (rule_id, dedupe_key) DO UPDATE SET dedupe_key = EXCLUDED.dedupe_key
       RETURNING id, (xmax = 0) AS inserted`,
      [e.id, e.projectId, e.ruleId, e.kind, e.dedupeKey, jsonParam(e.payload), e.createdAt],
    );
    return row;
  }

  async eventById(db: NativeDb, eventId: string): Promise<AlertEventRow | undefined> {
    const [row] = await nativeQuery<AlertEventRow>(
      db,
      `SELECT id, project_id AS "projectId", rule_id AS "ruleId", kind, payload, created_at AS "createdAt"
       FROM alert_event WHERE id = $1`,
      [eventId],
    );
    return row;
  }

  // ---- the outbox: evaluations and deliveries the alert queue owes (migration 0025)

  /** Writes that land together (an alert and its owed deliveries). */
  inTransaction<T>(db: NativeDb, work: (tx: NativeTx) => Promise<T>): Promise<T> {
    return nativeTransaction(db, work);
  }

  /**
   * Runs `work` once per completed audit: in one transaction, the audit's evaluation row (inserted by its completion;
   * made here for an audit completed without one) is locked unless another worker holds it, `work` raises its alerts
   * and owed deliveries on the same transaction, and the row becomes DONE with them. Null when there is nothing to
   * evaluate: already DONE or ABANDONED, held by another worker, or the audit is not completed.
   */
  evaluateOnce<T>(db: NativeDb, auditId: string, work: (tx: NativeTx) => Promise<T>): Promise<T | null> {
    return nativeTransaction(db, async (tx) => {
      await tx.query(
        `INSERT INTO alert_evaluation (audit_id) SELECT id FROM audit WHERE id = $1 AND status = 'COMPLETED'
           AND external_links_final
         ON CONFLICT (audit_id) DO NOTHING`,
        [auditId],
      );
      const claimed = await tx.query(
        `SELECT 1 FROM alert_evaluation WHERE audit_id = $1 AND state = 'PENDING' FOR UPDATE SKIP LOCKED`,
        [auditId],
      );
      if (!claimed.length) return null;
      const result = await work(tx);
      await tx.query(
        `UPDATE alert_evaluation SET state = 'DONE', evaluated_at = now(), last_error = NULL WHERE audit_id = $1`,
        [auditId],
      );
      return result;
    });
  }

  /**
   * An evaluation that threw (not an outage): counted, and due again after `retryInMs`; ABANDONED with the error once
   * `maxAttempts` failed. The state it is left in, or undefined when it was no longer pending.
   */
  async evaluationFailed(
    db: NativeDb,
    auditId: string,
    error: string,
    maxAttempts: number,
    retryInMs: number,
  ): Promise<{ state: string; attempts: number } | undefined> {
    const [row] = await nativeQuery<{ state: string; attempts: number }>(
      db,
      `UPDATE alert_evaluation SET attempts = attempts + 1, last_error = $2,
         state = CASE WHEN attempts + 1 >= $3 THEN 'ABANDONED' ELSE 'PENDING' END,
         next_attempt_at = now() + make_interval(secs => $4::float8 / 1000)
       WHERE audit_id = $1 AND state = 'PENDING' RETURNING state, attempts`,
      [auditId, error.slice(0, 1000), maxAttempts, retryInMs],
    );
    return row;
  }

  /** Owed deliveries, on the evaluation's transaction; the ones already owed (same alert and recipient) are left. */
  async insertOwedDeliveries(db: NativeDb | NativeTx, rows: NewOwedDelivery[]): Promise<OwedDelivery[]> {
    if (!rows.length) return [];
    return queryOn<OwedDelivery>(
      db,
      `INSERT INTO alert_delivery (id, event_id, channel, endpoint_id, user_id, manual, max_attempts)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::boolean[], $7::int[])
       ON CONFLICT DO NOTHING RETURNING ${OWED_COLUMNS}`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.eventId),
        rows.map((r) => r.channel),
        rows.map((r) => r.endpointId),
        rows.map((r) => r.userId),
        rows.map((r) => r.manual),
        rows.map((r) => r.maxAttempts),
      ],
    );
  }

  /** The automatic delivery of an alert to a recipient, when one is owed or was made. */
  async owedDeliveryOf(
    db: NativeDb,
    key: { eventId: string; endpointId: string | null; userId: string | null },
  ): Promise<(OwedDelivery & { state: DeliveryState }) | undefined> {
    const [row] = await nativeQuery<OwedDelivery & { state: DeliveryState }>(
      db,
      `SELECT ${OWED_COLUMNS}, state FROM alert_delivery WHERE event_id = $1 AND NOT manual
         AND endpoint_id IS NOT DISTINCT FROM $2::uuid AND user_id IS NOT DISTINCT FROM $3::text`,
      [key.eventId, key.endpointId, key.userId],
    );
    return row;
  }

  /**
   * Claims attempt `attempt` of a pending delivery: only when it has had exactly `attempt - 1`, so that two jobs for
   * the same attempt (the queue's and the reconciler's) make one. The attempt holds the delivery for `leaseMs` (it is
   * not due meanwhile); undefined when another claim won, or it is no longer pending.
   */
  async claimDelivery(
    db: NativeDb,
    deliveryId: string,
    attempt: number,
    leaseMs: number,
  ): Promise<OwedDelivery | undefined> {
    const [row] = await nativeQuery<OwedDelivery>(
      db,
      `UPDATE alert_delivery SET attempts = attempts + 1, updated_at = now(),
         next_attempt_at = now() + make_interval(secs => $3::float8 / 1000)
       WHERE id = $1 AND state = 'PENDING' AND attempts = $2 - 1 RETURNING ${OWED_COLUMNS}`,
      [deliveryId, attempt, leaseMs],
    );
    return row;
  }

  /** The end of attempt `attempt` (fenced on it): done, given up, skipped, or due again after a delay. */
  async settleDelivery(db: NativeDb, deliveryId: string, attempt: number, s: DeliverySettlement): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      `UPDATE alert_delivery SET state = $3, updated_at = now(), reason = $4, last_error = COALESCE($5, last_error),
         next_attempt_at = CASE WHEN $3 = 'PENDING' THEN now() + make_interval(secs => $6::float8 / 1000)
           ELSE next_attempt_at END
       WHERE id = $1 AND attempts = $2 AND state = 'PENDING' RETURNING id`,
      [
        deliveryId,
        attempt,
        s.state,
        s.state === 'SKIPPED' || s.state === 'ABANDONED' ? s.reason.slice(0, 1000) : null,
        s.state === 'DELIVERED' ? null : (s.lastError?.slice(0, 1000) ?? null),
        s.state === 'PENDING' ? s.retryInMs : 0,
      ],
    );
    return rows.length > 0;
  }

  /**
   * What is owed and has been due for at least `graceMs` (the queue had its chance): evaluations of completed audits
   * and pending deliveries, oldest first, at most `limit` of each.
   */
  async dueWork(db: NativeDb, graceMs: number, limit: number): Promise<DueWork> {
    const [evaluations, deliveries] = await Promise.all([
      nativeQuery<{ auditId: string }>(
        db,
        `SELECT audit_id AS "auditId" FROM alert_evaluation
         WHERE state = 'PENDING' AND next_attempt_at <= now() - make_interval(secs => $1::float8 / 1000)
         ORDER BY next_attempt_at LIMIT $2`,
        [graceMs, limit],
      ),
      nativeQuery<{ id: string; attempts: number }>(
        db,
        `SELECT id, attempts FROM alert_delivery
         WHERE state = 'PENDING' AND next_attempt_at <= now() - make_interval(secs => $1::float8 / 1000)
         ORDER BY next_attempt_at LIMIT $2`,
        [graceMs, limit],
      ),
    ]);
    return { evaluations, deliveries };
  }
}
