import { Migration } from '@mikro-orm/migrations';

/** How many of an audit's crawled pages got no usable response (its PAGE_FETCH_FAILED pages). */
export class AuditPagesFailed20261123 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "audit" add column "pages_failed" int not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "audit" drop column if exists "pages_failed";');
  }
}
