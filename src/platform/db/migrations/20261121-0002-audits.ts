import { Migration } from '@mikro-orm/migrations';

/**
 * Audits and their results. Occurrences reference their issue by (audit_id, code) so the worker can stream
 * them to the database during the crawl, before the issue rows (with their counts) exist.
 */
export class Audits20261121 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "audit" (
      "id" uuid not null primary key,
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "status" text not null check ("status" in ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED')),
      "job_id" text not null unique,
      "overall_score" int null, "meta_score" int null, "content_score" int null, "links_score" int null,
      "technical_score" int null, "performance_score" int null,
      "pages_crawled" int not null default 0,
      "pages_queued" int not null default 0,
      "max_pages" int not null,
      "attempts" int not null default 0,
      "error" text null,
      "created_at" timestamptz not null default now(),
      "started_at" timestamptz null,
      "completed_at" timestamptz null);`);
    // One active audit per project, enforced by the database itself.
    this.addSql(
      'create unique index "audit_one_active_per_project" on "audit" ("project_id") ' +
        `where "status" in ('QUEUED', 'RUNNING');`,
    );
    this.addSql(`create index "audit_project_created_idx" on "audit" ("project_id", "created_at" desc);`);
    this.addSql(`create index "audit_project_completed_idx" on "audit" ("project_id",
        "completed_at" desc) where "status" = 'COMPLETED';`);

    this.addSql(`create table "audit_page" (
      "id" bigint generated always as identity primary key,
      "audit_id" uuid not null references "audit" ("id") on delete cascade,
      "url" text not null,
      "final_url" text null,
      "status_code" int null,
      "depth" int not null,
      "title" text null,
      "meta_description" text null,
      "canonical" text null,
      "indexable" boolean not null default false,
      "word_count" int not null default 0,
      "response_time_ms" int null,
      "bytes" int not null default 0,
      "content_hash" text null,
      "inlinks" int not null default 0,
      "outlinks" int not null default 0,
      "error" text null,
      constraint "audit_page_audit_url_unique" unique ("audit_id", "url"));`);

    this.addSql(`create table "audit_issue" (
      "id" uuid not null primary key,
      "audit_id" uuid not null references "audit" ("id") on delete cascade,
      "code" text not null,
      "title" text not null,
      "severity" text not null check ("severity" in ('CRITICAL', 'WARNING', 'NOTICE')),
      "category" text not null check ("category" in ('META', 'CONTENT', 'LINKS', 'TECHNICAL', 'PERFORMANCE')),
      "description" text not null,
      "affected_pages" int not null,
      "applicable_pages" int not null,
      constraint "audit_issue_audit_code_unique" unique ("audit_id", "code"));`);

    this.addSql(`create table "issue_occurrence" (
      "id" bigint generated always as identity primary key,
      "audit_id" uuid not null references "audit" ("id") on delete cascade,
      "code" text not null,
      "url" text not null,
      "evidence" jsonb null);`);
    this.addSql(`create index "issue_occurrence_audit_code_idx" on "issue_occurrence" ("audit_id", "code", "id");`);

    this.addSql(`create table "technical_snapshot" (
      "id" uuid not null primary key,
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "audit_id" uuid null references "audit" ("id") on delete cascade,
      "url" text not null,
      "measured_at" timestamptz not null,
      "device" text not null default 'desktop',
      "source" text not null check ("source" in ('LAB', 'FIELD', 'HTTP')),
      "lcp_ms" double precision null, "cls" double precision null, "inp_ms" double precision null,
      "tbt_ms" double precision null, "fcp_ms" double precision null, "ttfb_ms" double precision null,
      "performance_score" int null,
      "https" boolean null, "hsts" boolean null, "http_version" text null, "compression" text null,
      "robots_txt" text null, "sitemap" text null);`);
    this.addSql(
      `create index "technical_snapshot_project_measured_idx" on "technical_snapshot" ("project_id", "measured_at");`,
    );
  }

  override async down(): Promise<void> {
    for (const t of ['technical_snapshot', 'issue_occurrence', 'audit_issue', 'audit_page', 'audit'])
      this.addSql(`drop table if exists "${t}" cascade;`);
  }
}
