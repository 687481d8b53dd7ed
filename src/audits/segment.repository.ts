import { nativeQuery, type NativeDb } from '../platform/db/native-query.js';
import type { SegmentKind } from './segment-rule.js';
import type { SegmentFacts, UrlFilterInput } from './url-table.repository.js';

/** One stored segment (table segment, migration 20261127-0100). */
export interface SegmentRow {
  id: string;
  projectId: string;
  name: string;
  kind: SegmentKind;
  pattern: string | null;
  filter: UrlFilterInput | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SegmentWrite {
  name: string;
  kind: SegmentKind;
  pattern: string | null;
  filter: UrlFilterInput | null;
}

const COLUMNS =
  's.id, s.project_id AS "projectId", s.name, s.kind, s.pattern, s.filter, s.created_at AS "createdAt", ' +
  's.updated_at AS "updatedAt"';

/** Whether a PostgreSQL error is the unique name of a project's segments. */
export const isDuplicateName = (error: unknown): boolean =>
  (error as { code?: string; constraint?: string }).code === '23505';

/** Whether a PostgreSQL error is a row of another table still naming the segment (an alert rule watching it). */
export const isStillReferenced = (error: unknown): boolean => (error as { code?: string }).code === '23503';

/** The SQL of a project's segments. */
export class SegmentRepository {
  async projectInOrganization(db: NativeDb, organizationId: string, projectId: string): Promise<boolean> {
    const rows = await nativeQuery<{ id: string }>(
      db,
      'SELECT id FROM project WHERE id = $1 AND organization_id = $2',
      [projectId, organizationId],
    );
    return rows.length > 0;
  }

  /** The project's segments by name (case-insensitive order). */
  list(db: NativeDb, projectId: string): Promise<SegmentRow[]> {
    return nativeQuery<SegmentRow>(
      db,
      `SELECT ${COLUMNS} FROM segment s WHERE s.project_id = $1 ORDER BY lower(s.name), s.id`,
      [projectId],
    );
  }

  async find(db: NativeDb, projectId: string, id: string): Promise<SegmentRow | null> {
    const [row] = await nativeQuery<SegmentRow>(
      db,
      `SELECT ${COLUMNS} FROM segment s WHERE s.project_id = $1 AND s.id = $2`,
      [projectId, id],
    );
    return row ?? null;
  }

  /** Inserts a segment unless the project has `max` already (counted in the statement, under the project's lock). */
  async insert(
    db: NativeDb,
    projectId: string,
    id: string,
    write: SegmentWrite,
    max: number,
  ): Promise<SegmentRow | null> {
    const [row] = await nativeQuery<SegmentRow>(
      db,
      `WITH locked AS (SELECT id FROM project WHERE id = $2 FOR UPDATE),
       ins AS (INSERT INTO segment (id, project_id, name, kind, pattern, filter)
         SELECT $1, $2, $3, $4, $5, $6::jsonb FROM locked
         WHERE (SELECT count(*) FROM segment WHERE project_id = $2) < $7
         RETURNING *)
       SELECT ${COLUMNS} FROM ins s`,
      [id, projectId, write.name, write.kind, write.pattern, write.filter && JSON.stringify(write.filter), max],
    );
    return row ?? null;
  }

  async update(db: NativeDb, projectId: string, id: string, write: SegmentWrite): Promise<SegmentRow | null> {
    const [row] = await nativeQuery<SegmentRow>(
      db,
      `WITH upd AS (UPDATE segment SET name = $3, kind = $4, pattern = $5, filter = $6::jsonb, updated_at = now()
         WHERE project_id = $1 AND id = $2 RETURNING *)
       SELECT ${COLUMNS} FROM upd s`,
      [projectId, id, write.name, write.kind, write.pattern, write.filter && JSON.stringify(write.filter)],
    );
    return row ?? null;
  }

  async remove(db: NativeDb, projectId: string, id: string): Promise<SegmentRow | null> {
    const [row] = await nativeQuery<SegmentRow>(
      db,
      `WITH del AS (DELETE FROM segment WHERE project_id = $1 AND id = $2 RETURNING *) SELECT ${COLUMNS} FROM del s`,
      [projectId, id],
    );
    return row ?? null;
  }

  /**
   * The segment's facts kept for a completed audit under its rule and markings (`marksKey`; null: any, for what the
   * markings do not change, its URLs), or null.
   */
  async keptFacts(
    db: NativeDb,
    auditId: string,
    segmentId: string,
    key: { rule: string; marks: string | null },
  ): Promise<SegmentFacts | null> {
    const [row] = await nativeQuery<{ facts: SegmentFacts }>(
      db,
      `SELECT facts FROM audit_segment_facts WHERE audit_id = $1 AND segment_id = $2 AND rule_key = $3
         AND ($4::text IS NULL OR marks_key = $4) LIMIT 1`,
      [auditId, segmentId, key.rule, key.marks],
    );
    return row?.facts ?? null;
  }

  /**
   * Keeps the segment's facts in a completed audit under their markings, beside those kept under other markings (a
   * segment deleted meanwhile keeps none). Rows of the segment in the audit under another rule are dropped, and so
   * are rows under markings other than `key.marks` and `stillRead` when the caller knows which are still read (null:
   * it does not, keep them).
   */
  async keepFacts(
    db: NativeDb,
    auditId: string,
    segmentId: string,
    key: { rule: string; marks: string },
    facts: SegmentFacts,
    stillRead: readonly string[] | null,
  ): Promise<void> {
    await nativeQuery(
      db,
      `WITH stale AS (
         DELETE FROM audit_segment_facts WHERE audit_id = $1 AND segment_id = $2 AND marks_key <> $4
           AND (rule_key <> $3 OR ($6::text[] IS NOT NULL AND marks_key <> ALL ($6::text[]))))
       INSERT INTO audit_segment_facts (audit_id, segment_id, rule_key, marks_key, facts)
       SELECT $1, s.id, $3, $4, $5::jsonb FROM segment s WHERE s.id = $2
       ON CONFLICT (audit_id, segment_id, marks_key) DO UPDATE SET rule_key = EXCLUDED.rule_key,
         facts = EXCLUDED.facts, counted_at = now()`,
      [auditId, segmentId, key.rule, key.marks, JSON.stringify(facts), stillRead],
    );
  }
}
