import { Migration } from '@mikro-orm/migrations';

/**
 * A completed audit's pages carry the page view's inlinks total: the distinct pages linking in over the link graph
 * (`audit_link`, every position, self links excluded), as `inlinks_<position>` (migration 1400) carry it per
 * position. Counting it read every link to the page: seconds for a page with 100,000 inlinks. `audit_page.inlinks`
 * is not that count (it comes from the crawl's page summaries: 2xx pages only, 500 link targets per page), so it is
 * not used for it. Written with the completion (AuditResultsRepository.storePageCounts); a running audit's is still
 * counted live. Completed audits stored before are filled in here.
 */
export class AuditPageInlinksAll20261127 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "audit_page" add column "inlinks_all" int not null default 0;');
    this.addSql(`update "audit_page" p set "inlinks_all" = l.n
      from (select k.audit_id, k.target_url as url, count(distinct k.source_url)::int as n
            from "audit_link" k
            join "audit" a on a.id = k.audit_id and a.status = 'COMPLETED'
            where k.source_url <> k.target_url
            group by k.audit_id, k.target_url) l
      where p.audit_id = l.audit_id and p.url = l.url;`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "audit_page" drop column if exists "inlinks_all";');
  }
}
