import { Migration } from '@mikro-orm/migrations';

/**
 * What a completed audit stores for the URL table to read the URL table instead of counting its rows on every view.
 *
 * A completed audit's pages carry the set of checks found on them, as they carry their counts (migration
 * 20261127-1400). The URL table's "has issue X" was a correlated EXISTS per row: under an OR, 100,000 index probes
 * (about 500 ms for a filter's count on 100,000 pages), and `url IN (subquery)` is not hashed past work_mem. With
 * the set stored, the condition is a test on the row. NULL while the audit runs (its occurrences are still being
 * written): the condition then probes the occurrences as before.
 *
 * A completed audit's issues carry their occurrences' count: the total of an issue's URL table (100,000 occurrences
 * counted took 60-320 ms beside every page of it). NULL while the audit runs. Completed audits stored before are
 * filled in here.
 */
export class AuditStoredSets20261127 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "audit_page" add column "issue_code_set" text[] null;`);
    this.addSql(`update "audit_page" p set "issue_code_set" = c.codes
      from (select o.audit_id, o.url, array_agg(distinct o.code order by o.code) as codes
            from "issue_occurrence" o
            join "audit" a on a.id = o.audit_id and a.status = 'COMPLETED'
            group by o.audit_id, o.url) c
      where p.audit_id = c.audit_id and p.url = c.url;`);
    this.addSql(`update "audit_page" p set "issue_code_set" = '{}'
      from "audit" a where a.id = p.audit_id and a.status = 'COMPLETED' and p."issue_code_set" is null;`);
    this.addSql(`alter table "audit_issue" add column "occurrences" int null;`);
    this.addSql(`update "audit_issue" i set "occurrences" = (select count(*) from "issue_occurrence" o
        where o.audit_id = i.audit_id and o.code = i.code)
      from "audit" a where a.id = i.audit_id and a.status = 'COMPLETED';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "audit_issue" drop column if exists "occurrences";`);
    this.addSql(`alter table "audit_page" drop column if exists "issue_code_set";`);
  }
}
