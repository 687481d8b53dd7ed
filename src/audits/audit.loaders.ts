import DataLoader from 'dataloader';
import type { RequestContext } from '../platform/context.js';
import { checkSettingChanges, type CheckSettingChange } from '../seo/checks/index.js';
import type { ScoreBreakdown } from '../seo/scoring/index.js';
import type { Audit } from './audit.entity.js';
import { AuditDashboardRepository } from './audit-dashboard.repository.js';
import { AuditRepository } from './audit.repository.js';

const repo = new AuditDashboardRepository();
const auditRows = new AuditRepository();

type Counts = { critical: number; warning: number; notice: number };
type ScoreChange = { change: number | null; withheld: boolean };

/** Per-request batch loaders: one query per field across a whole list, never one per row. */
export const auditLoaders = (ctx: RequestContext) => ({
  lastCompleted: ctx.loaders.get(
    'audits.lastCompleted',
    () =>
      new DataLoader<string, number | null>(async (projectIds) => {
        const rows = await repo.lastCompletedScores(ctx.db, projectIds);
        const by = new Map(rows.map((r) => [r.project_id, r.overall_score]));
        return projectIds.map((id) => by.get(id) ?? null);
      }),
  ),
  /**
   * Latest completed overall score minus the one before it; null with fewer than two completed audits, and withheld
   * (null, `withheld` true) when the two were scored with different check settings: that change is not progress.
   */
  scoreChange: ctx.loaders.get(
    'audits.scoreChange',
    () =>
      new DataLoader<string, ScoreChange>(async (projectIds) => {
        const rows = await repo.lastTwoCompletedScores(ctx.db, projectIds);
        const by = new Map(rows.map((r) => [r.project_id, r]));
        return projectIds.map((id) => {
          // A project without a completed audit has a row whose arrays are null (array_agg of nothing).
          const scores = by.get(id)?.scores ?? [];
          const overrides = by.get(id)?.overrides ?? [];
          const [latest, previous] = scores;
          if (scores.length < 2) return { change: null, withheld: false };
          const withheld = checkSettingChanges(overrides[1], overrides[0]).length > 0;
          return {
            change: latest == null || previous == null || withheld ? null : latest - previous,
            withheld,
          };
        });
      }),
  ),
  /**
   * Per completed audit, how its check settings differ from the project's completed audit before it; null for an
   * audit not completed, or the project's first.
   */
  settingChanges: ctx.loaders.get(
    'audits.settingChanges',
    () =>
      new DataLoader<string, CheckSettingChange[] | null>(async (auditIds) => {
        const rows = await repo.settingsWithPrevious(ctx.db, auditIds);
        const by = new Map(rows.map((r) => [r.id, r]));
        return auditIds.map((id) => {
          const row = by.get(id);
          return row?.previous ? checkSettingChanges(row.previous.overrides, row.own) : null;
        });
      }),
  ),
  latest: ctx.loaders.get(
    'audits.latest',
    () =>
      new DataLoader<string, Audit | null>(async (projectIds) => {
        const rows = await repo.latestAuditIds(ctx.db, projectIds);
        const audits = rows.length
          ? await auditRows.findByIds(
              ctx.em,
              rows.map((r) => r.id),
            )
          : [];
        const by = new Map(audits.map((a) => [a.projectId, a]));
        return projectIds.map((id) => by.get(id) ?? null);
      }),
  ),
  scoreBreakdown: ctx.loaders.get(
    'audits.scoreBreakdown',
    () =>
      new DataLoader<string, ScoreBreakdown | null>(async (auditIds) => {
        const rows = await repo.scoreBreakdowns(ctx.db, auditIds);
        const by = new Map(rows.map((r) => [r.id, r.score_breakdown]));
        return auditIds.map((id) => by.get(id) ?? null);
      }),
  ),
  issueCounts: ctx.loaders.get(
    'audits.issueCounts',
    () =>
      new DataLoader<string, Counts>(async (auditIds) => {
        const rows = await repo.issueCountsBySeverity(ctx.db, auditIds);
        const by = new Map<string, Counts>(auditIds.map((id) => [id, { critical: 0, warning: 0, notice: 0 }]));
        for (const r of rows) by.get(r.audit_id)![r.severity.toLowerCase() as keyof Counts] = r.n;
        return auditIds.map((id) => by.get(id)!);
      }),
  ),
});

/**
 * Where the rows Project.counts.audits counts live; registered with the project counters (one statement for all of a
 * list's counts).
 */
export const AUDIT_COUNT_SOURCE = { table: 'audit' } as const;
