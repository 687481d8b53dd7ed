import { Migration } from '@mikro-orm/migrations';

/**
 * Browser rendering mode (issue 28): each crawled page keeps a compact raw-versus-rendered record (the title,
 * description, canonical, robots, h1, word count and internal link count of the raw HTML and of the rendered page,
 * the render time, console errors, failed requests, resources robots.txt blocked, or why rendering failed). Null for
 * pages crawled in html mode and for audits crawled before.
 */
export class AuditPageRendering20261125 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "audit_page" add column if not exists "rendering" jsonb null;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "audit_page" drop column if exists "rendering";');
  }
}
