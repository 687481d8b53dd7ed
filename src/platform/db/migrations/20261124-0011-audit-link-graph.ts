import { Migration } from '@mikro-orm/migrations';

/**
 * The page view of an audit: every crawled URL's kind (an HTML document, a redirect, an error answer, another file,
 * a failed fetch) and its details (redirect hops, indexability inputs, headings, hreflang, structured data types,
 * resources), and the audit's link graph: one row per followable link of a crawled page (source, target, anchor
 * text, rel), read by target (inlinks) or by source (outlinks) with keyset pagination on the row id.
 * Audits completed before keep `kind` null and no links: their crawls did not record them.
 */
export class AuditLinkGraph20261124 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "audit_page" add column "kind" text null check ("kind" in ('HTML', 'REDIRECT', 'ERROR', 'FILE', ` +
        `'FAILED')), add column "details" jsonb null;`,
    );
    this.addSql(`create table "audit_link" (
      "id" bigint generated always as identity primary key,
      "audit_id" uuid not null references "audit" ("id") on delete cascade,
      "source_url" text not null,
      "target_url" text not null,
      "anchor" text not null default '',
      "rel" text null,
      "internal" boolean not null);`);
    this.addSql(`create index "audit_link_target_idx" on "audit_link" ("audit_id", "target_url", "id");`);
    this.addSql(`create index "audit_link_source_idx" on "audit_link" ("audit_id", "source_url", "id");`);
    // The page view reads the lab vitals an audit measured for one URL.
    this.addSql(`create index "technical_snapshot_audit_url_idx" on "technical_snapshot" ("audit_id", "url");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "technical_snapshot_audit_url_idx";');
    this.addSql('drop table if exists "audit_link";');
    this.addSql('alter table "audit_page" drop column if exists "kind", drop column if exists "details";');
  }
}
