import { Migration } from '@mikro-orm/migrations';

/**
 * An issue's evidence shape (src/audits/evidence-shape.ts): the keys and JSON types of its occurrences' evidence,
 * which the URL table turns into the issue's evidence columns. The worker gathers it while it streams the
 * occurrences and stores it with the issue; before, every page of an issue's table read all the issue's occurrences
 * to learn its columns (3.6 s at p95 for 10,000 occurrences in `bench audit-100k`). Audits stored before keep it
 * null and are read as before.
 */
export class AuditIssueEvidenceShape20261127 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "audit_issue" add column "evidence_shape" jsonb null;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "audit_issue" drop column if exists "evidence_shape";');
  }
}
