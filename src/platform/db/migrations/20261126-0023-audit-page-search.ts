import { Migration } from '@mikro-orm/migrations';

/**
 * The pages explorer's search (`url ILIKE '%term%' OR title ILIKE '%term%'` within one audit): its trigram indexes now
 * lead with the audit (btree_gin, a trusted extension since PostgreSQL 13), so each index scan yields this audit's
 * matches only. With the trigram-only indexes of migration 0020 the planner ANDed them with a bitmap of the audit's
 * every row: on the audit-100k bench, 40 of the count's 150 ms (cold) went to that bitmap of 100,000 entries, and the
 * search's p95 was 103 ms (goal < 100 ms).
 */
export class AuditPageSearch20261126 extends Migration {
  override async up(): Promise<void> {
    this.addSql('create extension if not exists btree_gin;');
    this.addSql(
      'create index "audit_page_audit_url_trgm_idx" on "audit_page" using gin ("audit_id", "url" gin_trgm_ops);',
    );
    this.addSql(
      'create index "audit_page_audit_title_trgm_idx" on "audit_page" using gin ("audit_id", "title" gin_trgm_ops);',
    );
    this.addSql('drop index if exists "audit_page_url_trgm_idx";');
    this.addSql('drop index if exists "audit_page_title_trgm_idx";');
  }

  override async down(): Promise<void> {
    this.addSql('create index "audit_page_url_trgm_idx" on "audit_page" using gin ("url" gin_trgm_ops);');
    this.addSql('create index "audit_page_title_trgm_idx" on "audit_page" using gin ("title" gin_trgm_ops);');
    this.addSql('drop index if exists "audit_page_audit_url_trgm_idx";');
    this.addSql('drop index if exists "audit_page_audit_title_trgm_idx";');
  }
}
