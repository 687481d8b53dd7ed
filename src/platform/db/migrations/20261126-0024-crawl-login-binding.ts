import { Migration } from '@mikro-orm/migrations';

/**
 * Crawl logins bound to where they were set for (issue 47): `bound_to` is the start URL and crawl scope (subdomains,
 * include and exclude patterns) a login was set or confirmed for, as JSON the API shows; the crawl obeys the copy
 * sealed with the secrets (src/crawler/crawl-login-binding.ts). Logins stored before this migration are bound here to
 * their project's start URL and scope as they are now; their sealed value, which has no binding inside yet, is
 * re-sealed with this one by the platform the first time it opens it (an audit, a confirmation or a change of the
 * login), since SQL cannot seal.
 */
export class CrawlLoginBinding20261126 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "project_crawl_login" add column "bound_to" jsonb null;');
    this.addSql(`update "project_crawl_login" l set "bound_to" = jsonb_build_object(
        'startUrl', p."url",
        'includeSubdomains', coalesce(p."settings" -> 'crawlSubdomains' = 'true'::jsonb, false),
        'include', case when jsonb_typeof(p."settings" -> 'includePatterns') = 'array'
          then p."settings" -> 'includePatterns' else '[]'::jsonb end,
        'exclude', case when jsonb_typeof(p."settings" -> 'excludePatterns') = 'array'
          then p."settings" -> 'excludePatterns' else '[]'::jsonb end)
      from "project" p where p."id" = l."project_id";`);
    this.addSql('alter table "project_crawl_login" alter column "bound_to" set not null;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "project_crawl_login" drop column if exists "bound_to";');
  }
}
