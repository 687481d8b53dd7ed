import { Migration } from '@mikro-orm/migrations';

/**
 * A segment's facts in a completed audit (its URLs, HTML pages, pages with a critical issue, and per check the URLs
 * it affects: url-table.repository.ts segmentFacts), kept once counted. Counting them reads every URL of the audit
 * (a regular expression on 100,000 URLs and a join with its occurrences); a completed audit's rows do not change,
 * so the segment's scores are then read in one row. `rule_key` names the rule they were counted under (editing the
 * segment counts again) and `marks_key` the "won't fix" markings left out (marking or undoing counts again; the
 * segment's URL count reads the rule key alone). Rules that read what changes after the audit (ranking keywords,
 * first/last seen) are not kept.
 */
export class AuditSegmentFacts20261127 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "audit_segment_facts" (
      "audit_id" uuid not null references "audit" ("id") on delete cascade,
      "segment_id" uuid not null references "segment" ("id") on delete cascade,
      "rule_key" text not null,
      "marks_key" text not null,
      "facts" jsonb not null,
      "counted_at" timestamptz not null default now(),
      primary key ("audit_id", "segment_id"));`);
    this.addSql('create index "audit_segment_facts_segment_idx" on "audit_segment_facts" ("segment_id");');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "audit_segment_facts";');
  }
}
