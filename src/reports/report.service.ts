import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../platform/context.js';
import { notFound } from '../platform/errors.js';
import { isUuid } from '../platform/ids.js';
import { nativeQuery } from '../platform/db/native-query.js';
import { assertApiAccess } from '../identity/index.js';
import type { ProjectService } from '../projects/index.js';
import type { AuditReportType, OccurrenceExportConnection } from './report.types.js';

export const MAX_EXPORT_PAGE = 5_000;

interface ReportRow {
  auditId: string;
  status: string;
  createdAt: Date;
  completedAt: Date | null;
  overall: number | null;
  meta: number | null;
  content: number | null;
  links: number | null;
  technical: number | null;
  performance: number | null;
  pagesCrawled: number;
  critical: number;
  warning: number;
  notice: number;
}

/** Audit reports of a project and the issue occurrences of an audit, paged for streaming exports. */
export class ReportService {
  constructor(private readonly projects: ProjectService) {}

  async list(em: EntityManager, principal: Principal | null, projectId: string, auditId?: string | null): Promise<AuditReportType[]> {
    const p = assertApiAccess(principal, 'read');
    const project = await this.projects.findOwned(em, p, projectId);
    if (auditId && !isUuid(auditId)) throw notFound('Audit');
    const rows = await nativeQuery<ReportRow>(
      em,
      `SELECT a.id AS "auditId", a.status, a.created_at AS "createdAt", a.completed_at AS "completedAt",
              a.overall_score AS overall, a.meta_score AS meta, a.content_score AS content, a.links_score AS links,
              a.technical_score AS technical, a.performance_score AS performance, a.pages_crawled AS "pagesCrawled",
              count(i.id) FILTER (WHERE i.severity = 'CRITICAL')::int AS critical,
              count(i.id) FILTER (WHERE i.severity = 'WARNING')::int AS warning,
              count(i.id) FILTER (WHERE i.severity = 'NOTICE')::int AS notice
       FROM audit a LEFT JOIN audit_issue i ON i.audit_id = a.id
       WHERE a.project_id = $1 AND ($2::uuid IS NULL OR a.id = $2::uuid)
       GROUP BY a.id ORDER BY a.created_at DESC, a.id DESC`,
      [project.id, auditId ?? null],
    );
    if (auditId && !rows.length) throw notFound('Audit');
    return rows.map((r) => ({
      auditId: r.auditId,
      status: r.status,
      createdAt: r.createdAt,
      completedAt: r.completedAt,
      scores: { overall: r.overall, meta: r.meta, content: r.content, links: r.links, technical: r.technical, performance: r.performance },
      pagesCrawled: r.pagesCrawled,
      issueCounts: { critical: r.critical, warning: r.warning, notice: r.notice },
    }));
  }

  /** Keyset pages over an audit's occurrences (most severe issues first, then page order). */
  async occurrences(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    auditId: string,
    first: number,
    after?: string | null,
  ): Promise<OccurrenceExportConnection> {
    const p = assertApiAccess(principal, 'read');
    const project = await this.projects.findOwned(em, p, projectId);
    if (!isUuid(auditId)) throw notFound('Audit');
    const [audit] = await nativeQuery<{ id: string }>(em, 'SELECT id FROM audit WHERE id = $1 AND project_id = $2', [auditId, project.id]);
    if (!audit) throw notFound('Audit');
    const limit = Math.min(Math.max(first, 1), MAX_EXPORT_PAGE);
    const cursor = after && /^\d{1,18}$/.test(after) ? after : '0';
    const rows = await nativeQuery<{ id: string; code: string; title: string; severity: string; category: string; url: string; evidence: unknown }>(
      em,
      `SELECT o.id::text AS id, o.code, i.title, i.severity, i.category, o.url, o.evidence
       FROM issue_occurrence o JOIN audit_issue i ON i.audit_id = o.audit_id AND i.code = o.code
       WHERE o.audit_id = $1 AND o.id > $2::bigint ORDER BY o.id LIMIT $3`,
      [audit.id, cursor, limit + 1],
    );
    const nodes = rows.slice(0, limit);
    return { nodes, pageInfo: { hasNextPage: rows.length > limit, endCursor: nodes.at(-1)?.id ?? null } };
  }
}
