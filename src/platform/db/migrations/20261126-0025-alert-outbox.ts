import { Migration } from '@mikro-orm/migrations';

/**
 * Alerts late, not lost (issue 47): PostgreSQL records what the alert queue still owes, so that a Redis that was down
 * or lost its data delays an alert instead of dropping it.
 * - `alert_evaluation`: one row per completed audit, inserted in the transaction that completes it
 *   (audit-lifecycle.ts), claimed once by an alert worker (`FOR UPDATE SKIP LOCKED`, then DONE in the same
 *   transaction as the alerts it raised).
 * - `alert_delivery`: one row per alert and recipient (a webhook endpoint or a member's e-mail), with its state,
 *   attempts, next attempt time and the reason it was abandoned; unique per (alert, endpoint) and (alert, member), so
 *   a second evaluation adds none. Each attempt is claimed by a guarded update on its attempt number.
 * - `webhook_delivery.delivery_id`: the attempt log row's delivery (null for attempts logged before this).
 * Workers reconcile BullMQ with both tables (src/alerts/alert-outbox.ts).
 */
export class AlertOutbox20261126 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "alert_evaluation" (
      "audit_id" uuid not null primary key references "audit" ("id") on delete cascade,
      "state" text not null default 'PENDING' check ("state" in ('PENDING', 'DONE', 'ABANDONED')),
      "attempts" int not null default 0,
      "next_attempt_at" timestamptz not null default now(),
      "last_error" text null,
      "created_at" timestamptz not null default now(),
      "evaluated_at" timestamptz null);`);
    this.addSql(
      `create index "alert_evaluation_pending_idx" on "alert_evaluation" ("next_attempt_at")
       where "state" = 'PENDING';`,
    );

    this.addSql(`create table "alert_delivery" (
      "id" uuid not null primary key,
      "event_id" uuid not null references "alert_event" ("id") on delete cascade,
      "channel" text not null check ("channel" in ('WEBHOOK', 'EMAIL')),
      "endpoint_id" uuid null references "webhook_endpoint" ("id") on delete cascade,
      "user_id" text null references "user" ("id") on delete cascade,
      "manual" boolean not null default false,
      "state" text not null default 'PENDING' check ("state" in ('PENDING', 'DELIVERED', 'ABANDONED', 'SKIPPED')),
      "attempts" int not null default 0,
      "max_attempts" int not null check ("max_attempts" between 1 and 20),
      "next_attempt_at" timestamptz not null default now(),
      "last_error" text null,
      "reason" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "alert_delivery_recipient" check (("channel" = 'WEBHOOK' and "endpoint_id" is not null
        and "user_id" is null) or ("channel" = 'EMAIL' and "user_id" is not null and "endpoint_id" is null)));`);
    this.addSql(
      `create unique index "alert_delivery_webhook_once" on "alert_delivery" ("event_id", "endpoint_id")
       where "channel" = 'WEBHOOK' and not "manual";`,
    );
    this.addSql(
      `create unique index "alert_delivery_email_once" on "alert_delivery" ("event_id", "user_id")
       where "channel" = 'EMAIL';`,
    );
    this.addSql(
      `create index "alert_delivery_pending_idx" on "alert_delivery" ("next_attempt_at") where "state" = 'PENDING';`,
    );
    this.addSql(`create index "alert_delivery_endpoint_idx" on "alert_delivery" ("endpoint_id");`);

    this.addSql(
      `alter table "webhook_delivery" add column "delivery_id" uuid null references "alert_delivery" ("id")
       on delete cascade;`,
    );
    this.addSql(`create index "webhook_delivery_delivery_idx" on "webhook_delivery" ("delivery_id");`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "webhook_delivery" drop column if exists "delivery_id";');
    this.addSql('drop table if exists "alert_delivery" cascade;');
    this.addSql('drop table if exists "alert_evaluation" cascade;');
  }
}
