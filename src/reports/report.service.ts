import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../platform/context.js';
import { notFound } from '../platform/errors.js';
import { isUuid } from '../platform/ids.js';
import { assertApiAccess } from '../identity/index.js';
import type { ProjectService } from '../projects/index.js';
import type { AuditReportType, OccurrenceExportConnection } from './report.types.js';
import { ReportRepository } from './report.repository.js';

export const MAX_EXPORT_PAGE = 5_000;

/** Audit reports of a project and the issue occurrences of an audit, paged for streaming exports. */
export class ReportService {
  constructor(
    private readonly projects: ProjectService,
    private readonly repo = new ReportRepository(),
  ) {}

  async list(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    auditId?: string | null,
  ): Promise<AuditReportType[]> {
    const p = assertApiAccess(principal, 'read');
    const project = await this.projects.findOwned(em, p, projectId);
    if (auditId && !isUuid(auditId)) throw notFound('Audit');
    const rows = await this.repo.reports(em, project.id, auditId ?? null);
    if (auditId && !rows.length) throw notFound('Audit');
    return rows.map((r) => ({
      auditId: r.auditId,
      status: r.status,
      createdAt: r.createdAt,
      completedAt: r.completedAt,
      scores: {
        overall: r.overall,
        meta: r.meta,
        content: r.content,
        links: r.links,
        technical: r.technical,
        performance: r.performance,
      },
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
    const audit = await this.repo.auditOfProject(em, auditId, project.id);
    if (!audit) throw notFound('Audit');
    const limit = Math.min(Math.max(first, 1), MAX_EXPORT_PAGE);
    const cursor = after && /^\d{1,18}$/.test(after) ? after : '0';
    const rows = await this.repo.occurrencesAfter(em, audit.id, cursor, limit + 1);
    const nodes = rows.slice(0, limit);
    return { nodes, pageInfo: { hasNextPage: rows.length > limit, endCursor: nodes.at(-1)?.id ?? null } };
  }
}
