import { Migration } from '@mikro-orm/migrations';

/**
 * "Won't fix" markings (src/audits/wont-fix.*): one row per project, check code and URL a member accepted, with the
 * reason, who marked it and when. A marking holds the URL's fingerprint as it was marked (the page's content hash
 * and the occurrence's evidence): it applies to an audit's occurrence of the same code and URL while both are the
 * same, and lapses (its row is deleted) once an audit finds that occurrence with a different fingerprint. Rows go
 * with the project; the user who marked may leave (`marked_by` set null, the name kept in `marked_by_name`).
 */
export class WontFix20261127 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "wont_fix" (
      "id" uuid not null primary key,
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "code" text not null check (char_length("code") between 1 and 100),
      "url" text not null check (char_length("url") between 1 and 4096),
      "reason" text not null check (char_length("reason") between 1 and 500),
      "content_hash" text null,
      "evidence" jsonb null,
      "marked_by" text null references "user" ("id") on delete set null,
      "marked_by_name" text not null,
      "marked_at" timestamptz not null default now(),
      constraint "wont_fix_project_code_url_unique" unique ("project_id", "code", "url"));`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "wont_fix";');
  }
}
