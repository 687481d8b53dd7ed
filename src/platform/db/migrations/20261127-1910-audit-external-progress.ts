import { Migration } from '@mikro-orm/migrations';

/**
 * A running audit's external link checks, as N of M: after its last page, the crawl waits for every distinct
 * external target to answer (6 checks per host at a time), minutes on a site that links one slow host a thousand
 * times. The job runner writes them with the pages' progress; 0 of 0 until the last page, and reset with each new
 * attempt. A finished audit keeps the last written figures (its counts hold the final ones).
 */
export class AuditExternalProgress20261127 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "audit" add column "external_links_checked" int not null default 0,
      add column "external_links_found" int not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "audit" drop column if exists "external_links_checked",
      drop column if exists "external_links_found";`);
  }
}
