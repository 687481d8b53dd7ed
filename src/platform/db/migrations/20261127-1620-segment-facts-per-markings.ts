import { Migration } from '@mikro-orm/migrations';

/**
 * A segment's kept facts (migration 1500) one row per set of "won't fix" markings they were counted under: the
 * segment summary counts under the audit's markings and the issues list narrowed to a segment under none, and with
 * one row per (audit, segment) each read overwrote the other's, so neither stayed kept once the audit had a marking.
 * Rows kept so far keep their markings key; nothing is counted again.
 */
export class SegmentFactsPerMarkings20261127 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "audit_segment_facts" drop constraint "audit_segment_facts_pkey";');
    this.addSql(
      'alter table "audit_segment_facts" add constraint "audit_segment_facts_pkey" ' +
        'primary key ("audit_id", "segment_id", "marks_key");',
    );
  }

  override async down(): Promise<void> {
    // One row per (audit, segment) again: the latest counted stays, the others are counted again when read.
    this.addSql(`delete from "audit_segment_facts" f using "audit_segment_facts" g
      where g.audit_id = f.audit_id and g.segment_id = f.segment_id
        and (g.counted_at, g.marks_key) > (f.counted_at, f.marks_key);`);
    this.addSql('alter table "audit_segment_facts" drop constraint "audit_segment_facts_pkey";');
    this.addSql(
      'alter table "audit_segment_facts" add constraint "audit_segment_facts_pkey" ' +
        'primary key ("audit_id", "segment_id");',
    );
  }
}
