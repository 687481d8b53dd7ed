import { Migration } from '@mikro-orm/migrations';

/**
 * The pages explorer on a large audit (src/audits/audit-pages.repository.ts, listPages). On 100,000 pages (the
 * audit-100k bench) its reads counted every page's occurrences or scanned every row of the audit's pages, 1.2 KB
 * each with their details, for each request: 140 to 400 ms.
 * - `issue_count`: a completed audit's pages carry their occurrence count, written with the completion in the same
 *   pass as their inlinks; the existing audits are counted here. A running audit is still counted live.
 * - (audit_id, key, id) indexes for the issue count and the word count, so a page of rows sorted on either is an
 *   index range in both directions (DESC by a backward scan); the status index carries kind and issue_count, so a
 *   filtered total is an index-only scan. Not every sort key has one: the completion updates every page of the audit
 *   (its inlinks and issue count), and each index costs that update about 0.7 s per 100,000 pages (2.1 s with the two
 *   indexes before, 5.6 s with five more). Sorting 100,000 pages by title, depth or response time, or by status
 *   descending, reads the audit's rows: about 110 ms.
 * - Trigram indexes on url and title for the search (`ILIKE '%term%'`): pg_trgm, a trusted extension since
 *   PostgreSQL 13, which the database's owner may create.
 */
export class AuditPageReads20261125 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "audit_page" add column "issue_count" int not null default 0;');
    this.addSql(`update "audit_page" p set "issue_count" = c.n
      from (select "audit_id", "url", count(*)::int as n from "issue_occurrence" group by 1, 2) c
      where p."audit_id" = c."audit_id" and p."url" = c."url";`);
    this.addSql('create index "audit_page_audit_issues_idx" on "audit_page" ("audit_id", "issue_count", "id");');
    this.addSql('create index "audit_page_audit_words_idx" on "audit_page" ("audit_id", "word_count", "id");');
    this.addSql(
      'create index "audit_page_audit_status_idx" on "audit_page" ("audit_id", "status_code", "id") ' +
        'include ("kind", "issue_count");',
    );
    this.addSql('create extension if not exists pg_trgm;');
    this.addSql('create index "audit_page_url_trgm_idx" on "audit_page" using gin ("url" gin_trgm_ops);');
    this.addSql('create index "audit_page_title_trgm_idx" on "audit_page" using gin ("title" gin_trgm_ops);');
  }

  override async down(): Promise<void> {
    for (const index of ['issues', 'words', 'status'])
      this.addSql(`drop index if exists "audit_page_audit_${index}_idx";`);
    this.addSql('drop index if exists "audit_page_url_trgm_idx";');
    this.addSql('drop index if exists "audit_page_title_trgm_idx";');
    this.addSql('alter table "audit_page" drop column if exists "issue_count";');
  }
}
