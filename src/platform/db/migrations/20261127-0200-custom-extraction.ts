import { Migration } from '@mikro-orm/migrations';

/**
 * Custom extraction and search (issue 50 item 5, src/projects/custom-extractor.*): a project's extractors, one row
 * each (at most 20, checked by the service), keyed by a slug that names the URL table's column and is kept when the
 * extractor is renamed. Rows go with the project.
 *
 * What a page gave is stored on its audit_page row (`extraction`, jsonb by extractor key): NULL for the pages of
 * projects without extractors, so their rows and the URL table's reads stay as they were. The audit records the
 * extractors it ran (`audit.extractors`), so its columns do not change when the project's extractors do.
 */
export class CustomExtraction20261127 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "project_extractor" (
      "id" uuid not null primary key,
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "key" text not null check ("key" ~ '^[a-z0-9_]{1,40}$'),
      "name" text not null check (char_length("name") between 1 and 80),
      "kind" text not null check ("kind" in ('CSS', 'XPATH', 'REGEX', 'CONTAINS', 'NOT_CONTAINS')),
      "expression" text not null check (char_length("expression") between 1 and 1000),
      "output" text not null check ("output" in ('TEXT', 'ATTRIBUTE', 'INNER_HTML')),
      "attribute" text null,
      "match" text not null check ("match" in ('FIRST', 'ALL')),
      "regex" boolean not null default false,
      "ignore_case" boolean not null default false,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      unique ("project_id", "key")
    );`);
    this.addSql(
      'create unique index "project_extractor_name_unique" on "project_extractor" ("project_id", lower("name"));',
    );
    this.addSql('alter table "audit_page" add column "extraction" jsonb null;');
    this.addSql('alter table "audit" add column "extractors" jsonb null;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "audit" drop column if exists "extractors";');
    this.addSql('alter table "audit_page" drop column if exists "extraction";');
    this.addSql('drop table if exists "project_extractor";');
  }
}
