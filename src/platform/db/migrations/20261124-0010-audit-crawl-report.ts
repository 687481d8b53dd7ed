import { Migration } from '@mikro-orm/migrations';

/**
 * What a completed crawl did beyond its pages: how many URLs of the site it found (`pages_discovered`, at least),
 * whether a page cap stopped it with URLs left (`crawl_truncated`), and the external links it could not check
 * (`unchecked_links`: [{ url, reason }]). Audits completed before keep null / false: their crawls did not say.
 */
export class AuditCrawlReport20261124 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table "audit" add column "pages_discovered" integer null, ' +
        'add column "crawl_truncated" boolean not null default false, add column "unchecked_links" jsonb null;',
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      'alter table "audit" drop column "pages_discovered", drop column "crawl_truncated", ' +
        'drop column "unchecked_links";',
    );
  }
}
