import { Migration } from '@mikro-orm/migrations';

/**
 * An alert rule may watch one of its project's segments (docs/alerts.md): SCORE_DROP and NEW_ISSUES rules are then
 * evaluated on the segment's figures. A segment a rule watches cannot be deleted (the key's check, at the end of the
 * statement, so that deleting the project deletes both); change or delete the rule first.
 */
export class AlertRuleSegment20261127 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "alert_rule" add column "segment_id" uuid null references "segment" ("id");');
    this.addSql(
      'create index "alert_rule_segment_id_index" on "alert_rule" ("segment_id") where "segment_id" is not null;',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "alert_rule_segment_id_index";');
    this.addSql('alter table "alert_rule" drop column if exists "segment_id";');
  }
}
