import { Migration } from '@mikro-orm/migrations';

/**
 * An audit is readable before its slow external link checks end: it completes with its pages, scores and issues, and
 * `external_links_final` stays false until the external verdicts fold in (or the worker that waited for them is
 * found gone). Comparisons and alerts read final audits only. Every audit completed before this was final.
 */
export class AuditExternalFinal20261129 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "audit" add column "external_links_final" boolean not null default true;`);
    this.addSql(`create index "audit_external_pending_idx" on "audit" ("id") where not "external_links_final";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "audit_external_pending_idx";`);
    this.addSql(`alter table "audit" drop column if exists "external_links_final";`);
  }
}
