import { nativeQuery, type NativeDb } from '../platform/db/native-query.js';
import type { FixesShown, ScoreBreakdown, StoredScores } from '../seo/scoring/index.js';
import { pageInlinksSql, type AuditCounts } from '../audits/index.js';

/** An audit of a project with its scores and its issue counts by severity. */
export interface ReportRow extends StoredScores {
  auditId: string;
  status: string;
  createdAt: Date;
  completedAt: Date | null;
  pagesCrawled: number;
  critical: number;
  warning: number;
  notice: number;
}

/** An issue occurrence as exports page through them (`id`: the keyset cursor, as text). */
export interface OccurrenceExportRow {
  id: string;
  code: string;
  title: string;
  severity: string;
  category: string;
  url: string;
  evidence: unknown;
}

/** A crawled page as the pages export writes it (`id`: the keyset cursor, as text). */
export interface PageExportRow {
  id: string;
  url: string;
  finalUrl: string | null;
  statusCode: number | null;
  depth: number;
  title: string | null;
  metaDescription: string | null;
  /** HTML, FILE, REDIRECT, ERROR or FAILED: the HTML rows are the audit's HTML pages; null for old audits. */
  kind: string | null;
  indexable: boolean;
  wordCount: number;
  responseTimeMs: number | null;
  bytes: number;
  inlinks: number;
  outlinks: number;
  /** An HTML page's links, read or not; null for other URLs and audits crawled before it was kept. */
  linkCount: number | null;
  /** Of linkCount, those past the per-page cap: not followed, checked or listed. */
  linksNotRead: number;
  issueCount: number;
  error: string | null;
}

/** A tracked keyword with its latest, previous and best successful positions and its last check. */
export interface KeywordExportRow {
  id: string;
  createdAt: Date;
  term: string;
  country: string;
  language: string;
  device: string;
  position: number | null;
  previousPosition: number | null;
  bestPosition: number | null;
  url: string | null;
  lastChecked: Date | null;
  lastCheckStatus: string | null;
  lastError: string | null;
}

/** An audit's identity and scores, for choosing what a report or an export is about. */
export interface AuditSummaryRow extends StoredScores {
  id: string;
  status: string;
  createdAt: Date;
  completedAt: Date | null;
  pagesCrawled: number;
  counts: AuditCounts | null;
  /** The stored "why this score" (blockers and indexability); null before it was kept. */
  breakdown: Pick<ScoreBreakdown, 'blockers' | 'indexability'> | null;
}

/** An issue of an audit with up to `urls` of its affected pages and the first occurrence's evidence. */
export interface TopIssueRow {
  id: string;
  code: string;
  title: string;
  severity: string;
  category: string;
  description: string;
  affectedPages: number;
  urls: string[];
  evidence: unknown;
  /** A stored fix suggestion for the issue (language model or rules), when one was asked for. */
  fixSummary: string | null;
  fixSteps: unknown;
  /** A fix-grouped issue's fixes (how many, the widest with their reach); null otherwise. */
  fixes: FixesShown | null;
}

/** Issue counts of one category of an audit. */
export interface CategoryCountRow {
  category: string;
  critical: number;
  warning: number;
  notice: number;
}

/** The latest Core Web Vitals of one page and device. */
export interface VitalsRow {
  url: string;
  device: string;
  source: string;
  measuredAt: Date;
  lcpMs: number | null;
  cls: number | null;
  inpMs: number | null;
  tbtMs: number | null;
  fcpMs: number | null;
  ttfbMs: number | null;
}

/** A keyword's latest and previous successful positions (both found). */
export interface MoverRow {
  term: string;
  country: string;
  device: string;
  position: number;
  previousPosition: number;
  url: string | null;
  checkedAt: Date;
}

const AUDIT_SUMMARY = `a.id, a.status, a.created_at AS "createdAt", a.completed_at AS "completedAt",
  a.pages_crawled AS "pagesCrawled", a.counts, a.overall_score AS overall, a.meta_score AS meta,
  a.content_score AS content, a.links_score AS links, a.technical_score AS technical,
  a.performance_score AS performance, a.score_breakdown AS breakdown`;

/** The only file of the reports module that speaks SQL. */
export class ReportRepository {
  /** The project's audits, newest first, or only `auditId` when given. */
  reports(db: NativeDb, projectId: string, auditId: string | null): Promise<ReportRow[]> {
    return nativeQuery<ReportRow>(
      db,
      `SELECT a.id AS "auditId", a.status, a.created_at AS "createdAt", a.completed_at AS "completedAt",
              a.overall_score AS overall, a.meta_score AS meta, a.content_score AS content, a.links_score AS links,
              a.technical_score AS technical, a.performance_score AS performance, a.pages_crawled AS "pagesCrawled",
              count(i.id) FILTER (WHERE i.severity = 'CRITICAL')::int AS critical,
              count(i.id) FILTER (WHERE i.severity = 'WARNING')::int AS warning,
              count(i.id) FILTER (WHERE i.severity = 'NOTICE')::int AS notice
       FROM audit a LEFT JOIN audit_issue i ON i.audit_id = a.id
       WHERE a.project_id = $1 AND ($2::uuid IS NULL OR a.id = $2::uuid)
       GROUP BY a.id ORDER BY a.created_at DESC, a.id DESC`,
      [projectId, auditId],
    );
  }

  /** Whether the audit belongs to the project. */
  async auditOfProject(db: NativeDb, auditId: string, projectId: string): Promise<{ id: string } | null> {
    const [audit] = await nativeQuery<{ id: string }>(db, 'SELECT id FROM audit WHERE id = $1 AND project_id = $2', [
      auditId,
      projectId,
    ]);
    return audit ?? null;
  }

  /** Up to `limit` occurrences of the audit after the cursor (an occurrence id), in id order. */
  occurrencesAfter(db: NativeDb, auditId: string, cursor: string, limit: number): Promise<OccurrenceExportRow[]> {
    return nativeQuery<OccurrenceExportRow>(
      db,
      `SELECT o.id::text AS id, o.code, i.title, i.severity, i.category, o.url, o.evidence
       FROM issue_occurrence o JOIN audit_issue i ON i.audit_id = o.audit_id AND i.code = o.code
       WHERE o.audit_id = $1 AND o.id > $2::bigint ORDER BY o.id LIMIT $3`,
      [auditId, cursor, limit],
    );
  }

  /** The audit of the project, or its latest completed audit when `auditId` is null. */
  async auditSummary(db: NativeDb, projectId: string, auditId: string | null): Promise<AuditSummaryRow | null> {
    const [row] = await nativeQuery<AuditSummaryRow>(
      db,
      auditId
        ? `SELECT ${AUDIT_SUMMARY} FROM audit a WHERE a.id = $2 AND a.project_id = $1`
        : `SELECT ${AUDIT_SUMMARY} FROM audit a WHERE a.project_id = $1 AND a.status = 'COMPLETED'
           ORDER BY a.completed_at DESC, a.id DESC LIMIT 1`,
      auditId ? [projectId, auditId] : [projectId],
    );
    return row ?? null;
  }

  /** Up to `limit` crawled pages of the audit after the cursor (a page id), in crawl (id) order. */
  pagesAfter(db: NativeDb, auditId: string, cursor: string, limit: number): Promise<PageExportRow[]> {
    return nativeQuery<PageExportRow>(
      db,
      `SELECT p.id::text AS id, p.url, p.final_url AS "finalUrl", p.status_code AS "statusCode", p.depth, p.title,
              p.meta_description AS "metaDescription", p.kind, p.indexable, p.word_count AS "wordCount",
              p.response_time_ms AS "responseTimeMs", p.bytes, ${pageInlinksSql()} AS inlinks, p.outlinks,
              (p.details->>'linkCount')::int AS "linkCount",
              COALESCE((p.details->>'linksNotRead')::int, 0) AS "linksNotRead",
              (SELECT count(*) FROM issue_occurrence o WHERE o.audit_id = $1 AND o.url = p.url)::int AS "issueCount",
              p.error
       FROM audit_page p WHERE p.audit_id = $1 AND p.id > $2::bigint ORDER BY p.id LIMIT $3`,
      [auditId, cursor, limit],
    );
  }

  /** Up to `limit` keywords of the project after (createdAt, id), oldest first, with their rankings. */
  keywordsAfter(
    db: NativeDb,
    projectId: string,
    cursor: { createdAt: string; id: string } | null,
    limit: number,
  ): Promise<KeywordExportRow[]> {
    return nativeQuery<KeywordExportRow>(
      db,
      `SELECT k.id, k.created_at AS "createdAt", k.term, k.country, k.language, k.device,
              ok.position, prev.position AS "previousPosition", best.position AS "bestPosition", ok.url,
              ok.checked_at AS "lastChecked", last.status AS "lastCheckStatus",
              CASE WHEN last.status = 'FAILED' THEN last.error END AS "lastError"
       FROM keyword k
       LEFT JOIN LATERAL (SELECT id, position, url, checked_at FROM ranking r WHERE r.keyword_id = k.id
                          AND r.status = 'OK' ORDER BY checked_at DESC, id DESC LIMIT 1) ok ON true
       LEFT JOIN LATERAL (SELECT position FROM ranking r WHERE r.keyword_id = k.id AND r.status = 'OK'
                          AND r.id <> ok.id AND r.checked_at <= ok.checked_at
                          ORDER BY checked_at DESC, id DESC LIMIT 1) prev ON true
       LEFT JOIN LATERAL (SELECT min(position) AS position FROM ranking r WHERE r.keyword_id = k.id
                          AND r.status = 'OK') best ON true
       LEFT JOIN LATERAL (SELECT status, error FROM ranking r WHERE r.keyword_id = k.id
                          ORDER BY checked_at DESC, id DESC LIMIT 1) last ON true
       WHERE k.project_id = $1 AND ($2::timestamptz IS NULL OR (k.created_at, k.id) > ($2::timestamptz, $3::uuid))
       ORDER BY k.created_at, k.id LIMIT $4`,
      [projectId, cursor?.createdAt ?? null, cursor?.id ?? null, limit],
    );
  }

  /** Issue counts per category of the audit. */
  categoryCounts(db: NativeDb, auditId: string): Promise<CategoryCountRow[]> {
    return nativeQuery<CategoryCountRow>(
      db,
      `SELECT category, count(*) FILTER (WHERE severity = 'CRITICAL')::int AS critical,
              count(*) FILTER (WHERE severity = 'WARNING')::int AS warning,
              count(*) FILTER (WHERE severity = 'NOTICE')::int AS notice
       FROM audit_issue WHERE audit_id = $1 GROUP BY category`,
      [auditId],
    );
  }

  /** The audit's most severe, most widespread issues, with some affected URLs and a stored fix if any. */
  topIssues(db: NativeDb, auditId: string, limit: number, urlsPerIssue: number): Promise<TopIssueRow[]> {
    return nativeQuery<TopIssueRow>(
      db,
      `SELECT i.id, i.code, i.title, i.severity, i.category, i.description, i.affected_pages AS "affectedPages",
              COALESCE(occ.urls, '{}') AS urls, occ.evidence, fx.summary AS "fixSummary", fx.steps AS "fixSteps",
              i.fixes
       FROM audit_issue i
       LEFT JOIN LATERAL (SELECT array_agg(o.url ORDER BY o.id) AS urls,
                                 (array_agg(o.evidence ORDER BY o.id))[1] AS evidence
                          FROM (SELECT id, url, evidence FROM issue_occurrence o WHERE o.audit_id = i.audit_id
                                AND o.code = i.code ORDER BY o.id LIMIT $3) o) occ ON true
       LEFT JOIN LATERAL (SELECT summary, steps FROM fix_suggestion f WHERE f.issue_id = i.id
                          ORDER BY f.created_at DESC LIMIT 1) fx ON true
       WHERE i.audit_id = $1
       ORDER BY CASE i.severity WHEN 'CRITICAL' THEN 0 WHEN 'WARNING' THEN 1 ELSE 2 END, i.affected_pages DESC, i.code
       LIMIT $2`,
      [auditId, limit, urlsPerIssue],
    );
  }

  /** The latest Core Web Vitals per page and device of the project (pages with at least one metric). */
  latestVitals(db: NativeDb, projectId: string, limit: number): Promise<VitalsRow[]> {
    return nativeQuery<VitalsRow>(
      db,
      `SELECT * FROM (
         SELECT DISTINCT ON (url, device) url, device, source, measured_at AS "measuredAt", lcp_ms AS "lcpMs", cls,
                inp_ms AS "inpMs", tbt_ms AS "tbtMs", fcp_ms AS "fcpMs", ttfb_ms AS "ttfbMs"
         FROM technical_snapshot
         WHERE project_id = $1 AND COALESCE(lcp_ms, cls, inp_ms, tbt_ms, fcp_ms, ttfb_ms) IS NOT NULL
         ORDER BY url, device, measured_at DESC, id DESC) v
       ORDER BY url, device LIMIT $2`,
      [projectId, limit],
    );
  }

  /** Keywords whose latest successful position differs from the previous one (both found). */
  movers(db: NativeDb, projectId: string): Promise<MoverRow[]> {
    return nativeQuery<MoverRow>(
      db,
      `SELECT k.term, k.country, k.device, r.position, r.prev AS "previousPosition", r.url, r.checked_at AS "checkedAt"
       FROM keyword k
       JOIN LATERAL (SELECT x.position, x.url, x.checked_at,
                            lead(x.position) OVER (ORDER BY x.checked_at DESC, x.id DESC) AS prev
                     FROM (SELECT id, position, url, checked_at FROM ranking WHERE keyword_id = k.id AND status = 'OK'
                           ORDER BY checked_at DESC, id DESC LIMIT 2) x
                     ORDER BY x.checked_at DESC, x.id DESC LIMIT 1) r ON true
       WHERE k.project_id = $1 AND r.position IS NOT NULL AND r.prev IS NOT NULL AND r.position <> r.prev`,
      [projectId],
    );
  }
}
