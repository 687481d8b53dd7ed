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
  /** Latest completed overall score minus the one before it; null with fewer than two completed audits. */
  scoreChange: ctx.loaders.get('audits.scoreChange', () =>
    new DataLoader<string, number | null>(async (projectIds) => {
      // Per project, the two latest completed audits, read from the (project_id, completed_at) partial index.
      const rows = await nativeQuery<{ project_id: string; scores: (number | null)[] }>(ctx.db,
        `SELECT p.id AS project_id, l.scores FROM unnest($1::uuid[]) AS p(id)
         CROSS JOIN LATERAL (SELECT array_agg(overall_score ORDER BY completed_at DESC, id DESC) AS scores FROM (
           SELECT overall_score, completed_at, id FROM audit WHERE project_id = p.id AND status = 'COMPLETED'
           ORDER BY completed_at DESC, id DESC LIMIT 2) last_two) l`,
        [projectIds],
      );
      const by = new Map(rows.map((r) => [r.project_id, r.scores]));
      return projectIds.map((id) => {
        const [latest, previous] = by.get(id) ?? [];
        return latest == null || previous == null ? null : latest - previous;
      });
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
