import { nativeQuery, type NativeDb } from '../platform/db/native-query.js';

/** A crawled page a ranking URL may name, in its project's latest completed audit (rankingPageFacts). */
export interface RankingPageFactsRow {
  projectId: string;
  auditId: string;
  /** As crawled. */
  url: string;
  statusCode: number | null;
  indexable: boolean;
  /** One per issue code occurring on the URL. */
  issues: { code: string; title: string; severity: 'CRITICAL' | 'WARNING' | 'NOTICE' }[];
  /** Lab LCPs measured for the URL in the audit, newest first. */
  labLcp: { device: string; lcpMs: number }[];
}

/**
 * A tracked keyword whose latest check found the project at a position, with the URL the results showed (read from
 * the keywords module's tables: the join is this module's).
 */
export interface RankingKeywordRow {
  keywordId: string;
  projectId: string;
  term: string;
  country: string;
  device: string;
  position: number;
  url: string;
}

/**
 * The ranking-page join's reads: the keywords whose latest check ranks a page (the keywords module's tables, read
 * only), and the facts of the crawled pages their ranking URLs name.
 */
export class RankingPagesRepository {
  /**
   * Per project, the keywords whose latest check (whatever its outcome) is OK with a position and a URL, oldest first:
   * a failed latest check, or "not within the checked depth", ranks no page. Per keyword one read of the
   * (keyword_id, checked_at desc, id desc) index.
   */
  latestRankingPages(db: NativeDb, projectIds: readonly string[]): Promise<RankingKeywordRow[]> {
    return nativeQuery<RankingKeywordRow>(
      db,
      `SELECT k.id AS "keywordId", k.project_id AS "projectId", k.term, k.country, k.device, last.position, last.url
       FROM keyword k
       CROSS JOIN LATERAL (SELECT status, position, url FROM ranking r WHERE r.keyword_id = k.id
                           ORDER BY checked_at DESC, id DESC LIMIT 1) last
       WHERE k.project_id = ANY($1::uuid[]) AND last.status = 'OK' AND last.position IS NOT NULL
         AND last.url IS NOT NULL
       ORDER BY k.created_at, k.id`,
      [projectIds],
    );
  }

  /** The latest completed audit of each of the projects, by project id (projects without one are absent). */
  async latestCompletedAudits(db: NativeDb, projectIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await nativeQuery<{ projectId: string; auditId: string }>(
      db,
      `SELECT w.id AS "projectId", a.id AS "auditId" FROM unnest($1::uuid[]) AS w(id)
       CROSS JOIN LATERAL (SELECT id FROM audit WHERE project_id = w.id AND status = 'COMPLETED'
                           ORDER BY completed_at DESC, id DESC LIMIT 1) a`,
      [projectIds],
    );
    return new Map(rows.map((r) => [r.projectId, r.auditId]));
  }

  /**
   * The pages of an audit crawled under the asked URLs, with their issues (one per code occurring on the URL) and
   * their lab LCPs, newest first. URLs that were not crawled are absent (`urls` has no duplicates). The audit is known
   * before the statement is planned. (Asked with (project, URL) pairs, the planner probed audit_page's trigram index
   * with every URL before it knew the audit: ~55 ms for the 7,000 URL variants of 1,000 keywords.) The URLs are a
   * joined list, not `url = ANY(...)`: planning ANY estimates each of the array's elements, ~18 ms for those 7,000.
   * They are sent as one text, a line each, not as an array: pg writes an array's ~560 KB element by element, quoting
   * each (3-5 ms of this process for those URLs), and PostgreSQL then parses that literal (2.5 ms). A crawled URL is
   * stored serialized, which never holds a line break: a URL that does names no crawled page and is left out.
   */
  rankingPageFacts(
    db: NativeDb,
    projectId: string,
    auditId: string,
    urls: readonly string[],
  ): Promise<RankingPageFactsRow[]> {
    return nativeQuery<RankingPageFactsRow>(
      db,
      `SELECT $1::uuid AS "projectId", p.audit_id AS "auditId", p.url, p.status_code AS "statusCode", p.indexable,
         COALESCE((SELECT json_agg(json_build_object('code', i.code, 'title', i.title, 'severity', i.severity)
                                   ORDER BY i.code)
                   FROM (SELECT DISTINCT o.code FROM issue_occurrence o
                         WHERE o.audit_id = p.audit_id AND o.url = p.url) c
                   JOIN audit_issue i ON i.audit_id = p.audit_id AND i.code = c.code), '[]'::json) AS issues,
         COALESCE((SELECT json_agg(json_build_object('device', s.device, 'lcpMs', s.lcp_ms)
                                   ORDER BY s.measured_at DESC)
                   FROM technical_snapshot s WHERE s.audit_id = p.audit_id AND s.url = p.url AND s.source = 'LAB'
                     AND s.lcp_ms IS NOT NULL), '[]'::json) AS "labLcp"
       FROM unnest(string_to_array($3, E'\\n')) AS w(url) JOIN audit_page p ON p.audit_id = $2 AND p.url = w.url`,
      [projectId, auditId, urls.filter((url) => !url.includes('\n')).join('\n')],
    );
  }

  /**
   * The URLs of an audit crawled under the asked ones, with their status (the URL table's ranking columns: the same
   * match as rankingPageFacts, on any audit of the project, without the issues). Sent as rankingPageFacts sends them.
   */
  crawledStatuses(
    db: NativeDb,
    auditId: string,
    urls: readonly string[],
  ): Promise<{ url: string; statusCode: number | null }[]> {
    return nativeQuery<{ url: string; statusCode: number | null }>(
      db,
      `SELECT p.url, p.status_code AS "statusCode"
       FROM unnest(string_to_array($2, E'\\n')) AS w(url) JOIN audit_page p ON p.audit_id = $1 AND p.url = w.url`,
      [auditId, urls.filter((url) => !url.includes('\n')).join('\n')],
    );
  }
}
