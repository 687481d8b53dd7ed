import { Migration } from '@mikro-orm/migrations';

/**
 * Segments (src/audits/segment.*): a project's named sets of URLs, each one rule: a regular expression on the URL
 * (REGEX), a path prefix (PATH) or a saved URL-table filter (FILTER, the filter builder's groups as JSON). A name is
 * unique per project without regard to case; rows go with the project.
 */
export class ProjectSegments20261127 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "segment" (
      "id" uuid not null primary key,
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "name" text not null check (char_length("name") between 1 and 80),
      "kind" text not null check ("kind" in ('REGEX', 'PATH', 'FILTER')),
      "pattern" text null check (char_length("pattern") <= 500),
      "filter" jsonb null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "segment_rule" check (("kind" = 'FILTER') = ("filter" is not null)
        and ("kind" <> 'FILTER') = ("pattern" is not null)));`);
    this.addSql(`create unique index "segment_project_name_unique" on "segment" ("project_id", lower("name"));`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "segment";');
  }
}
