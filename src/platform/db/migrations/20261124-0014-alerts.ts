import { Migration } from '@mikro-orm/migrations';

/**
 * Alerts (src/alerts): rules per project, webhook endpoints (their signing secret encrypted, never hashed: it must
 * sign), the alerts raised (one row per rule and subject, so a retried evaluation raises nothing twice), one delivery
 * row per webhook attempt, members' e-mail preferences per project, and how far a project's rank checks were
 * evaluated.
 */
export class Alerts20261124 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "alert_rule" (
      "id" uuid not null primary key,
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "kind" text not null check ("kind" in ('SCORE_DROP', 'NEW_ISSUES', 'PAGE_REGRESSION', 'KEYWORD_DROP',
        'KEYWORD_LEFT_TOP10', 'VITAL_POOR')),
      "category" text null check ("category" in ('OVERALL', 'META', 'CONTENT', 'LINKS', 'TECHNICAL', 'PERFORMANCE')),
      "points" int null check ("points" between 1 and 100),
      "min_severity" text null check ("min_severity" in ('CRITICAL', 'WARNING', 'NOTICE')),
      "positions" int null check ("positions" between 1 and 100),
      "enabled" boolean not null default true,
      "channels" text[] not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now());`);
    this.addSql(`create index "alert_rule_project_idx" on "alert_rule" ("project_id", "created_at");`);

    this.addSql(`create table "webhook_endpoint" (
      "id" uuid not null primary key,
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "url" text not null,
      "description" text not null default '',
      "secret" text not null,
      "enabled" boolean not null default true,
      "created_at" timestamptz not null default now(),
      "secret_rotated_at" timestamptz not null default now());`);
    this.addSql(`create index "webhook_endpoint_project_idx" on "webhook_endpoint" ("project_id", "created_at");`);

    this.addSql(`create table "alert_event" (
      "id" uuid not null primary key,
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "rule_id" uuid null references "alert_rule" ("id") on delete set null,
      "kind" text not null,
      "dedupe_key" text not null,
      "payload" jsonb not null,
      "created_at" timestamptz not null default now(),
      constraint "alert_event_once_per_rule" unique ("rule_id", "dedupe_key"));`);
    this.addSql(`create index "alert_event_project_idx" on "alert_event" ("project_id", "created_at");`);

    this.addSql(`create table "webhook_delivery" (
      "id" uuid not null primary key,
      "endpoint_id" uuid not null references "webhook_endpoint" ("id") on delete cascade,
      "event_id" uuid not null references "alert_event" ("id") on delete cascade,
      "attempt" int not null,
      "manual" boolean not null default false,
      "succeeded" boolean not null,
      "status_code" int null,
      "error" text null,
      "latency_ms" int not null,
      "response_excerpt" text null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "webhook_delivery_endpoint_idx" on "webhook_delivery" ("endpoint_id", "id" desc);`);

    this.addSql(`create table "alert_mail_preference" (
      "user_id" text not null references "user" ("id") on delete cascade,
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "immediate" boolean not null default false,
      "weekly_digest" boolean not null default false,
      "updated_at" timestamptz not null default now(),
      primary key ("user_id", "project_id"));`);
    this.addSql(`create index "alert_mail_preference_project_idx" on "alert_mail_preference" ("project_id");`);

    this.addSql(`create table "alert_rank_watermark" (
      "project_id" uuid not null primary key references "project" ("id") on delete cascade,
      "evaluated_until" timestamptz not null);`);
  }

  override async down(): Promise<void> {
    for (const t of [
      'alert_rank_watermark',
      'alert_mail_preference',
      'webhook_delivery',
      'alert_event',
      'webhook_endpoint',
      'alert_rule',
    ])
      this.addSql(`drop table if exists "${t}" cascade;`);
  }
}
