import { Migration } from '@mikro-orm/migrations';

/**
 * The alert rule KEYWORD_CANNIBALISED (src/alerts/alert-rules.ts): two or more of the site's URLs rank for a keyword
 * at its latest check. `alert_rule.kind`'s check constraint names every kind, so it is widened.
 */
export class AlertRuleCannibalised20261127 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "alert_rule" drop constraint if exists "alert_rule_kind_check";');
    this.addSql(`alter table "alert_rule" add constraint "alert_rule_kind_check" check ("kind" in ('SCORE_DROP',
      'NEW_ISSUES', 'PAGE_REGRESSION', 'KEYWORD_DROP', 'KEYWORD_LEFT_TOP10', 'VITAL_POOR', 'KEYWORD_CANNIBALISED'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "alert_rule" where "kind" = 'KEYWORD_CANNIBALISED';`);
    this.addSql('alter table "alert_rule" drop constraint if exists "alert_rule_kind_check";');
    this.addSql(`alter table "alert_rule" add constraint "alert_rule_kind_check" check ("kind" in ('SCORE_DROP',
      'NEW_ISSUES', 'PAGE_REGRESSION', 'KEYWORD_DROP', 'KEYWORD_LEFT_TOP10', 'VITAL_POOR'));`);
  }
}
