import { nativeQuery, nativeTransaction, queryOn, type NativeDb, type NativeTx } from '../platform/db/native-query.js';
import type { DeliveryState } from './alert-outbox.repository.js';

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

/** Webhook endpoints (their sealed secrets included) and the log of attempts to deliver alerts to them. */
export class WebhookRepository {
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
    const rows = await queryOn<{ id: string }>(
      db,
      'SELECT id FROM webhook_endpoint WHERE project_id = $1 AND enabled ORDER BY created_at, id',
      [projectId],
    );
    return rows.map((r) => r.id);
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
}
