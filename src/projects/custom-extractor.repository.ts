import { nativeQuery, nativeTransaction, type NativeDb } from '../platform/db/native-query.js';
import type { ExtractorKind, ExtractorMatch, ExtractorOutput } from '../seo/extraction/index.js';

/** One stored extractor (project_extractor, migration 20261127-0200). */
export interface CustomExtractorRow {
  id: string;
  projectId: string;
  key: string;
  name: string;
  kind: ExtractorKind;
  expression: string;
  output: ExtractorOutput;
  attribute: string | null;
  match: ExtractorMatch;
  regex: boolean;
  ignoreCase: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type CustomExtractorValues = Omit<CustomExtractorRow, 'id' | 'projectId' | 'key' | 'createdAt' | 'updatedAt'>;

const COLUMNS = `id, project_id AS "projectId", key, name, kind, expression, output, attribute, match, regex,
  ignore_case AS "ignoreCase", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** PostgreSQL's unique_violation: a name or key another extractor of the project has. */
const isUniqueViolation = (err: unknown): boolean => (err as { code?: string }).code === '23505';

export class CustomExtractorRepository {
  /** Whether the project exists in the organization (another organization's project is treated as missing). */
  async projectInOrganization(db: NativeDb, organizationId: string, projectId: string): Promise<boolean> {
    const rows = await nativeQuery<{ id: string }>(
      db,
      'SELECT id FROM project WHERE id = $1 AND organization_id = $2',
      [projectId, organizationId],
    );
    return rows.length > 0;
  }

  /** A project's extractors, oldest first (the order of their columns). */
  list(db: NativeDb, projectId: string): Promise<CustomExtractorRow[]> {
    return nativeQuery<CustomExtractorRow>(
      db,
      `SELECT ${COLUMNS} FROM project_extractor WHERE project_id = $1 ORDER BY created_at, id`,
      [projectId],
    );
  }

  /** One extractor of the organization's project, or null. */
  async findOwned(db: NativeDb, organizationId: string, id: string): Promise<CustomExtractorRow | null> {
    const [row] = await nativeQuery<CustomExtractorRow>(
      db,
      `SELECT ${COLUMNS} FROM project_extractor
       WHERE id = $1 AND project_id IN (SELECT id FROM project WHERE organization_id = $2)`,
      [id, organizationId],
    );
    return row ?? null;
  }

  /**
   * Adds one under the project's row lock (the count of `max` holds against concurrent adds). 'limit' when the
   * project has `max` already, 'duplicate' when the name or key is taken, null when the project is gone.
   */
  async insert(
    db: NativeDb,
    id: string,
    projectId: string,
    key: string,
    values: CustomExtractorValues,
    max: number,
  ): Promise<CustomExtractorRow | 'limit' | 'duplicate' | null> {
    try {
      return await nativeTransaction(db, async (tx) => {
        const locked = await tx.query<{ n: number }>(
          `SELECT (SELECT count(*)::int FROM project_extractor WHERE project_id = p.id) AS n
           FROM project p WHERE p.id = $1 FOR UPDATE`,
          [projectId],
        );
        if (!locked.length) return null;
        if (locked[0].n >= max) return 'limit' as const;
        const [row] = await tx.query<CustomExtractorRow>(
          `INSERT INTO project_extractor (id, project_id, key, name, kind, expression, output, attribute, match, regex,
             ignore_case) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${COLUMNS}`,
          [
            id,
            projectId,
            key,
            values.name,
            values.kind,
            values.expression,
            values.output,
            values.attribute,
            values.match,
            values.regex,
            values.ignoreCase,
          ],
        );
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err)) return 'duplicate';
      throw err;
    }
  }

  async update(
    db: NativeDb,
    id: string,
    values: CustomExtractorValues,
  ): Promise<CustomExtractorRow | 'duplicate' | null> {
    try {
      const [row] = await nativeQuery<CustomExtractorRow>(
        db,
        `UPDATE project_extractor SET name = $2, kind = $3, expression = $4, output = $5, attribute = $6, match = $7,
           regex = $8, ignore_case = $9, updated_at = now()
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [
          id,
          values.name,
          values.kind,
          values.expression,
          values.output,
          values.attribute,
          values.match,
          values.regex,
          values.ignoreCase,
        ],
      );
      return row ?? null;
    } catch (err) {
      if (isUniqueViolation(err)) return 'duplicate';
      throw err;
    }
  }

  async remove(db: NativeDb, id: string): Promise<boolean> {
    const rows = await nativeQuery<{ id: string }>(db, 'DELETE FROM project_extractor WHERE id = $1 RETURNING id', [
      id,
    ]);
    return rows.length > 0;
  }

  /** The keys the project's extractors hold. */
  async keys(db: NativeDb, projectId: string): Promise<string[]> {
    const rows = await nativeQuery<{ key: string }>(db, 'SELECT key FROM project_extractor WHERE project_id = $1', [
      projectId,
    ]);
    return rows.map((r) => r.key);
  }
}
