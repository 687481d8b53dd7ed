import { Migration } from '@mikro-orm/migrations';

/**
 * When a project's audits crawled each URL: the first and the last completed audit's start (`audit.created_at`),
 * one row per (project, URL), merged by each audit's completion (AuditResultsRepository.mergeUrlHistory). The URL
 * table's first_seen/last_seen read one row of it by its key where they aggregated every audit of the project per
 * row (about 27 minutes to sort 20,000 pages). Completed audits stored before are merged here, in one grouped pass.
 */
export class UrlHistory20261128 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "url_history" (
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "url" text not null,
      "first_seen" timestamptz not null,
      "last_seen" timestamptz not null,
      primary key ("project_id", "url"));`);
    this.addSql(`insert into "url_history" ("project_id", "url", "first_seen", "last_seen")
      select a.project_id, p.url, min(a.created_at), max(a.created_at)
      from "audit" a join "audit_page" p on p.audit_id = a.id
      where a.status = 'COMPLETED'
      group by a.project_id, p.url;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "url_history";');
  }
}
