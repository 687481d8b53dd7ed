import { Migration } from '@mikro-orm/migrations';

/**
 * Where on the linking page each link of the audit's link graph sits: the page's header, a navigation block, the
 * content, an aside or the page's footer (src/seo/page/link-position.tracker.ts). The page view lists and filters a
 * page's inlinks and outlinks by it, and the URL table counts a page's inlinks per position. Links of audits crawled
 * before keep it null.
 */
export class AuditLinkPosition20261127 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "audit_link" add column "position" text null ` +
        `check ("position" in ('HEADER', 'NAVIGATION', 'CONTENT', 'ASIDE', 'FOOTER'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table "audit_link" drop column if exists "position";');
  }
}
