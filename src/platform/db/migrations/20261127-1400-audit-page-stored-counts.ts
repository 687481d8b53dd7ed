import { Migration } from '@mikro-orm/migrations';

/**
 * A completed audit's pages carry the URL table's per-row counts, as they carry `issue_count` (migration 0020):
 * occurrences by severity, distinct checks failed, and distinct pages linking in from each link position. Before,
 * each was a subquery per row, so sorting or filtering 100,000 pages on one ran 100,000 of them. Written with the
 * completion (AuditResultsRepository.storePageCounts); a running audit's are still counted live. Completed audits
 * stored before are filled in here.
 */
const COLUMNS = [
  'critical_issues',
  'warning_issues',
  'notice_issues',
  'issue_codes',
  'inlinks_content',
  'inlinks_navigation',
  'inlinks_header',
  'inlinks_aside',
  'inlinks_footer',
] as const;

export class AuditPageStoredCounts20261127 extends Migration {
  override async up(): Promise<void> {
    for (const column of COLUMNS)
      this.addSql(`alter table "audit_page" add column "${column}" int not null default 0;`);
    this.addSql(`update "audit_page" p set "critical_issues" = c.critical, "warning_issues" = c.warning,
        "notice_issues" = c.notice, "issue_codes" = c.codes
      from (select o.audit_id, o.url,
              count(*) filter (where i.severity = 'CRITICAL')::int as critical,
              count(*) filter (where i.severity = 'WARNING')::int as warning,
              count(*) filter (where i.severity = 'NOTICE')::int as notice,
              count(distinct o.code)::int as codes
            from "issue_occurrence" o
            left join "audit_issue" i on i.audit_id = o.audit_id and i.code = o.code
            join "audit" a on a.id = o.audit_id and a.status = 'COMPLETED'
            group by o.audit_id, o.url) c
      where p.audit_id = c.audit_id and p.url = c.url;`);
    this.addSql(`update "audit_page" p set "inlinks_content" = l.content, "inlinks_navigation" = l.navigation,
        "inlinks_header" = l.header, "inlinks_aside" = l.aside, "inlinks_footer" = l.footer
      from (select k.audit_id, k.target_url as url,
              count(distinct k.source_url) filter (where k.position = 'CONTENT')::int as content,
              count(distinct k.source_url) filter (where k.position = 'NAVIGATION')::int as navigation,
              count(distinct k.source_url) filter (where k.position = 'HEADER')::int as header,
              count(distinct k.source_url) filter (where k.position = 'ASIDE')::int as aside,
              count(distinct k.source_url) filter (where k.position = 'FOOTER')::int as footer
            from "audit_link" k
            join "audit" a on a.id = k.audit_id and a.status = 'COMPLETED'
            where k.source_url <> k.target_url and k.position is not null
            group by k.audit_id, k.target_url) l
      where p.audit_id = l.audit_id and p.url = l.url;`);
  }

  override async down(): Promise<void> {
    for (const column of COLUMNS) this.addSql(`alter table "audit_page" drop column if exists "${column}";`);
  }
}
