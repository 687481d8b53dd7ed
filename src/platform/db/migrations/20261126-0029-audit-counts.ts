import { Migration } from '@mikro-orm/migrations';

/**
 * `audit.counts`: a completed audit's counts in one vocabulary (URLs crawled, HTML pages, indexable pages) and what
 * its caps left unchecked (external links, resources, lab pages as N of M), written with its scores; every surface
 * reads them (docs/counts.md). Audits completed before have none: their surfaces fall back to what they kept.
 */
export class AuditCounts20261126 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "audit" add column "counts" jsonb null;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "audit" drop column if exists "counts";');
  }
}
