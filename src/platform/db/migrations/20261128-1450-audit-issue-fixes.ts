import { Migration } from '@mikro-orm/migrations';

/**
 * A fix-grouped issue's fixes (scoring v3, docs/scores.md "Fixes"): how many distinct causes it has (failing targets,
 * repeated template elements) and the widest with their reach, shown with the issue ("1 target, linked from 78
 * pages"); and of its URLs, those charged as another check's fix (a linked URL answering 4xx/5xx: its broken links'
 * fix). Audits stored before keep null and 0 and are shown as before.
 */
export class AuditIssueFixes20261128 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "audit_issue" add column "fixes" jsonb null;');
    this.addSql('alter table "audit_issue" add column "charged_elsewhere" int not null default 0;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "audit_issue" drop column if exists "fixes";');
    this.addSql('alter table "audit_issue" drop column if exists "charged_elsewhere";');
  }
}
