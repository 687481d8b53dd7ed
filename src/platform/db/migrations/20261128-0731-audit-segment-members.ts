import { Migration } from '@mikro-orm/migrations';

/**
 * A segment's URLs in a completed audit, kept once its rule has run (SegmentMembership, src/audits): the URL
 * table's segment names column and its "in segment" conditions read these rows by key instead of copying every
 * segment's rule into the statement (50 segments of 200 conditions made one statement of over 2 million
 * parameters). `audit_segment_membership` says under which rule (`rule_key`, as audit_segment_facts) the members
 * of a (audit, segment) were written: an edited segment's rows are written again when next read. Nothing to
 * backfill: a segment's members are written the first time an audit's table reads them.
 */
export class AuditSegmentMembers20261128 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "audit_segment_membership" (
      "audit_id" uuid not null references "audit" ("id") on delete cascade,
      "segment_id" uuid not null references "segment" ("id") on delete cascade,
      "rule_key" text not null,
      "pages" int not null,
      "computed_at" timestamptz not null default now(),
      primary key ("audit_id", "segment_id"));`);
    this.addSql('create index "audit_segment_membership_segment_idx" on "audit_segment_membership" ("segment_id");');
    this.addSql(`create table "audit_segment_member" (
      "audit_id" uuid not null references "audit" ("id") on delete cascade,
      "page_id" bigint not null,
      "segment_id" uuid not null references "segment" ("id") on delete cascade,
      primary key ("audit_id", "page_id", "segment_id"));`);
    this.addSql(
      'create index "audit_segment_member_segment_idx" on "audit_segment_member" ' +
        '("segment_id", "audit_id", "page_id");',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "audit_segment_member";');
    this.addSql('drop table if exists "audit_segment_membership";');
  }
}
