import { Migration } from '@mikro-orm/migrations';

/**
 * Scheduled audits. A project's schedule is five columns (how often, the local time, the IANA time zone it is read
 * in, the ISO day of the week for WEEKLY, the day of the month for MONTHLY: 29-31 mean the month's last day in shorter
 * months) and when it was last set (a slot before it is never caught up). PostgreSQL is the source of truth: the
 * BullMQ job schedulers are re-created from these columns whenever Redis lost them.
 *
 * `scheduled_audit_run` records every slot that fired, once: the unique (project, slot) row is claimed before an
 * audit starts, so a slot that fires twice (two schedulers after a Redis flush, a catch-up beside the scheduler's own
 * job, a retried job) starts at most one audit. A skipped slot keeps why (another audit was running, the plan).
 */
export class AuditSchedules20261124 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "project"
      add column "audit_schedule_frequency" text not null default 'OFF'
        check ("audit_schedule_frequency" in ('OFF', 'DAILY', 'WEEKLY', 'MONTHLY')),
      add column "audit_schedule_time" text not null default '09:00'
        check ("audit_schedule_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
      add column "audit_schedule_time_zone" text not null default 'UTC'
        check (length("audit_schedule_time_zone") between 1 and 64),
      add column "audit_schedule_day_of_week" smallint null check ("audit_schedule_day_of_week" between 1 and 7),
      add column "audit_schedule_day_of_month" smallint null check ("audit_schedule_day_of_month" between 1 and 31),
      add column "audit_schedule_changed_at" timestamptz null,
      add constraint "project_audit_schedule_weekly_day" check
        ("audit_schedule_frequency" <> 'WEEKLY' or "audit_schedule_day_of_week" is not null),
      add constraint "project_audit_schedule_monthly_day" check
        ("audit_schedule_frequency" <> 'MONTHLY' or "audit_schedule_day_of_month" is not null);`);
    // The reconciler reads the scheduled projects of every organization, every few minutes, in every worker.
    this.addSql(
      `create index "project_audit_scheduled_idx" on "project" ("id") where "audit_schedule_frequency" <> 'OFF';`,
    );
    this.addSql(`create table "scheduled_audit_run" (
      "id" uuid not null primary key,
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "slot_at" timestamptz not null,
      "outcome" text not null check ("outcome" in ('STARTED', 'SKIPPED')),
      "reason" text null check ("reason" in ('ALREADY_RUNNING', 'PLAN_LIMIT', 'NOT_ALLOWED')),
      "message" text null,
      "audit_id" uuid null references "audit" ("id") on delete set null,
      "created_at" timestamptz not null default now(),
      constraint "scheduled_audit_run_slot_unique" unique ("project_id", "slot_at"));`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "scheduled_audit_run";');
    this.addSql('drop index if exists "project_audit_scheduled_idx";');
    this.addSql(`alter table "project"
      drop constraint if exists "project_audit_schedule_weekly_day",
      drop constraint if exists "project_audit_schedule_monthly_day",
      drop column if exists "audit_schedule_frequency",
      drop column if exists "audit_schedule_time",
      drop column if exists "audit_schedule_time_zone",
      drop column if exists "audit_schedule_day_of_week",
      drop column if exists "audit_schedule_day_of_month",
      drop column if exists "audit_schedule_changed_at";`);
  }
}
