import { Migration } from '@mikro-orm/migrations';

/**
 * Per-project check settings (src/checks-catalog/check-settings.*): one row per project and check code that differs
 * from the catalog, either disabled or with another severity (`severity` null keeps the catalog's). A table rather
 * than a key of project.settings: one code's override is set or reset by one keyed statement (no read-modify-write
 * of the whole settings document racing another edit), the database checks each value, and the worker reads a project's
 * rows by primary key. Resetting a code deletes its row, so the table holds only real overrides. Rows go with the
 * project (ON DELETE CASCADE).
 *
 * What an audit used is not read back from here: the worker records it in audit.score_breakdown (`overrides`),
 * beside the scores it produced, so that a later change does not rewrite what a past audit's issues and scores mean.
 */
export class ProjectCheckSettings20261125 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "project_check_setting" (
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "code" text not null check (char_length("code") between 1 and 100),
      "enabled" boolean not null default true,
      "severity" text null check ("severity" in ('CRITICAL', 'WARNING', 'NOTICE')),
      "updated_at" timestamptz not null default now(),
      primary key ("project_id", "code"),
      check (not "enabled" or "severity" is not null)
    );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "project_check_setting";');
  }
}
