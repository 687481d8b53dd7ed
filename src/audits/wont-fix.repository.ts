import { nativeTransaction, queryOn, type NativeDb, type NativeTx } from '../platform/db/native-query.js';
import type { AuditScores, ScoreBreakdown, StoredScores } from '../seo/scoring/index.js';

type Db = NativeDb | NativeTx;

/** One stored marking (table wont_fix, migration 20261127-0020). */
export interface WontFixRow {
  id: string;
  projectId: string;
  code: string;
  url: string;
  reason: string;
  markedBy: string | null;
  markedByName: string;
  markedAt: Date;
}

/** What a URL was like when it was marked: its page's content hash and its occurrences' evidence, in one order. */
export interface Fingerprint {
  contentHash: string | null;
  evidence: unknown;
}

/** A project's marking as one audit has it: how many occurrences of its code and URL, and whether it applies. */
export interface MarkingInAudit {
  id: string;
  code: string;
  url: string;
  occurrences: number;
  applies: boolean;
}

/** An audit's stored scores and breakdown, what rescoring starts from. */
export interface ScoredAuditRow {
  id: string;
  projectId: string;
  scores: StoredScores;
  breakdown: ScoreBreakdown | null;
}

const COLUMNS =
  'w.id, w.project_id AS "projectId", w.code, w.url, w.reason, w.marked_by AS "markedBy", ' +
  'w.marked_by_name AS "markedByName", w.marked_at AS "markedAt"';

/**
 * The fingerprint of (code, URL) in the audit `a`: the page's content hash (null when the URL is no crawled page)
 * and every occurrence's evidence as a JSON array in the order of its text (so that it compares across audits).
 */
const FINGERPRINT = `
  CROSS JOIN LATERAL (SELECT count(*)::int AS n, jsonb_agg(o.evidence ORDER BY o.evidence::text) AS evidence
    FROM issue_occurrence o WHERE o.audit_id = a.id AND o.code = w.code AND o.url = w.url) occ
  LEFT JOIN audit_page p ON p.audit_id = a.id AND p.url = w.url`;

/** The SQL of "won't fix" markings and of rescoring an audit with them. */
export class WontFixRepository {
  /** Whether the project exists in the organization (another organization's project is treated as missing). */
  async projectInOrganization(db: Db, organizationId: string, projectId: string): Promise<boolean> {
    const rows = await queryOn<{ id: string }>(db, 'SELECT id FROM project WHERE id = $1 AND organization_id = $2', [
      projectId,
      organizationId,
    ]);
    return rows.length > 0;
  }

  /** Whether the audit is a completed audit of the project (another project's or organization's is missing). */
  async completedAuditInProject(db: Db, projectId: string, auditId: string): Promise<boolean> {
    const rows = await queryOn<{ id: string }>(
      db,
      `SELECT id FROM audit WHERE id = $1 AND project_id = $2 AND status = 'COMPLETED'`,
      [auditId, projectId],
    );
    return rows.length > 0;
  }

  /** The fingerprint of (code, URL) in a completed audit of the project; null when the audit has no such occurrence. */
  async fingerprint(
    db: Db,
    projectId: string,
    auditId: string,
    code: string,
    url: string,
  ): Promise<Fingerprint | null> {
    const rows = await queryOn<Fingerprint & { n: number }>(
      db,
      `SELECT occ.n, occ.evidence, p.content_hash AS "contentHash"
       FROM audit a CROSS JOIN (SELECT $3::text AS code, $4::text AS url) w ${FINGERPRINT}
       WHERE a.id = $1 AND a.project_id = $2 AND a.status IN ('COMPLETED')`,
      [auditId, projectId, code, url],
    );
    const row = rows[0];
    return row && row.n > 0 ? { contentHash: row.contentHash, evidence: row.evidence } : null;
  }

  /** Marks (code, URL) of the project, or replaces its reason, author and fingerprint; the project must exist. */
  async upsert(db: Db, row: Omit<WontFixRow, 'markedAt' | 'markedByName'> & Fingerprint): Promise<WontFixRow | null> {
    const rows = await queryOn<WontFixRow>(
      db,
      `WITH w AS (
         INSERT INTO wont_fix (id, project_id, code, url, reason, content_hash, evidence, marked_by, marked_by_name)
         SELECT $1, pr.id, $3, $4, $5, $6, $7::jsonb, u.id, coalesce(u.name, 'API key')
         FROM project pr LEFT JOIN "user" u ON u.id = $8 WHERE pr.id = $2
         ON CONFLICT (project_id, code, url) DO UPDATE SET reason = EXCLUDED.reason,
           content_hash = EXCLUDED.content_hash, evidence = EXCLUDED.evidence, marked_by = EXCLUDED.marked_by,
           marked_by_name = EXCLUDED.marked_by_name, marked_at = now()
         RETURNING *)
       SELECT ${COLUMNS} FROM w`,
      [
        row.id,
        row.projectId,
        row.code,
        row.url,
        row.reason,
        row.contentHash,
        JSON.stringify(row.evidence ?? null),
        row.markedBy,
      ],
    );
    return rows[0] ?? null;
  }

  /** Removes one marking of the project; the removed row, or null when the project has none with that id. */
  async remove(db: Db, projectId: string, id: string): Promise<WontFixRow | null> {
    const rows = await queryOn<WontFixRow>(
      db,
      `WITH w AS (DELETE FROM wont_fix WHERE id = $1 AND project_id = $2 RETURNING *) SELECT ${COLUMNS} FROM w`,
      [id, projectId],
    );
    return rows[0] ?? null;
  }

  /** Deletes markings by id (those that lapsed: their URL changed). */
  async removeMany(db: Db, ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    await queryOn(db, 'DELETE FROM wont_fix WHERE id = ANY($1::uuid[])', [ids]);
  }

  /** A project's markings, the latest first. */
  list(db: Db, projectId: string): Promise<WontFixRow[]> {
    return queryOn<WontFixRow>(
      db,
      `SELECT ${COLUMNS} FROM wont_fix w WHERE w.project_id = $1 ORDER BY w.marked_at DESC, w.id`,
      [projectId],
    );
  }

  /** The markings of the project with (code, URL) among `urls` of one code. */
  forUrls(db: Db, projectId: string, code: string, urls: readonly string[]): Promise<WontFixRow[]> {
    if (!urls.length) return Promise.resolve([]);
    return queryOn<WontFixRow>(
      db,
      `SELECT ${COLUMNS} FROM wont_fix w WHERE w.project_id = $1 AND w.code = $2 AND w.url = ANY($3::text[])`,
      [projectId, code, urls],
    );
  }

  /**
   * The audit's project's markings whose code and URL occur in the audit, each with its occurrences and whether it
   * applies (the URL's fingerprint in this audit is the one marked). One index probe per marking.
   */
  markingsIn(db: Db, auditId: string): Promise<MarkingInAudit[]> {
    return queryOn<MarkingInAudit>(
      db,
      `SELECT w.id, w.code, w.url, occ.n AS occurrences,
         (p.content_hash IS NOT DISTINCT FROM w.content_hash AND occ.evidence = w.evidence) AS applies
       FROM audit a JOIN wont_fix w ON w.project_id = a.project_id ${FINGERPRINT}
       WHERE a.id = $1 AND occ.n > 0`,
      [auditId],
    );
  }

  /**
   * The (code, URL) pairs the project's markings apply to in the audit, as its own score leaves them out: none when
   * its stored breakdown left none out (an audit scored before the markings, or with none applying).
   */
  async appliedMarkings(db: Db, auditId: string): Promise<{ codes: string[]; urls: string[] }> {
    const rows = await queryOn<{ code: string; url: string }>(
      db,
      `SELECT w.code, w.url
       FROM audit a JOIN wont_fix w ON w.project_id = a.project_id ${FINGERPRINT}
       WHERE a.id = $1 AND a.score_breakdown ? 'wontFix' AND occ.n > 0
         AND p.content_hash IS NOT DISTINCT FROM w.content_hash AND occ.evidence = w.evidence`,
      [auditId],
    );
    return { codes: rows.map((r) => r.code), urls: rows.map((r) => r.url) };
  }

  /**
   * Crawled HTML pages of the audit with an occurrence of one of `criticalCodes`, every such occurrence on a marked
   * (code, URL) of `marked`: pages that count as without a CRITICAL issue once the markings apply.
   */
  async pagesReleased(
    db: Db,
    auditId: string,
    criticalCodes: readonly string[],
    marked: readonly { code: string; url: string }[],
  ): Promise<number> {
    if (!criticalCodes.length || !marked.length) return 0;
    const rows = await queryOn<{ n: number }>(
      db,
      `WITH m AS (SELECT * FROM unnest($3::text[], $4::text[]) AS m(code, url))
       SELECT count(*)::int AS n FROM (
         SELECT o.url FROM issue_occurrence o
         JOIN audit_page p ON p.audit_id = o.audit_id AND p.url = o.url AND p.kind = 'HTML'
         WHERE o.audit_id = $1 AND o.code = ANY($2::text[]) AND o.url IN (SELECT url FROM m)
         GROUP BY o.url
         HAVING bool_and(EXISTS (SELECT 1 FROM m WHERE m.code = o.code AND m.url = o.url))) released`,
      [auditId, criticalCodes, marked.map((m) => m.code), marked.map((m) => m.url)],
    );
    return rows[0]?.n ?? 0;
  }

  /** The id of the project's latest completed audit. */
  async latestCompletedId(db: Db, projectId: string): Promise<string | null> {
    const rows = await queryOn<{ id: string }>(
      db,
      `SELECT id FROM audit WHERE project_id = $1 AND status IN ('COMPLETED')
       ORDER BY completed_at DESC, id DESC LIMIT 1`,
      [projectId],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * Runs `work` in a transaction holding the audit's row lock: two rescorings of one audit (two members marking at
   * once, or a marking and the audit's completion) run one after the other, each reading the markings committed
   * before it. Nothing runs when the audit is gone.
   */
  withAuditLocked<T>(db: NativeDb, auditId: string, work: (tx: NativeTx) => Promise<T>): Promise<T | null> {
    return nativeTransaction(db, async (tx) => {
      const rows = await tx.query<{ id: string }>('SELECT id FROM audit WHERE id = $1 FOR UPDATE', [auditId]);
      return rows.length ? work(tx) : null;
    });
  }

  /** A completed audit's scores and breakdown. */
  async auditScores(db: Db, auditId: string): Promise<ScoredAuditRow | null> {
    const rows = await queryOn<ScoredAuditRow & StoredScores>(
      db,
      `SELECT id, project_id AS "projectId", score_breakdown AS breakdown, overall_score AS overall,
         meta_score AS meta, content_score AS content, links_score AS links, technical_score AS technical,
         performance_score AS performance
       FROM audit WHERE id = $1 AND status IN ('COMPLETED')`,
      [auditId],
    );
    const row = rows[0];
    if (!row) return null;
    const { overall, meta, content, links, technical, performance } = row;
    return {
      id: row.id,
      projectId: row.projectId,
      breakdown: row.breakdown,
      scores: { overall, meta, content, links, technical, performance },
    };
  }

  /** The audit's scores and breakdown with the project's markings applied (status unchanged: COMPLETED). */
  async writeScores(db: Db, auditId: string, scores: AuditScores, breakdown: ScoreBreakdown): Promise<void> {
    await queryOn(
      db,
      `UPDATE audit SET overall_score = $2, meta_score = $3, content_score = $4, links_score = $5,
         technical_score = $6, performance_score = $7, score_breakdown = $8::jsonb
       WHERE id = $1 AND status IN ('COMPLETED')`,
      [
        auditId,
        scores.overall,
        scores.meta,
        scores.content,
        scores.links,
        scores.technical,
        scores.performance,
        JSON.stringify(breakdown),
      ],
    );
  }

  /** Per code, the occurrences of the audit that a marking applies to (the issue counts' "won't fix"). */
  countsByCode(db: Db, auditId: string): Promise<{ code: string; occurrences: number }[]> {
    return queryOn<{ code: string; occurrences: number }>(
      db,
      `SELECT w.code, sum(occ.n)::int AS occurrences
       FROM audit a JOIN wont_fix w ON w.project_id = a.project_id ${FINGERPRINT}
       WHERE a.id = $1 AND occ.n > 0
         AND p.content_hash IS NOT DISTINCT FROM w.content_hash AND occ.evidence = w.evidence
       GROUP BY w.code`,
      [auditId],
    );
  }
}
