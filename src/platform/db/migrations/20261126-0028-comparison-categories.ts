import { Migration } from '@mikro-orm/migrations';

/**
 * Comparison categories that hold up (issue 48): an occurrence the head audit no longer has is FIXED only when its
 * page is still crawled, answers and stays indexable; GONE when the page went with it (no longer crawled, 4xx/5xx,
 * no answer, or no longer indexable); NOT_CHECKED when the head audit did not run the check (disabled in the
 * project's settings, or left the catalog). An occurrence of a check the base audit did not run is NEWLY_CHECKED, not
 * NEW. The stored digests were computed with two categories only: they are dropped, and each pair is computed again
 * on its next read (completed audits keep their rows, so nothing is lost).
 */
export class ComparisonCategories20261126 extends Migration {
  override async up(): Promise<void> {
    this.addSql('delete from "comparison_digest";');
    this.addSql(
      'alter table "comparison_issue_change" drop constraint if exists "comparison_issue_change_change_check";',
    );
    this.addSql(
      `alter table "comparison_issue_change" add constraint "comparison_issue_change_change_check" ` +
        `check ("change" in ('NEW', 'FIXED', 'GONE', 'NOT_CHECKED', 'NEWLY_CHECKED'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('delete from "comparison_digest";');
    this.addSql(
      'alter table "comparison_issue_change" drop constraint if exists "comparison_issue_change_change_check";',
    );
    this.addSql(
      `alter table "comparison_issue_change" add constraint "comparison_issue_change_change_check" ` +
        `check ("change" in ('NEW', 'FIXED'));`,
    );
  }
}
