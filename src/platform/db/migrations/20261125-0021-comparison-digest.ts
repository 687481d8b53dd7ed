import { Migration } from '@mikro-orm/migrations';

/**
 * The comparison of two completed audits, stored once per pair (src/comparison/comparison.repository.ts). Completed
 * audits do not change, so what differs between two of them is computed on the pair's first read (or by the alert
 * worker as an audit completes) and every later read is an index range of the changes: on two audits of 100,000
 * pages and 340,000 occurrences each read joined both audits whole, 200 to 650 ms per request.
 * - `comparison_digest`: per pair, each check code's new, fixed and persisting URL counts, and the page change totals.
 * - `comparison_issue_change`: the (code, URL) occurrences new in the head or fixed since the base. Persisting ones
 *   are not copied: a list of them walks the head's index and finds each in the base at once.
 * - `comparison_page_change`: the URLs added, removed, or changed in status or indexability, with both sides.
 * Rows go with either audit (ON DELETE CASCADE), the changes with their digest.
 */
export class ComparisonDigest20261125 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "comparison_digest" (
      "base_id" uuid not null references "audit" ("id") on delete cascade,
      "head_id" uuid not null references "audit" ("id") on delete cascade,
      "codes" jsonb not null,
      "pages" jsonb not null,
      "created_at" timestamptz not null default now(),
      primary key ("base_id", "head_id")
    );`);
    this.addSql('create index "comparison_digest_head_idx" on "comparison_digest" ("head_id");');
    this.addSql(`create table "comparison_issue_change" (
      "base_id" uuid not null,
      "head_id" uuid not null,
      "change" text not null check ("change" in ('NEW', 'FIXED')),
      "code" text not null,
      "url" text not null,
      primary key ("base_id", "head_id", "change", "code", "url"),
      foreign key ("base_id", "head_id") references "comparison_digest" on delete cascade
    );`);
    this.addSql(`create table "comparison_page_change" (
      "base_id" uuid not null,
      "head_id" uuid not null,
      "url" text not null,
      "before" jsonb null,
      "after" jsonb null,
      "added" boolean not null,
      "removed" boolean not null,
      "status_changed" boolean not null,
      "indexability_changed" boolean not null,
      primary key ("base_id", "head_id", "url"),
      foreign key ("base_id", "head_id") references "comparison_digest" on delete cascade
    );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "comparison_page_change";');
    this.addSql('drop table if exists "comparison_issue_change";');
    this.addSql('drop table if exists "comparison_digest";');
  }
}
