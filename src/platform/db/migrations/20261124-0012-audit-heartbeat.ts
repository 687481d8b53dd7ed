import { Migration } from '@mikro-orm/migrations';

/**
 * The heartbeat of a running audit: the worker running attempt n writes `heartbeat_at = now()` every
 * AUDIT_HEARTBEAT_MS (only while the row is RUNNING at attempt n). The sweeper leaves a RUNNING audit with a fresh
 * heartbeat alone whatever Redis says: after Redis restarts empty its job is missing, but its worker is alive and
 * will complete it. Null until an attempt's first beat (audits run before this column existed).
 */
export class AuditHeartbeat20261124 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "audit" add column "heartbeat_at" timestamptz null;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "audit" drop column "heartbeat_at";');
  }
}
