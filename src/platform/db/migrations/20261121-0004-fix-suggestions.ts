import { Migration } from '@mikro-orm/migrations';

/** Fix suggestions, cached per (issue, page URL). */
export class FixSuggestions20261121 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "fix_suggestion" (
      "id" uuid not null primary key,
      "issue_id" uuid not null references "audit_issue" ("id") on delete cascade,
      "url" text not null,
      "summary" text not null,
      "steps" jsonb not null,
      "code" text null,
      "source" text not null check ("source" in ('LLM', 'RULES')),
      "model" text null,
      "created_at" timestamptz not null default now(),
      constraint "fix_suggestion_issue_url_unique" unique ("issue_id", "url"));`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "fix_suggestion" cascade;');
  }
}
