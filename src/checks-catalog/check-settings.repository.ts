import { nativeQuery, type NativeDb } from '../platform/db/native-query.js';

/** One stored override: a row exists only where a project's setting differs from the catalog. */
export interface CheckSettingRow {
  code: string;
  enabled: boolean;
  severity: 'CRITICAL' | 'WARNING' | 'NOTICE' | null;
  updatedAt: Date;
}

const COLUMNS = 'code, enabled, severity, updated_at AS "updatedAt"';

/** The SQL of project_check_setting (migration 0019). */
export class CheckSettingsRepository {
  /** Whether the project exists in the organization (another organization's project is treated as missing). */
  async projectInOrganization(db: NativeDb, organizationId: string, projectId: string): Promise<boolean> {
    const rows = await nativeQuery<{ id: string }>(
      db,
      'SELECT id FROM project WHERE id = $1 AND organization_id = $2',
      [projectId, organizationId],
    );
    return rows.length > 0;
  }

  /** A project's overrides, by code. */
  list(db: NativeDb, projectId: string): Promise<CheckSettingRow[]> {
    return nativeQuery<CheckSettingRow>(
      db,
      `SELECT ${COLUMNS} FROM project_check_setting WHERE project_id = $1 ORDER BY code`,
      [projectId],
    );
  }

  /** Sets one code's override (insert or replace); the project must still exist (its row is locked for the write). */
  async upsert(
    db: NativeDb,
    projectId: string,
    code: string,
    enabled: boolean,
    severity: string | null,
  ): Promise<CheckSettingRow | null> {
    const rows = await nativeQuery<CheckSettingRow>(
      db,
      `INSERT INTO project_check_setting (project_id, code, enabled, severity, updated_at)
       SELECT id, $2, $3, $4, now() FROM project WHERE id = $1
       ON CONFLICT (project_id, code) DO UPDATE
         SET enabled = EXCLUDED.enabled, severity = EXCLUDED.severity, updated_at = EXCLUDED.updated_at
       RETURNING ${COLUMNS}`,
      [projectId, code, enabled, severity],
    );
    return rows[0] ?? null;
  }

  /** Removes one code's override (back to the catalog's); true when there was one. */
  async remove(db: NativeDb, projectId: string, code: string): Promise<boolean> {
    const rows = await nativeQuery<{ code: string }>(
      db,
      'DELETE FROM project_check_setting WHERE project_id = $1 AND code = $2 RETURNING code',
      [projectId, code],
    );
    return rows.length > 0;
  }
}
