import { Migration } from '@mikro-orm/migrations';

/**
 * What a running audit is doing (its phase), and the index the pages explorer counts issue occurrences per
 * page with: (audit_id, url), where the existing index serves (audit_id, code).
 */
export class AuditPhaseAndPages20261123 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "audit" add column "phase" text null check ("phase" in ('CRAWLING', 'ANALYZING',
        'MEASURING', 'SAVING'));`);
    // A phase belongs to a RUNNING audit only: every transition out of RUNNING must clear it.
    this.addSql(
      `alter table "audit" add constraint "audit_phase_running_only" check ("phase" is null or "status" = 'RUNNING');`,
    );
    this.addSql(`create index "issue_occurrence_audit_url_idx" on "issue_occurrence" ("audit_id", "url");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "issue_occurrence_audit_url_idx";');
    this.addSql('alter table "audit" drop constraint if exists "audit_phase_running_only";');
    this.addSql('alter table "audit" drop column if exists "phase";');
  }
}
