import { nativeQuery, nativeTransaction, queryOn, type NativeDb, type NativeTx } from '../platform/db/native-query.js';
import type { AlertRule, AlertRuleKind } from './alert-rules.js';
import type { AlertRuleFields } from './alert-rule-input.js';

const RULE_COLUMNS = `r.id, r.project_id AS "projectId", r.kind, r.category, r.points, r.min_severity AS "minSeverity",
  r.positions, r.segment_id AS "segmentId", (SELECT s.name FROM segment s WHERE s.id = r.segment_id) AS "segmentName",
  r.enabled, r.channels, r.created_at AS "createdAt", r.updated_at AS "updatedAt"`;

/** The alert rules of projects: what raises an alert, and on which channels. */
export class AlertRuleRepository {
  listRules(db: NativeDb, projectId: string): Promise<AlertRule[]> {
    return nativeQuery<AlertRule>(
      db,
      `SELECT ${RULE_COLUMNS} FROM alert_rule r WHERE r.project_id = $1 ORDER BY r.created_at, r.id`,
      [projectId],
    );
  }

  /** The enabled rules of these kinds of a project. */
  activeRules(db: NativeDb | NativeTx, projectId: string, kinds: readonly AlertRuleKind[]): Promise<AlertRule[]> {
    return queryOn<AlertRule>(
      db,
      `SELECT ${RULE_COLUMNS} FROM alert_rule r WHERE r.project_id = $1 AND r.enabled AND r.kind = ANY($2::text[])
       ORDER BY r.created_at, r.id`,
      [projectId, kinds],
    );
  }

  /** A rule of a project of the organization (`ruleId` must be a UUID), or undefined. */
  async findRuleOwned(db: NativeDb, ruleId: string, organizationId: string): Promise<AlertRule | undefined> {
    const [rule] = await nativeQuery<AlertRule>(
      db,
      `SELECT ${RULE_COLUMNS} FROM alert_rule r JOIN project p ON p.id = r.project_id
       WHERE r.id = $1 AND p.organization_id = $2`,
      [ruleId, organizationId],
    );
    return rule;
  }

  /**
   * Inserts a rule under a lock on the project row, after `check` accepted the project's rule count (it throws to
   * refuse). Null when the project is gone.
   */
  insertRuleLocked(
    db: NativeDb,
    rule: { id: string; projectId: string } & AlertRuleFields,
    check: (count: number) => void,
  ): Promise<AlertRule | null> {
    return nativeTransaction(db, async (tx) => {
      const locked = await tx.query('SELECT 1 FROM project WHERE id = $1 FOR UPDATE', [rule.projectId]);
      if (!locked.length) return null;
      const [{ n }] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM alert_rule WHERE project_id = $1', [
        rule.projectId,
      ]);
      check(n);
      const [row] = await tx.query<AlertRule>(
        `INSERT INTO alert_rule AS r (id, project_id, kind, category, points, min_severity, positions, enabled,
           channels, segment_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${RULE_COLUMNS}`,
        [
          rule.id,
          rule.projectId,
          rule.kind,
          rule.category,
          rule.points,
          rule.minSeverity,
          rule.positions,
          rule.enabled,
          rule.channels,
          rule.segmentId,
        ],
      );
      return row;
    });
  }

  async updateRule(db: NativeDb, ruleId: string, f: AlertRuleFields): Promise<AlertRule | undefined> {
    const [row] = await nativeQuery<AlertRule>(
      db,
      `UPDATE alert_rule AS r SET kind = $2, category = $3, points = $4, min_severity = $5, positions = $6,
         enabled = $7, channels = $8, segment_id = $9, updated_at = now() WHERE r.id = $1 RETURNING ${RULE_COLUMNS}`,
      [ruleId, f.kind, f.category, f.points, f.minSeverity, f.positions, f.enabled, f.channels, f.segmentId],
    );
    return row;
  }

  /** Whether the segment is one of the project's (another project's or organization's is not). */
  async segmentOfProject(db: NativeDb, projectId: string, segmentId: string): Promise<boolean> {
    const rows = await nativeQuery<{ id: string }>(db, 'SELECT id FROM segment WHERE id = $1 AND project_id = $2', [
      segmentId,
      projectId,
    ]);
    return rows.length > 0;
  }

  async deleteRule(db: NativeDb, ruleId: string): Promise<void> {
    await nativeQuery(db, 'DELETE FROM alert_rule WHERE id = $1', [ruleId]);
  }
}
