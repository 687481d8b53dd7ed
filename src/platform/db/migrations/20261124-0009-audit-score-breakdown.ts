import { Migration } from '@mikro-orm/migrations';

/**
 * Why an audit's scores are what they are (src/seo/scoring, ScoreBreakdown): health and each issue's cost, written
 * with the scores when the audit completes. Audits scored before this column existed keep their scores and have no
 * breakdown (null): they were scored by the earlier formula, which had none.
 */
export class AuditScoreBreakdown20261124 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "audit" add column "score_breakdown" jsonb null;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "audit" drop column "score_breakdown";');
  }
}
