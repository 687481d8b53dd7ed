import { Migration } from '@mikro-orm/migrations';

/**
 * `audit.page_facets`: a completed audit's pages counted by what the pages explorer filters on, [status class, kind,
 * has issues, pages] (src/audits: audit-results.repository.ts storePageCounts, audit-pages.repository.ts listPages).
 * The explorer's total was a count of the audit's rows for every request: on the audit-100k bench's machine of
 * 2026-11-26 a parallel seq scan of 190-300 ms (p95 240-288 ms, goal < 100 ms); now any filter without a search
 * sums these. The completed audits are counted here; the others get theirs when they complete (until then, and with
 * a search, the total is counted).
 */
export class AuditPageFacets20261126 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "audit" add column "page_facets" jsonb null;');
    this.addSql(`update "audit" a set "page_facets" = coalesce((
        select jsonb_agg(jsonb_build_array(f.status_class, f.kind, f.has_issues, f.pages))
        from (select case when p."status_code" is null then 'FAILED'
                          when p."status_code" between 200 and 299 then 'SUCCESS'
                          when p."status_code" between 300 and 399 then 'REDIRECT'
                          when p."status_code" between 400 and 499 then 'CLIENT_ERROR'
                          when p."status_code" between 500 and 599 then 'SERVER_ERROR' end as status_class,
                     p."kind", p."issue_count" > 0 as has_issues, count(*)::int as pages
              from "audit_page" p where p."audit_id" = a."id" group by 1, 2, 3) f), '[]'::jsonb)
      where a."status" = 'COMPLETED';`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "audit" drop column if exists "page_facets";');
  }
}
