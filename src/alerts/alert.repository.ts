import { nativeQuery, nativeTransaction, type NativeDb, type NativeTx } from '../platform/db/native-query.js';
import { jsonParam } from '../platform/db/sql-params.js';
import type { CategoryScores, KeywordMoveFact } from './alert-facts.js';
import type { AlertRule, AlertRuleKind } from './alert-rules.js';
import type { AlertRuleFields } from './alert-rule-input.js';
import type { VitalsRow } from './alert-vitals.js';

const RULE_COLUMNS = `r.id, r.project_id AS "projectId", r.kind, r.category, r.points, r.min_severity AS "minSeverity",
  r.positions, r.enabled, r.channels, r.created_at AS "createdAt", r.updated_at AS "updatedAt"`;

/** A webhook endpoint as lists show it: never its secret. */
export interface WebhookEndpointRow {
  id: string;
  projectId: string;
  url: string;
  description: string;
  enabled: boolean;
  createdAt: Date;
  secretRotatedAt: Date;
}

const ENDPOINT_COLUMNS = `e.id, e.project_id AS "projectId", e.url, e.description, e.enabled,
  e.created_at AS "createdAt", e.secret_rotated_at AS "secretRotatedAt"`;

/** What a delivery needs of its endpoint: the sealed secret included. */
export interface EndpointForDelivery {
  id: string;
  projectId: string;
  url: string;
  enabled: boolean;
  secret: string;
}

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

/** One attempt to deliver an event to an endpoint, with the state of the delivery it belongs to. */
export interface WebhookDeliveryRow {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  manual: boolean;
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseExcerpt: string | null;
  createdAt: Date;
  /** The state of the delivery the attempt belongs to, now (null: an attempt logged before deliveries were owed). */
  status: DeliveryState | null;
  /** Why that delivery was abandoned or skipped. */
  reason: string | null;
  /** When its next attempt is due, while it is PENDING. */
  nextAttemptAt: Date | null;
}

export type NewWebhookDelivery = Omit<
  WebhookDeliveryRow,
  'createdAt' | 'eventType' | 'status' | 'reason' | 'nextAttemptAt'
> & { deliveryId: string | null };

const DELIVERY_COLUMNS = `d.id, d.endpoint_id AS "endpointId", d.event_id AS "eventId",
  COALESCE(ev.payload->>'type', ev.kind) AS "eventType", d.attempt, d.manual, d.succeeded,
  d.status_code AS "statusCode", d.error, d.latency_ms AS "latencyMs", d.response_excerpt AS "responseExcerpt",
  d.created_at AS "createdAt", od.state AS status, od.reason,
  CASE WHEN od.state = 'PENDING' THEN od.next_attempt_at END AS "nextAttemptAt"`;
/** The attempt log joined with its delivery (`od`) and alert (`ev`). */
const DELIVERY_FROM = `webhook_delivery d JOIN alert_event ev ON ev.id = d.event_id
  LEFT JOIN alert_delivery od ON od.id = d.delivery_id`;

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

export interface MailPreferenceRow {
  immediate: boolean;
  weeklyDigest: boolean;
}

/** Who gets a mail: a member of the project's organization who opted in. */
export interface MailRecipient {
  userId: string;
  email: string;
  name: string;
}

export interface AlertProject {
  id: string;
  organizationId: string;
  name: string;
  url: string;
  domain: string;
}

/** An audit as alerts read it: its project, state and scores. */
export interface AuditScoresRow {
  id: string;
  projectId: string;
  status: string;
  completedAt: Date | null;
  scores: CategoryScores;
}

const SCORE_COLUMNS = `json_build_object('overall', a.overall_score, 'meta', a.meta_score, 'content', a.content_score,
  'links', a.links_score, 'technical', a.technical_score, 'performance', a.performance_score) AS scores`;

/** One keyword's latest successful check and the one before it. */
export interface KeywordMoveRow extends KeywordMoveFact {
  checkedAt: Date;
}

/** A keyword's position at the start and at the end of a window (null: not ranking, or never checked then). */
export interface KeywordMoverRow {
  keywordId: string;
  keyword: string;
  before: number | null;
  after: number | null;
  checkedBefore: boolean;
  checkedAfter: boolean;
}

/**
 * The alert module's data access: rules, webhook endpoints and deliveries, raised alerts, e-mail preferences, and
 * the reads alerts make of audits, rankings and technical snapshots. The only file of the module that speaks SQL.
 */
export class AlertRepository {
  // ---- rules

  listRules(db: NativeDb, projectId: string): Promise<AlertRule[]> {
    return nativeQuery<AlertRule>(
      db,
      `SELECT ${RULE_COLUMNS} FROM alert_rule r WHERE r.project_id = $1 ORDER BY r.created_at, r.id`,
      [projectId],
    );
  }

  /** The enabled rules of these kinds of a project. */
  activeRules(db: NativeDb | NativeTx, projectId: string, kinds: readonly AlertRuleKind[]): Promise<AlertRule[]> {
    return run<AlertRule>(
      db,
      `SELECT ${RULE_COLUMNS} FROM alert_rule r WHERE r.project_id = $1 AND r.enabled AND r.kind = ANY($2::text[])
       ORDER BY r.created_at, r.id`,
      [projectId, kinds],
    );
  }

  /** A rule of a project of the organization (`ruleId` must be a UUID), or undefined. */
  async findRuleOwned(db: NativeDb, ruleId: string, organizationId: string): Promise<AlertRule | undefined> {
    const [rule] = await nativeQuery<AlertRule>(
      db,
      `SELECT ${RULE_COLUMNS} FROM alert_rule r JOIN project p ON p.id = r.project_id
       WHERE r.id = $1 AND p.organization_id = $2`,
      [ruleId, organizationId],
    );
    return rule;
  }

  /**
   * Inserts a rule under a lock on the project row, after `check` accepted the project's rule count (it throws to
   * refuse). Null when the project is gone.
   */
  insertRuleLocked(
    db: NativeDb,
    rule: { id: string; projectId: string } & AlertRuleFields,
    check: (count: number) => void,
  ): Promise<AlertRule | null> {
    return nativeTransaction(db, async (tx) => {
      const locked = await tx.query('SELECT 1 FROM project WHERE id = $1 FOR UPDATE', [rule.projectId]);
      if (!locked.length) return null;
      const [{ n }] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM alert_rule WHERE project_id = $1', [
        rule.projectId,
      ]);
      check(n);
      const [row] = await tx.query<AlertRule>(
        `INSERT INTO alert_rule AS r (id, project_id, kind, category, points, min_severity, positions, enabled,
           channels)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${RULE_COLUMNS}`,
        [
          rule.id,
          rule.projectId,
          rule.kind,
          rule.category,
          rule.points,
          rule.minSeverity,
          rule.positions,
          rule.enabled,
          rule.channels,
        ],
      );
      return row;
    });
  }

  async updateRule(db: NativeDb, ruleId: string, f: AlertRuleFields): Promise<AlertRule | undefined> {
    const [row] = await nativeQuery<AlertRule>(
      db,
      `UPDATE alert_rule AS r SET kind = $2, category = $3, points = $4, min_severity = $5, positions = $6,
         enabled = $7, channels = $8, updated_at = now() WHERE r.id = $1 RETURNING ${RULE_COLUMNS}`,
      [ruleId, f.kind, f.category, f.points, f.minSeverity, f.positions, f.enabled, f.channels],
    );
    return row;
  }

  async deleteRule(db: NativeDb, ruleId: string): Promise<void> {
    await nativeQuery(db, 'DELETE FROM alert_rule WHERE id = $1', [ruleId]);
  }

  // ---- webhook endpoints

  listEndpoints(db: NativeDb, projectId: string): Promise<WebhookEndpointRow[]> {
    return nativeQuery<WebhookEndpointRow>(
      db,
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoint e WHERE e.project_id = $1 ORDER BY e.created_at, e.id`,
      [projectId],
    );
  }

  async findEndpointOwned(
    db: NativeDb,
    endpointId: string,
    organizationId: string,
  ): Promise<WebhookEndpointRow | undefined> {
    const [row] = await nativeQuery<WebhookEndpointRow>(
      db,
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoint e JOIN project p ON p.id = e.project_id
       WHERE e.id = $1 AND p.organization_id = $2`,
      [endpointId, organizationId],
    );
    return row;
  }

  /** Inserts an endpoint under the project's lock after `check` accepted the count; null when the project is gone. */
  insertEndpointLocked(
    db: NativeDb,
    e: { id: string; projectId: string; url: string; description: string; secret: string },
    check: (count: number) => void,
  ): Promise<WebhookEndpointRow | null> {
    return nativeTransaction(db, async (tx) => {
      const locked = await tx.query('SELECT 1 FROM project WHERE id = $1 FOR UPDATE', [e.projectId]);
      if (!locked.length) return null;
      const [{ n }] = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhook_endpoint WHERE project_id = $1',
        [e.projectId],
      );
      check(n);
      const [row] = await tx.query<WebhookEndpointRow>(
        `INSERT INTO webhook_endpoint AS e (id, project_id, url, description, secret) VALUES ($1, $2, $3, $4, $5)
         RETURNING ${ENDPOINT_COLUMNS}`,
        [e.id, e.projectId, e.url, e.description, e.secret],
      );
      return row;
    });
  }

  async updateEndpoint(
    db: NativeDb,
    endpointId: string,
    f: { url: string; description: string; enabled: boolean },
  ): Promise<WebhookEndpointRow | undefined> {
    const [row] = await nativeQuery<WebhookEndpointRow>(
      db,
      `UPDATE webhook_endpoint AS e SET url = $2, description = $3, enabled = $4 WHERE e.id = $1
       RETURNING ${ENDPOINT_COLUMNS}`,
      [endpointId, f.url, f.description, f.enabled],
    );
    return row;
  }

  async replaceSecret(db: NativeDb, endpointId: string, sealed: string): Promise<WebhookEndpointRow | undefined> {
    const [row] = await nativeQuery<WebhookEndpointRow>(
      db,
      `UPDATE webhook_endpoint AS e SET secret = $2, secret_rotated_at = now() WHERE e.id = $1
       RETURNING ${ENDPOINT_COLUMNS}`,
      [endpointId, sealed],
    );
    return row;
  }

  async deleteEndpoint(db: NativeDb, endpointId: string): Promise<void> {
    await nativeQuery(db, 'DELETE FROM webhook_endpoint WHERE id = $1', [endpointId]);
  }

  async endpointForDelivery(db: NativeDb, endpointId: string): Promise<EndpointForDelivery | undefined> {
    const [row] = await nativeQuery<EndpointForDelivery>(
      db,
      'SELECT id, project_id AS "projectId", url, enabled, secret FROM webhook_endpoint WHERE id = $1',
      [endpointId],
    );
    return row;
  }

  async enabledEndpointIds(db: NativeDb | NativeTx, projectId: string): Promise<string[]> {
    const rows = await run<{ id: string }>(
      db,
      'SELECT id FROM webhook_endpoint WHERE project_id = $1 AND enabled ORDER BY created_at, id',
      [projectId],
    );
    return rows.map((r) => r.id);
  }

  // ---- raised alerts (events)

  /**
   * Records an alert once per rule and subject: a second insert of the same (rule, dedupe key) returns the first
   * row's id with `inserted` false, so a retried evaluation sends nothing new.
   */
  async insertEvent(db: NativeDb | NativeTx, e: NewAlertEvent): Promise<{ id: string; inserted: boolean }> {
    const [row] = await run<{ id: string; inserted: boolean }>(
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

  // ---- deliveries

  async insertDelivery(db: NativeDb, d: NewWebhookDelivery): Promise<void> {
    await nativeQuery(
      db,
      `INSERT INTO webhook_delivery (id, endpoint_id, event_id, attempt, manual, succeeded, status_code, error,
         latency_ms, response_excerpt, delivery_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        d.id,
        d.endpointId,
        d.eventId,
        d.attempt,
        d.manual,
        d.succeeded,
        d.statusCode,
        d.error,
        d.latencyMs,
        d.responseExcerpt,
        d.deliveryId,
      ],
    );
  }

  /** An endpoint's deliveries, newest first (ids are time-ordered), after the `before` id when given. */
  listDeliveries(
    db: NativeDb,
    endpointId: string,
    limit: number,
    before: string | null,
  ): Promise<WebhookDeliveryRow[]> {
    return nativeQuery<WebhookDeliveryRow>(
      db,
      `SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERY_FROM}
       WHERE d.endpoint_id = $1 AND ($2::uuid IS NULL OR d.id < $2::uuid) ORDER BY d.id DESC LIMIT $3`,
      [endpointId, before, limit],
    );
  }

  async countDeliveries(db: NativeDb, endpointId: string): Promise<number> {
    const [{ n }] = await nativeQuery<{ n: number }>(
      db,
      'SELECT count(*)::int AS n FROM webhook_delivery WHERE endpoint_id = $1',
      [endpointId],
    );
    return n;
  }

  /** The latest delivery of each of these endpoints. */
  latestDeliveries(db: NativeDb, endpointIds: string[]): Promise<WebhookDeliveryRow[]> {
    return nativeQuery<WebhookDeliveryRow>(
      db,
      `SELECT ${DELIVERY_COLUMNS} FROM unnest($1::uuid[]) AS ids(id)
       JOIN LATERAL (SELECT * FROM webhook_delivery x WHERE x.endpoint_id = ids.id ORDER BY x.id DESC LIMIT 1) d
         ON true
       JOIN alert_event ev ON ev.id = d.event_id LEFT JOIN alert_delivery od ON od.id = d.delivery_id`,
      [endpointIds],
    );
  }

  /** A delivery of an endpoint of a project of the organization, or undefined. */
  async findDeliveryOwned(
    db: NativeDb,
    deliveryId: string,
    organizationId: string,
  ): Promise<WebhookDeliveryRow | undefined> {
    const [row] = await nativeQuery<WebhookDeliveryRow>(
      db,
      `SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERY_FROM}
       JOIN webhook_endpoint e ON e.id = d.endpoint_id JOIN project p ON p.id = e.project_id
       WHERE d.id = $1 AND p.organization_id = $2`,
      [deliveryId, organizationId],
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
    return run<OwedDelivery>(
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

  // ---- e-mail preferences and recipients

  async preference(db: NativeDb, userId: string, projectId: string): Promise<MailPreferenceRow> {
    const [row] = await nativeQuery<MailPreferenceRow>(
      db,
      `SELECT immediate, weekly_digest AS "weeklyDigest" FROM alert_mail_preference
       WHERE user_id = $1 AND project_id = $2`,
      [userId, projectId],
    );
    return row ?? { immediate: false, weeklyDigest: false };
  }

  async savePreference(db: NativeDb, userId: string, projectId: string, p: MailPreferenceRow): Promise<void> {
    await nativeQuery(
      db,
      `INSERT INTO alert_mail_preference (user_id, project_id, immediate, weekly_digest) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, project_id) DO UPDATE SET immediate = EXCLUDED.immediate,
         weekly_digest = EXCLUDED.weekly_digest, updated_at = now()`,
      [userId, projectId, p.immediate, p.weeklyDigest],
    );
  }

  /** Turns every alert e-mail of the user off; the number of projects that had one on. */
  async unsubscribeAll(db: NativeDb, userId: string): Promise<number> {
    const rows = await nativeQuery<{ project_id: string }>(
      db,
      `UPDATE alert_mail_preference SET immediate = false, weekly_digest = false, updated_at = now()
       WHERE user_id = $1 AND (immediate OR weekly_digest) RETURNING project_id`,
      [userId],
    );
    return rows.length;
  }

  /** Members of the project's organization who want its alerts by e-mail as they happen. */
  immediateRecipients(db: NativeDb | NativeTx, projectId: string): Promise<MailRecipient[]> {
    return run<MailRecipient>(
      db,
      `SELECT u.id AS "userId", u.email, u.name FROM alert_mail_preference ap
       JOIN project p ON p.id = ap.project_id
       JOIN "member" m ON m."userId" = ap.user_id AND m."organizationId" = p.organization_id
       JOIN "user" u ON u.id = ap.user_id
       WHERE ap.project_id = $1 AND ap.immediate ORDER BY u.email`,
      [projectId],
    );
  }

  /** The recipient when they still want the project's alerts and are still a member; undefined otherwise. */
  async immediateRecipient(db: NativeDb, projectId: string, userId: string): Promise<MailRecipient | undefined> {
    const [row] = await nativeQuery<MailRecipient>(
      db,
      `SELECT u.id AS "userId", u.email, u.name FROM alert_mail_preference ap
       JOIN project p ON p.id = ap.project_id
       JOIN "member" m ON m."userId" = ap.user_id AND m."organizationId" = p.organization_id
       JOIN "user" u ON u.id = ap.user_id
       WHERE ap.project_id = $1 AND ap.user_id = $2 AND ap.immediate`,
      [projectId, userId],
    );
    return row;
  }

  /** Users who want a weekly digest of at least one project they are still a member of. */
  async digestUserIds(db: NativeDb): Promise<string[]> {
    const rows = await nativeQuery<{ user_id: string }>(
      db,
      `SELECT DISTINCT ap.user_id FROM alert_mail_preference ap JOIN project p ON p.id = ap.project_id
       JOIN "member" m ON m."userId" = ap.user_id AND m."organizationId" = p.organization_id
       WHERE ap.weekly_digest ORDER BY ap.user_id`,
    );
    return rows.map((r) => r.user_id);
  }

  /** The user and the projects whose digest they want (still a member), by name. */
  async digestSubscription(
    db: NativeDb,
    userId: string,
  ): Promise<{ recipient: MailRecipient; projects: AlertProject[] } | undefined> {
    const [user] = await nativeQuery<MailRecipient>(
      db,
      'SELECT id AS "userId", email, name FROM "user" WHERE id = $1',
      [userId],
    );
    if (!user) return undefined;
    const projects = await nativeQuery<AlertProject>(
      db,
      `SELECT p.id, p.organization_id AS "organizationId", p.name, p.url, p.domain FROM alert_mail_preference ap
       JOIN project p ON p.id = ap.project_id
       JOIN "member" m ON m."userId" = ap.user_id AND m."organizationId" = p.organization_id
       WHERE ap.user_id = $1 AND ap.weekly_digest ORDER BY p.name, p.id`,
      [userId],
    );
    return { recipient: user, projects };
  }

  async userEmail(db: NativeDb, userId: string): Promise<string | undefined> {
    const [row] = await nativeQuery<{ email: string }>(db, 'SELECT email FROM "user" WHERE id = $1', [userId]);
    return row?.email;
  }

  // ---- what alerts read of projects, audits, vitals and rankings

  async project(db: NativeDb | NativeTx, projectId: string): Promise<AlertProject | undefined> {
    const [row] = await run<AlertProject>(
      db,
      'SELECT id, organization_id AS "organizationId", name, url, domain FROM project WHERE id = $1',
      [projectId],
    );
    return row;
  }

  async auditScores(db: NativeDb, auditId: string): Promise<AuditScoresRow | undefined> {
    const [row] = await nativeQuery<AuditScoresRow>(
      db,
      `SELECT a.id, a.project_id AS "projectId", a.status, a.completed_at AS "completedAt", ${SCORE_COLUMNS}
       FROM audit a WHERE a.id = $1`,
      [auditId],
    );
    return row;
  }

  /** The completed audit of the project before this one (by completion time), or undefined. */
  async previousCompletedAudit(db: NativeDb, audit: AuditScoresRow): Promise<AuditScoresRow | undefined> {
    const [row] = await nativeQuery<AuditScoresRow>(
      db,
      `SELECT a.id, a.project_id AS "projectId", a.status, a.completed_at AS "completedAt", ${SCORE_COLUMNS}
       FROM audit a WHERE a.project_id = $1 AND a.status = 'COMPLETED' AND a.id <> $2
         AND (a.completed_at, a.id) < ($3::timestamptz, $2::uuid)
       ORDER BY a.completed_at DESC, a.id DESC LIMIT 1`,
      [audit.projectId, audit.id, audit.completedAt ?? new Date()],
    );
    return row;
  }

  /** Completed audits of the project that completed in [from, until), oldest first. */
  completedAuditsBetween(db: NativeDb, projectId: string, from: Date, until: Date): Promise<AuditScoresRow[]> {
    return nativeQuery<AuditScoresRow>(
      db,
      `SELECT a.id, a.project_id AS "projectId", a.status, a.completed_at AS "completedAt", ${SCORE_COLUMNS}
       FROM audit a WHERE a.project_id = $1 AND a.status = 'COMPLETED' AND a.completed_at >= $2
         AND a.completed_at < $3 ORDER BY a.completed_at, a.id`,
      [projectId, from, until],
    );
  }

  /** The latest completed audit of the project that completed before `at`. */
  async lastCompletedBefore(db: NativeDb, projectId: string, at: Date): Promise<AuditScoresRow | undefined> {
    const [row] = await nativeQuery<AuditScoresRow>(
      db,
      `SELECT a.id, a.project_id AS "projectId", a.status, a.completed_at AS "completedAt", ${SCORE_COLUMNS}
       FROM audit a WHERE a.project_id = $1 AND a.status = 'COMPLETED' AND a.completed_at < $2
       ORDER BY a.completed_at DESC, a.id DESC LIMIT 1`,
      [projectId, at],
    );
    return row;
  }

  /** The Core Web Vitals an audit measured (lab or field), per URL and device. */
  auditVitals(db: NativeDb, auditId: string): Promise<VitalsRow[]> {
    return nativeQuery<VitalsRow>(
      db,
      `SELECT url, device, lcp_ms AS "LCP", cls AS "CLS", inp_ms AS "INP", tbt_ms AS "TBT", fcp_ms AS "FCP",
         ttfb_ms AS "TTFB" FROM technical_snapshot WHERE audit_id = $1 AND source IN ('LAB', 'FIELD')
       ORDER BY url, device, measured_at`,
      [auditId],
    );
  }

  /**
   * Keywords of the project whose latest successful check is later than `since`, with the successful check before
   * it (none: `before` null). A keyword checked once has no move.
   */
  rankMoves(db: NativeDb, projectId: string, since: Date): Promise<KeywordMoveRow[]> {
    return nativeQuery<KeywordMoveRow>(
      db,
      `SELECT k.id AS "keywordId", k.term AS keyword, prev.position AS before, last.position AS after, last.url,
         last.checked_at AS "checkedAt"
       FROM keyword k
       JOIN LATERAL (SELECT position, url, checked_at FROM ranking r WHERE r.keyword_id = k.id AND r.status = 'OK'
                     ORDER BY checked_at DESC, id DESC LIMIT 1) last ON true
       JOIN LATERAL (SELECT position FROM ranking r WHERE r.keyword_id = k.id AND r.status = 'OK'
                     ORDER BY checked_at DESC, id DESC OFFSET 1 LIMIT 1) prev ON true
       WHERE k.project_id = $1 AND last.checked_at > $2
       ORDER BY k.created_at, k.id`,
      [projectId, since],
    );
  }

  /** Every keyword's latest successful position as of `from` and as of `until`. */
  keywordMovers(db: NativeDb, projectId: string, from: Date, until: Date): Promise<KeywordMoverRow[]> {
    return nativeQuery<KeywordMoverRow>(
      db,
      `SELECT k.id AS "keywordId", k.term AS keyword, a.position AS before, b.position AS after,
         a.checked_at IS NOT NULL AS "checkedBefore", b.checked_at IS NOT NULL AS "checkedAfter"
       FROM keyword k
       LEFT JOIN LATERAL (SELECT position, checked_at FROM ranking r WHERE r.keyword_id = k.id AND r.status = 'OK'
                          AND r.checked_at < $2 ORDER BY checked_at DESC, id DESC LIMIT 1) a ON true
       LEFT JOIN LATERAL (SELECT position, checked_at FROM ranking r WHERE r.keyword_id = k.id AND r.status = 'OK'
                          AND r.checked_at < $3 ORDER BY checked_at DESC, id DESC LIMIT 1) b ON true
       WHERE k.project_id = $1 ORDER BY k.created_at, k.id`,
      [projectId, from, until],
    );
  }

  async projectOfKeyword(db: NativeDb, keywordId: string): Promise<string | undefined> {
    const [row] = await nativeQuery<{ project_id: string }>(db, 'SELECT project_id FROM keyword WHERE id = $1', [
      keywordId,
    ]);
    return row?.project_id;
  }

  /** How far the project's rank checks were evaluated (null: never). */
  async rankWatermark(db: NativeDb, projectId: string): Promise<Date | null> {
    const [row] = await nativeQuery<{ at: Date }>(
      db,
      'SELECT evaluated_until AS at FROM alert_rank_watermark WHERE project_id = $1',
      [projectId],
    );
    return row?.at ?? null;
  }

  /** Moves the watermark forward (never back). */
  async advanceRankWatermark(db: NativeDb, projectId: string, until: Date): Promise<void> {
    await nativeQuery(
      db,
      `INSERT INTO alert_rank_watermark (project_id, evaluated_until) SELECT $1, $2 WHERE EXISTS
         (SELECT 1 FROM project WHERE id = $1)
       ON CONFLICT (project_id) DO UPDATE
         SET evaluated_until = GREATEST(alert_rank_watermark.evaluated_until, EXCLUDED.evaluated_until)`,
      [projectId, until],
    );
  }
}

/** A statement on a transaction's connection, or on the pool. */
function run<T>(db: NativeDb | NativeTx, text: string, values: unknown[]): Promise<T[]> {
  return 'getConnection' in db ? nativeQuery<T>(db, text, values) : db.query<T>(text, values);
}
