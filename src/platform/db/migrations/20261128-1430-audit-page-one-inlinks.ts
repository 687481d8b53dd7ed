import { Migration } from '@mikro-orm/migrations';

/**
 * One inlinks count per page (src/audits/inlinks.ts). A completed audit's `audit_page.inlinks` was counted from the
 * crawl's page summaries (2xx pages' first 500 internal link targets), while the page view's list and its total
 * (`inlinks_all`, migration 1620) counted the link graph: a page could say "13 inlinks" above 14 linking pages. The
 * completion now stores the link graph's count in `inlinks`, which every surface reads (the pages explorer, the URL
 * table, the page view, the exports); the completed audits stored before take their `inlinks_all`, which goes.
 */
export class AuditPageOneInlinks20261128 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`update "audit_page" p set "inlinks" = p."inlinks_all"
      from "audit" a where a.id = p.audit_id and a.status = 'COMPLETED' and p."inlinks" <> p."inlinks_all";`);
    this.addSql('alter table "audit_page" drop column "inlinks_all";');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "audit_page" add column "inlinks_all" int not null default 0;');
    this.addSql(`update "audit_page" p set "inlinks_all" = p."inlinks"
      from "audit" a where a.id = p.audit_id and a.status = 'COMPLETED';`);
  }
}
