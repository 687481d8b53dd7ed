import { nativeQuery, type NativeDb } from '../platform/db/native-query.js';
import type { CheckOverride } from '../seo/checks/index.js';
import type { ScoreBreakdown } from '../seo/scoring/index.js';

/** The batch reads of the per-request loaders (one statement per field across a list), and the metrics' counts. */
export class AuditDashboardRepository {
  /** Per project, the overall score of its latest completed audit (projects without one are absent). */
  lastCompletedScores(
    db: NativeDb,
    projectIds: readonly string[],
  ): Promise<{ project_id: string; overall_score: number | null }[]> {
    return nativeQuery<{ project_id: string; overall_score: number | null }>(
      db,
      `SELECT DISTINCT ON (project_id) project_id, overall_score FROM audit
       WHERE project_id = ANY($1::uuid[]) AND status = 'COMPLETED' ORDER BY project_id, completed_at DESC`,
      [projectIds],
    );
  }

  /**
   * Per project, the overall scores of its two latest completed audits whose external verdicts are in (a change is
   * a comparison: the same pair the comparison opens by default), latest first.
   */
  lastTwoCompletedScores(
    db: NativeDb,
    projectIds: readonly string[],
  ): Promise<{ project_id: string; scores: (number | null)[] | null; overrides: (CheckOverride[] | null)[] | null }[]> {
    // Per project, the two latest completed audits, read from the (project_id, completed_at) partial index, with the
    // check settings each was scored with.
    return nativeQuery<{
      project_id: string;
      scores: (number | null)[] | null;
      overrides: (CheckOverride[] | null)[] | null;
    }>(
      db,
      `SELECT p.id AS project_id, l.scores, l.overrides FROM unnest($1::uuid[]) AS p(id)
       CROSS JOIN LATERAL (SELECT array_agg(overall_score ORDER BY completed_at DESC, id DESC) AS scores,
           array_agg(overrides ORDER BY completed_at DESC, id DESC) AS overrides FROM (
         SELECT overall_score, score_breakdown->'overrides' AS overrides, completed_at, id FROM audit
         WHERE project_id = p.id AND status = 'COMPLETED' AND external_links_final
         ORDER BY completed_at DESC, id DESC LIMIT 2) last_two) l`,
      [projectIds],
    );
  }

  /**
   * Per completed audit, the check settings it was scored with and those of the project's completed audit before it
   * (`previous` null for the project's first; settings null: the catalog's).
   */
  settingsWithPrevious(
    db: NativeDb,
    auditIds: readonly string[],
  ): Promise<{ id: string; own: CheckOverride[] | null; previous: { overrides: CheckOverride[] | null } | null }[]> {
    return nativeQuery<{
      id: string;
      own: CheckOverride[] | null;
      previous: { overrides: CheckOverride[] | null } | null;
    }>(
      db,
      `SELECT a.id, a.score_breakdown->'overrides' AS own,
         (SELECT json_build_object('overrides', p.score_breakdown->'overrides') FROM audit p
          WHERE p.project_id = a.project_id AND p.status = 'COMPLETED'
            AND (p.completed_at, p.id) < (a.completed_at, a.id)
          ORDER BY p.completed_at DESC, p.id DESC LIMIT 1) AS previous
       FROM audit a WHERE a.id = ANY($1::uuid[]) AND a.status = 'COMPLETED'`,
      [auditIds],
    );
  }

  /** Per project, the id of its latest audit (of any status). */
  latestAuditIds(db: NativeDb, projectIds: readonly string[]): Promise<{ id: string; project_id: string }[]> {
    return nativeQuery<{ id: string; project_id: string }>(
      db,
      'SELECT DISTINCT ON (project_id) id, project_id FROM audit WHERE project_id = ANY($1::uuid[]) ' +
        'ORDER BY project_id, created_at DESC, id DESC',
      [projectIds],
    );
  }

  /** Per audit and severity, how many issues (severities without one are absent). */
  issueCountsBySeverity(
    db: NativeDb,
    auditIds: readonly string[],
  ): Promise<{ audit_id: string; severity: string; n: number }[]> {
    return nativeQuery<{ audit_id: string; severity: string; n: number }>(
      db,
      'SELECT audit_id, severity, count(*)::int AS n FROM audit_issue WHERE audit_id = ANY($1::uuid[]) ' +
        'GROUP BY audit_id, severity',
      [auditIds],
    );
  }

  /** How many audits have each status, over every organization (the deployment's `/metrics`). */
  countByStatus(db: NativeDb): Promise<{ status: string; n: number }[]> {
    return nativeQuery<{ status: string; n: number }>(
      db,
      'SELECT status, count(*)::int AS n FROM audit GROUP BY status',
    );
  }

  /** Why each audit scored what it did; null for audits not completed, or scored before breakdowns were kept. */
  scoreBreakdowns(
    db: NativeDb,
    auditIds: readonly string[],
  ): Promise<{ id: string; score_breakdown: ScoreBreakdown | null }[]> {
    return nativeQuery<{ id: string; score_breakdown: ScoreBreakdown | null }>(
      db,
      'SELECT id, score_breakdown FROM audit WHERE id = ANY($1::uuid[])',
      [auditIds],
    );
  }
}

/** Audits by status, over every organization (the API's `/metrics`; the repository holds no state). */
export const countAuditsByStatus = (db: NativeDb): Promise<{ status: string; n: number }[]> =>
  new AuditDashboardRepository().countByStatus(db);
