import { Migration } from '@mikro-orm/migrations';

/**
 * The audit comparison's index: an audit's occurrences in (code, url) order, so that the new, fixed and persisting
 * occurrences of two audits are a merge of two index scans (and one list page a keyset range with an anti-join by
 * index lookups), not a sort of both audits' rows. The (audit_id, code, id) index stays: the issue lists page by id.
 */
export class AuditComparison20261124 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "issue_occurrence_audit_code_url_idx" on "issue_occurrence" ("audit_id", "code", "url");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "issue_occurrence_audit_code_url_idx";');
  }
}
