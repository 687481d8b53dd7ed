import type { EntityManager } from '@mikro-orm/postgresql';
import { nativeQuery, type NativeDb } from '../platform/db/native-query.js';
import { AuditEntity, type Audit } from '../audits/index.js';

/*
 * The comparison module's data access: the only file of src/comparison/ that speaks SQL. Every statement reads two
 * audits' rows side by side with set operations over indexed columns — occurrences by (audit_id, code, url), pages
 * by (audit_id, url) — so PostgreSQL merges index scans instead of the process loading either audit.
 */

export type IssueChange = 'NEW' | 'FIXED' | 'PERSISTING';
export type PageChange = 'ADDED' | 'REMOVED' | 'STATUS_CHANGED' | 'INDEXABILITY_CHANGED';

/** The two audits compared: `base` the earlier state, `head` the later one. */
export interface AuditPair {
  base: string;
  head: string;
}

/** One check code across both audits: its URLs in each, and how many are new, fixed and persisting. */
export interface CodeChangeRow {
  code: string;
  title: string;
  severity: string;
  category: string;
  newUrls: number;
  fixedUrls: number;
  persistingUrls: number;
}

/** One check code of one URL, and whether the URL gained, lost or kept it. */
export interface UrlIssueChangeRow {
  code: string;
  change: IssueChange;
  title: string;
  severity: string;
  category: string;
}

/** One (code, URL) occurrence of a change, with its issue's title, severity and category. */
export interface IssueChangeRecord {
  code: string;
  url: string;
  title: string;
  severity: string;
  category: string;
}

/** A crawled URL as one audit saw it. */
export interface PageSide {
  statusCode: number | null;
  indexable: boolean;
  kind: string | null;
  title: string | null;
}

export interface PageChangeRecord {
  url: string;
  before: PageSide | null;
  after: PageSide | null;
}

export interface PageChangeTotals {
  added: number;
  removed: number;
  statusChanged: number;
  indexabilityChanged: number;
}

/** Page regressions for alerts: a URL that answered 200 now fails, or was indexable and is no longer. */
export interface PageRegressionRecord {
  url: string;
  before: { statusCode: number | null; indexable: boolean };
  after: { statusCode: number | null; indexable: boolean };
}

export interface CompletedAuditRef {
  id: string;
  completedAt: Date;
}

/** Up to this many rows, a list of one change probes the other audit row by row (see issueChanges). */
const PROBE_LIMIT = 1_000;

/** Occurrences of one audit with their (code, url) once: a site-level check may list a URL twice. */
const occurrencesOf = (audit: string) => `SELECT DISTINCT code, url FROM issue_occurrence WHERE audit_id = ${audit}`;

/** The change of a page row pair, in SQL: which of the four a FULL JOIN of b and h shows. */
const PAGE_CHANGE_SQL: Record<PageChange, string> = {
  ADDED: 'b.url IS NULL',
  REMOVED: 'h.url IS NULL',
  STATUS_CHANGED: 'b.url IS NOT NULL AND h.url IS NOT NULL AND b.status_code IS DISTINCT FROM h.status_code',
  INDEXABILITY_CHANGED: 'b.url IS NOT NULL AND h.url IS NOT NULL AND b.indexable <> h.indexable',
};

/** Any of the given changes (any of the four when none is given), as one parenthesised condition. */
const changeFilter = (changes: PageChange[]) =>
  `(${(changes.length ? changes : (Object.keys(PAGE_CHANGE_SQL) as PageChange[]))
    .map((c) => PAGE_CHANGE_SQL[c])
    .join(' OR ')})`;

const side = (t: 'b' | 'h') =>
  `CASE WHEN ${t}.url IS NULL THEN NULL ELSE json_build_object('statusCode', ${t}.status_code, 'indexable', ` +
  `${t}.indexable, 'kind', ${t}.kind, 'title', ${t}.title) END`;

export class ComparisonRepository {
  findAudit(em: EntityManager, auditId: string): Promise<Audit | null> {
    return em.findOne(AuditEntity, { id: auditId });
  }

  /** The project's completed audits, newest first: up to `limit`, those completed before `before` when given. */
  completedAudits(db: NativeDb, projectId: string, limit: number, before: Date | null): Promise<CompletedAuditRef[]> {
    return nativeQuery<CompletedAuditRef>(
      db,
      `SELECT id, completed_at AS "completedAt" FROM audit WHERE project_id = $1 AND status = 'COMPLETED'
       AND ($2::timestamptz IS NULL OR completed_at < $2) ORDER BY completed_at DESC, id DESC LIMIT $3`,
      [projectId, before, limit],
    );
  }

  /**
   * Per check code present in either audit: its URLs that are new (head only), fixed (base only) and persisting
   * (both). One FULL JOIN of the two audits' (code, url) sets; the title, severity and category are the head's
   * issue row, or the base's for a code the head no longer has.
   */
  codeChanges(db: NativeDb, pair: AuditPair, code: string | null = null): Promise<CodeChangeRow[]> {
    return nativeQuery<CodeChangeRow>(
      db,
      `WITH b AS (${occurrencesOf('$1')} AND ($3::text IS NULL OR code = $3)),
            h AS (${occurrencesOf('$2')} AND ($3::text IS NULL OR code = $3)),
            c AS (SELECT code,
                    count(*) FILTER (WHERE b.url IS NULL)::int AS "newUrls",
                    count(*) FILTER (WHERE h.url IS NULL)::int AS "fixedUrls",
                    count(*) FILTER (WHERE b.url IS NOT NULL AND h.url IS NOT NULL)::int AS "persistingUrls"
                  FROM b FULL JOIN h USING (code, url) GROUP BY code)
       SELECT c.*, COALESCE(hi.title, bi.title, c.code) AS title, COALESCE(hi.severity, bi.severity) AS severity,
              COALESCE(hi.category, bi.category) AS category
       FROM c LEFT JOIN audit_issue hi ON hi.audit_id = $2 AND hi.code = c.code
              LEFT JOIN audit_issue bi ON bi.audit_id = $1 AND bi.code = c.code`,
      [pair.base, pair.head, code],
    );
  }

  /**
   * Up to `limit` occurrences of one change, in (code, url) order after the keyset `after`: new ones walk the head's
   * index and keep those the base has not (an index lookup each), fixed ones the reverse, persisting ones those both
   * have.
   */
  issueChanges(
    db: NativeDb,
    pair: AuditPair,
    change: IssueChange,
    filter: { code: string | null; after: { code: string; url: string } | null; limit: number },
  ): Promise<IssueChangeRecord[]> {
    const [from, other] = change === 'FIXED' ? ['$1', '$2'] : ['$2', '$1'];
    const test = change === 'PERSISTING' ? 'EXISTS' : 'NOT EXISTS';
    // A list page (a few dozen rows) walks the (audit_id, code, url) index and looks each row up in the other audit:
    // OFFSET 0 keeps the subquery a per-row probe, so the LIMIT stops the walk early. Without it the planner
    // estimates the anti-join at one row and hashes both audits whole (355-407 ms against 15-22 ms on the bench's
    // 200,000-occurrence audits); a CSV piece of thousands of rows is faster as that hash join, so it keeps it.
    const probe = filter.limit <= PROBE_LIMIT ? ' OFFSET 0' : '';
    return nativeQuery<IssueChangeRecord>(
      db,
      `SELECT o.code, o.url, COALESCE(hi.title, bi.title, o.code) AS title,
              COALESCE(hi.severity, bi.severity) AS severity, COALESCE(hi.category, bi.category) AS category
       FROM (SELECT DISTINCT o.code, o.url FROM issue_occurrence o
             WHERE o.audit_id = ${from} AND ($3::text IS NULL OR o.code = $3)
               AND ($4::text IS NULL OR (o.code, o.url) > ($4::text, $5::text))
               AND ${test} (SELECT 1 FROM issue_occurrence x WHERE x.audit_id = ${other} AND x.code = o.code
                            AND x.url = o.url${probe})
             ORDER BY o.code, o.url LIMIT $6) o
       LEFT JOIN audit_issue hi ON hi.audit_id = $2 AND hi.code = o.code
       LEFT JOIN audit_issue bi ON bi.audit_id = $1 AND bi.code = o.code
       ORDER BY o.code, o.url`,
      [pair.base, pair.head, filter.code, filter.after?.code ?? null, filter.after?.url ?? null, filter.limit],
    );
  }

  /** How many crawled URLs were added, removed, or changed status or indexability between the audits. */
  async pageChangeTotals(db: NativeDb, pair: AuditPair): Promise<PageChangeTotals> {
    const [row] = await nativeQuery<PageChangeTotals>(
      db,
      `SELECT count(*) FILTER (WHERE ${PAGE_CHANGE_SQL.ADDED})::int AS added,
              count(*) FILTER (WHERE ${PAGE_CHANGE_SQL.REMOVED})::int AS removed,
              count(*) FILTER (WHERE ${PAGE_CHANGE_SQL.STATUS_CHANGED})::int AS "statusChanged",
              count(*) FILTER (WHERE ${PAGE_CHANGE_SQL.INDEXABILITY_CHANGED})::int AS "indexabilityChanged"
       FROM (SELECT url, status_code, indexable FROM audit_page WHERE audit_id = $1) b
       FULL JOIN (SELECT url, status_code, indexable FROM audit_page WHERE audit_id = $2) h USING (url)`,
      [pair.base, pair.head],
    );
    return row;
  }

  /** How many URLs show any of the given changes (all four when none is given). */
  async pageChangeCount(db: NativeDb, pair: AuditPair, changes: PageChange[]): Promise<number> {
    const [row] = await nativeQuery<{ n: number }>(
      db,
      `SELECT count(*)::int AS n
       FROM (SELECT url, status_code, indexable FROM audit_page WHERE audit_id = $1) b
       FULL JOIN (SELECT url, status_code, indexable FROM audit_page WHERE audit_id = $2) h USING (url)
       WHERE ${changeFilter(changes)}`,
      [pair.base, pair.head],
    );
    return row.n;
  }

  /** Up to `limit` changed URLs (of the given changes, or any), in URL order after `after`, both sides of each. */
  pageChanges(
    db: NativeDb,
    pair: AuditPair,
    filter: { changes: PageChange[]; after: string | null; limit: number },
  ): Promise<PageChangeRecord[]> {
    return nativeQuery<PageChangeRecord>(
      db,
      `SELECT COALESCE(h.url, b.url) AS url, ${side('b')} AS before, ${side('h')} AS after
       FROM (SELECT * FROM audit_page WHERE audit_id = $1) b
       FULL JOIN (SELECT * FROM audit_page WHERE audit_id = $2) h USING (url)
       WHERE ${changeFilter(filter.changes)}
         AND ($3::text IS NULL OR COALESCE(h.url, b.url) > $3)
       ORDER BY 1 LIMIT $4`,
      [pair.base, pair.head, filter.after, filter.limit],
    );
  }

  /** One URL in both audits: its page row on each side (null where that audit did not crawl it). */
  async pageSides(
    db: NativeDb,
    pair: AuditPair,
    url: string,
  ): Promise<{ before: PageSide | null; after: PageSide | null }> {
    const rows = await nativeQuery<{ audit_id: string } & PageSide>(
      db,
      `SELECT audit_id, status_code AS "statusCode", indexable, kind, title FROM audit_page
       WHERE audit_id = ANY($1::uuid[]) AND url = $2`,
      [[pair.base, pair.head], url],
    );
    const of = (id: string): PageSide | null => {
      const r = rows.find((x) => x.audit_id === id);
      return r ? { statusCode: r.statusCode, indexable: r.indexable, kind: r.kind, title: r.title } : null;
    };
    return { before: of(pair.base), after: of(pair.head) };
  }

  /** The check codes one URL has in each audit, with the issue's title, severity and category. */
  urlIssueChanges(db: NativeDb, pair: AuditPair, url: string): Promise<UrlIssueChangeRow[]> {
    return nativeQuery<UrlIssueChangeRow>(
      db,
      `WITH b AS (${occurrencesOf('$1')} AND url = $3), h AS (${occurrencesOf('$2')} AND url = $3)
       SELECT c.code, c.change, COALESCE(hi.title, bi.title, c.code) AS title,
              COALESCE(hi.severity, bi.severity) AS severity, COALESCE(hi.category, bi.category) AS category
       FROM (SELECT code, CASE WHEN b.url IS NULL THEN 'NEW' WHEN h.url IS NULL THEN 'FIXED' ELSE 'PERSISTING' END
               AS change FROM b FULL JOIN h USING (code, url)) c
       LEFT JOIN audit_issue hi ON hi.audit_id = $2 AND hi.code = c.code
       LEFT JOIN audit_issue bi ON bi.audit_id = $1 AND bi.code = c.code
       ORDER BY c.code`,
      [pair.base, pair.head, url],
    );
  }

  /** New occurrences' example URLs, up to `perCode` per code (the alert facts' examples). */
  newExamples(db: NativeDb, pair: AuditPair, perCode: number): Promise<{ code: string; urls: string[] }[]> {
    return nativeQuery<{ code: string; urls: string[] }>(
      db,
      `SELECT code, (array_agg(url ORDER BY url))[1:$3] AS urls FROM (${occurrencesOf('$2')}) h
       WHERE NOT EXISTS (SELECT 1 FROM issue_occurrence x WHERE x.audit_id = $1 AND x.code = h.code AND x.url = h.url)
       GROUP BY code`,
      [pair.base, pair.head, perCode],
    );
  }

  /** URLs that answered 200 in the base and now answer 4xx/5xx or no longer index, up to `limit`, in URL order. */
  pageRegressions(db: NativeDb, pair: AuditPair, limit: number): Promise<PageRegressionRecord[]> {
    return nativeQuery<PageRegressionRecord>(
      db,
      `SELECT h.url, json_build_object('statusCode', b.status_code, 'indexable', b.indexable) AS before,
              json_build_object('statusCode', h.status_code, 'indexable', h.indexable) AS after
       FROM audit_page b JOIN audit_page h ON h.audit_id = $2 AND h.url = b.url
       WHERE b.audit_id = $1 AND b.status_code = 200
         AND (h.status_code >= 400 OR (b.indexable AND NOT h.indexable))
       ORDER BY h.url LIMIT $3`,
      [pair.base, pair.head, limit],
    );
  }
}
