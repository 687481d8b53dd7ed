import DataLoader from 'dataloader';
import type { RequestContext } from '../platform/context.js';
import { nativeQuery } from '../platform/db/native-query.js';
import { AuditEntity, type Audit } from './audit.entity.js';

type Counts = { critical: number; warning: number; notice: number };

/** Per-request batch loaders: one query per field across a whole list, never one per row. */
export const auditLoaders = (ctx: RequestContext) => ({
  lastCompleted: ctx.loaders.get('audits.lastCompleted', () =>
    new DataLoader<string, number | null>(async (projectIds) => {
      const rows = await nativeQuery<{ project_id: string; overall_score: number | null }>(ctx.db,
        `SELECT DISTINCT ON (project_id) project_id, overall_score FROM audit
         WHERE project_id = ANY($1::uuid[]) AND status = 'COMPLETED' ORDER BY project_id, completed_at DESC`,
        [projectIds],
      );
      const by = new Map(rows.map((r) => [r.project_id, r.overall_score]));
      return projectIds.map((id) => by.get(id) ?? null);
    }),
  ),
  latest: ctx.loaders.get('audits.latest', () =>
    new DataLoader<string, Audit | null>(async (projectIds) => {
      const rows = await nativeQuery<{ id: string; project_id: string }>(ctx.db,
        'SELECT DISTINCT ON (project_id) id, project_id FROM audit WHERE project_id = ANY($1::uuid[]) ORDER BY project_id, created_at DESC, id DESC',
        [projectIds],
      );
      const audits = rows.length ? await ctx.em.find(AuditEntity, { id: { $in: rows.map((r) => r.id) } }) : [];
      const by = new Map(audits.map((a) => [a.projectId, a]));
      return projectIds.map((id) => by.get(id) ?? null);
    }),
  ),
  issueCounts: ctx.loaders.get('audits.issueCounts', () =>
    new DataLoader<string, Counts>(async (auditIds) => {
      const rows = await nativeQuery<{ audit_id: string; severity: string; n: number }>(ctx.db,
        'SELECT audit_id, severity, count(*)::int AS n FROM audit_issue WHERE audit_id = ANY($1::uuid[]) GROUP BY audit_id, severity',
        [auditIds],
      );
      const by = new Map<string, Counts>(auditIds.map((id) => [id, { critical: 0, warning: 0, notice: 0 }]));
      for (const r of rows) by.get(r.audit_id)![r.severity.toLowerCase() as keyof Counts] = r.n;
      return auditIds.map((id) => by.get(id)!);
    }),
  ),
});

/** Where the rows Project.counts.audits counts live; registered with the project counters (one statement for all of a list's counts). */
export const AUDIT_COUNT_SOURCE = { table: 'audit' } as const;
