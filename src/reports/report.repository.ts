import { nativeQuery, type NativeDb } from '../platform/db/native-query.js';
import type { StoredScores } from '../seo/scoring/index.js';

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
}
