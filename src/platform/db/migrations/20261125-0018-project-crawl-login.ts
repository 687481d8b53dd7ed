import { Migration } from '@mikro-orm/migrations';

/**
 * Login crawls (src/crawler/crawl-login*): at most one crawl login per project, in a table of its own rather than in
 * project.settings, so that no read of a project (lists, REST bodies, settings) ever carries it, and a key rotation
 * touches this table only. The non-secret facts are columns (what the API may show); every secret value (username,
 * password, extra form fields, cookie values, token, header value) is in `sealed`, one AES-256-GCM box, with the id of
 * the key that sealed it (`key_id`, a fingerprint of the derived key, not the key).
 */
export class ProjectCrawlLogin20261125 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "project_crawl_login" (
      "project_id" uuid not null primary key references "project" ("id") on delete cascade,
      "kind" text not null check ("kind" in ('FORM', 'COOKIE', 'BASIC', 'BEARER', 'HEADER')),
      "login_url" text null,
      "username_field" text null,
      "password_field" text null,
      "header_name" text null,
      "cookie_names" text[] not null default '{}',
      "extra_field_names" text[] not null default '{}',
      "sealed" text not null,
      "key_id" text not null,
      "updated_at" timestamptz not null default now(),
      constraint "project_crawl_login_form" check ("kind" <> 'FORM' or ("login_url" is not null
        and "username_field" is not null and "password_field" is not null)),
      constraint "project_crawl_login_header" check ("kind" <> 'HEADER' or "header_name" is not null));`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "project_crawl_login";');
  }
}
