import { Migration } from '@mikro-orm/migrations';

/** Keyword tracking (keywords, SERP snapshots, rankings) and competitors. */
export class KeywordsCompetitors20261121 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "keyword" (
      "id" uuid not null primary key,
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "term" text not null,
      "term_key" text not null,
      "country" text not null,
      "language" text not null,
      "device" text not null check ("device" in ('desktop', 'mobile')),
      "created_at" timestamptz not null default now(),
      constraint "keyword_unique_per_project" unique ("project_id", "term_key", "country", "language", "device"));`);
    this.addSql(`create index "keyword_project_idx" on "keyword" ("project_id", "created_at");`);

    this.addSql(`create table "serp_snapshot" (
      "id" uuid not null primary key,
      "keyword_id" uuid not null references "keyword" ("id") on delete cascade,
      "provider" text not null,
      "checked_at" timestamptz not null,
      "requests" int not null,
      "results" jsonb not null);`);
    this.addSql(`create index "serp_snapshot_keyword_idx" on "serp_snapshot" ("keyword_id", "checked_at" desc);`);

    this.addSql(`create table "ranking" (
      "id" uuid not null primary key,
      "keyword_id" uuid not null references "keyword" ("id") on delete cascade,
      "status" text not null check ("status" in ('OK', 'FAILED')),
      "position" int null,
      "url" text null,
      "provider" text not null,
      "error" text null,
      "snapshot_id" uuid null references "serp_snapshot" ("id") on delete set null,
      "checked_at" timestamptz not null);`);
    this.addSql(`create index "ranking_keyword_checked_idx" on "ranking" ("keyword_id", "checked_at" desc);`);

    this.addSql(`create table "competitor" (
      "id" uuid not null primary key,
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "domain" text not null,
      "created_at" timestamptz not null default now(),
      "profile" jsonb null,
      "profile_error" text null,
      "profile_checked_at" timestamptz null,
      constraint "competitor_unique_per_project" unique ("project_id", "domain"));`);
  }

  override async down(): Promise<void> {
    for (const t of ['competitor', 'ranking', 'serp_snapshot', 'keyword'])
      this.addSql(`drop table if exists "${t}" cascade;`);
  }
}
