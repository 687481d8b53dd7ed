import { nativeQuery, queryOn, type NativeDb, type NativeTx } from '../platform/db/native-query.js';
import type { StoredSerpResult } from '../keywords/index.js';
import type { CategoryScores, KeywordMoveFact } from './alert-facts.js';
import type { VitalsRow } from './alert-vitals.js';

export interface AlertProject {
  id: string;
  organizationId: string;
  name: string;
  url: string;
  domain: string;
}

/** An audit as alerts read it: its project, state and scores. */
export interface AuditScoresRow {
  id: string;
  projectId: string;
  status: string;
  /** False while a COMPLETED audit's external verdicts are still to fold in: no alerts until they do. */
  externalLinksFinal: boolean;
  completedAt: Date | null;
  scores: CategoryScores;
}

const SCORE_COLUMNS = `json_build_object('overall', a.overall_score, 'meta', a.meta_score, 'content', a.content_score,
  'links', a.links_score, 'technical', a.technical_score, 'performance', a.performance_score) AS scores`;

/** One keyword's latest successful check and the one before it. */
export interface KeywordMoveRow extends KeywordMoveFact {
  checkedAt: Date;
}

/** A keyword's position at the start and at the end of a window (null: not ranking, or never checked then). */
export interface KeywordMoverRow {
  keywordId: string;
  keyword: string;
  before: number | null;
  after: number | null;
  checkedBefore: boolean;
  checkedAfter: boolean;
}

/** A keyword's latest SERP snapshot and the one before it (results: those that may be the site's). */
export interface KeywordSnapshotPairRow {
  keywordId: string;
  keyword: string;
  checkedAt: Date;
  latest: StoredSerpResult[];
  /** null: no snapshot before the latest. */
  previous: StoredSerpResult[] | null;
}

/** The results of a snapshot whose URL or host contains $3 (a cheap filter; the exact rule is the caller's). */
const SITE_CANDIDATES = (alias: string) => `COALESCE((SELECT jsonb_agg(e) FROM jsonb_array_elements(${alias}.results) e
  WHERE jsonb_typeof(e) = 'object' AND (strpos(lower(e->>'url'), $3) > 0 OR strpos(lower(e->>'domain'), $3) > 0)),
  '[]'::jsonb)`;

/** What alerts read of other modules' tables: projects, audit scores, technical snapshots and rankings. */
export class AlertFactsRepository {
  async project(db: NativeDb | NativeTx, projectId: string): Promise<AlertProject | undefined> {
    const [row] = await queryOn<AlertProject>(
      db,
      'SELECT id, organization_id AS "organizationId", name, url, domain FROM project WHERE id = $1',
      [projectId],
    );
    return row;
  }

  /** The segments the project's enabled SCORE_DROP and NEW_ISSUES rules watch. */
  async watchedSegments(db: NativeDb, projectId: string): Promise<string[]> {
    const rows = await nativeQuery<{ id: string }>(
      db,
      `SELECT DISTINCT segment_id AS id FROM alert_rule WHERE project_id = $1 AND enabled AND segment_id IS NOT NULL
         AND kind IN ('SCORE_DROP', 'NEW_ISSUES')`,
      [projectId],
    );
    return rows.map((r) => r.id);
  }

  async auditScores(db: NativeDb, auditId: string): Promise<AuditScoresRow | undefined> {
    const [row] = await nativeQuery<AuditScoresRow>(
      db,
      `SELECT a.id, a.project_id AS "projectId", a.status, a.external_links_final AS "externalLinksFinal",
         a.completed_at AS "completedAt", ${SCORE_COLUMNS}
       FROM audit a WHERE a.id = $1`,
      [auditId],
    );
    return row;
  }

  /** The completed audit of the project before this one (by completion time), or undefined. */
  async previousCompletedAudit(db: NativeDb, audit: AuditScoresRow): Promise<AuditScoresRow | undefined> {
    const [row] = await nativeQuery<AuditScoresRow>(
      db,
      `SELECT a.id, a.project_id AS "projectId", a.status, a.external_links_final AS "externalLinksFinal",
         a.completed_at AS "completedAt", ${SCORE_COLUMNS}
       FROM audit a WHERE a.project_id = $1 AND a.status = 'COMPLETED' AND a.external_links_final
         AND a.id <> $2
         AND (a.completed_at, a.id) < ($3::timestamptz, $2::uuid)
       ORDER BY a.completed_at DESC, a.id DESC LIMIT 1`,
      [audit.projectId, audit.id, audit.completedAt ?? new Date()],
    );
    return row;
  }

  /** Completed audits of the project that completed in [from, until), oldest first. */
  completedAuditsBetween(db: NativeDb, projectId: string, from: Date, until: Date): Promise<AuditScoresRow[]> {
    return nativeQuery<AuditScoresRow>(
      db,
      `SELECT a.id, a.project_id AS "projectId", a.status, a.external_links_final AS "externalLinksFinal",
         a.completed_at AS "completedAt", ${SCORE_COLUMNS}
       FROM audit a WHERE a.project_id = $1 AND a.status = 'COMPLETED' AND a.external_links_final
         AND a.completed_at >= $2
         AND a.completed_at < $3 ORDER BY a.completed_at, a.id`,
      [projectId, from, until],
    );
  }

  /** The latest completed audit of the project that completed before `at`. */
  async lastCompletedBefore(db: NativeDb, projectId: string, at: Date): Promise<AuditScoresRow | undefined> {
    const [row] = await nativeQuery<AuditScoresRow>(
      db,
      `SELECT a.id, a.project_id AS "projectId", a.status, a.external_links_final AS "externalLinksFinal",
         a.completed_at AS "completedAt", ${SCORE_COLUMNS}
       FROM audit a WHERE a.project_id = $1 AND a.status = 'COMPLETED' AND a.external_links_final
         AND a.completed_at < $2
       ORDER BY a.completed_at DESC, a.id DESC LIMIT 1`,
      [projectId, at],
    );
    return row;
  }

  /** The Core Web Vitals an audit measured (lab or field), per URL and device. */
  auditVitals(db: NativeDb, auditId: string): Promise<VitalsRow[]> {
    return nativeQuery<VitalsRow>(
      db,
      `SELECT url, device, lcp_ms AS "LCP", cls AS "CLS", inp_ms AS "INP", tbt_ms AS "TBT", fcp_ms AS "FCP",
         ttfb_ms AS "TTFB" FROM technical_snapshot WHERE audit_id = $1 AND source IN ('LAB', 'FIELD')
       ORDER BY url, device, measured_at`,
      [auditId],
    );
  }

  /**
   * Keywords of the project whose latest successful check is later than `since`, with the successful check before
   * it (none: `before` null). A keyword checked once has no move.
   */
  rankMoves(db: NativeDb, projectId: string, since: Date): Promise<KeywordMoveRow[]> {
    return nativeQuery<KeywordMoveRow>(
      db,
      `SELECT k.id AS "keywordId", k.term AS keyword, prev.position AS before, last.position AS after, last.url,
         last.checked_at AS "checkedAt"
       FROM keyword k
       JOIN LATERAL (SELECT position, url, checked_at FROM ranking r WHERE r.keyword_id = k.id AND r.status = 'OK'
                     ORDER BY checked_at DESC, id DESC LIMIT 1) last ON true
       JOIN LATERAL (SELECT position FROM ranking r WHERE r.keyword_id = k.id AND r.status = 'OK'
                     ORDER BY checked_at DESC, id DESC OFFSET 1 LIMIT 1) prev ON true
       WHERE k.project_id = $1 AND last.checked_at > $2
       ORDER BY k.created_at, k.id`,
      [projectId, since],
    );
  }

  /** The project's domain and whether its subdomains count as the site (rank checks' rule). */
  async projectSite(
    db: NativeDb,
    projectId: string,
  ): Promise<{ domain: string; includeSubdomains: boolean } | undefined> {
    const [row] = await nativeQuery<{ domain: string; includeSubdomains: boolean }>(
      db,
      `SELECT domain, COALESCE((settings->>'rankIncludeSubdomains')::boolean, false) AS "includeSubdomains"
       FROM project WHERE id = $1`,
      [projectId],
    );
    return row;
  }

  /**
   * Keywords of the project whose latest SERP snapshot is later than `since`, with it and the snapshot before it,
   * each with only the results whose URL or host contains `needle`.
   */
  keywordSnapshotPairs(
    db: NativeDb,
    projectId: string,
    since: Date,
    needle: string,
  ): Promise<KeywordSnapshotPairRow[]> {
    return nativeQuery<KeywordSnapshotPairRow>(
      db,
      `SELECT k.id AS "keywordId", k.term AS keyword, last.checked_at AS "checkedAt",
         ${SITE_CANDIDATES('last')} AS latest,
         CASE WHEN prev.id IS NULL THEN NULL ELSE ${SITE_CANDIDATES('prev')} END AS previous
       FROM keyword k
       JOIN LATERAL (SELECT id, checked_at, results FROM serp_snapshot s WHERE s.keyword_id = k.id
                     ORDER BY checked_at DESC, id DESC LIMIT 1) last ON true
       LEFT JOIN LATERAL (SELECT id, results FROM serp_snapshot s WHERE s.keyword_id = k.id
                          ORDER BY checked_at DESC, id DESC OFFSET 1 LIMIT 1) prev ON true
       WHERE k.project_id = $1 AND last.checked_at > $2
       ORDER BY k.created_at, k.id`,
      [projectId, since, needle],
    );
  }

  /** Every keyword's latest successful position as of `from` and as of `until`. */
  keywordMovers(db: NativeDb, projectId: string, from: Date, until: Date): Promise<KeywordMoverRow[]> {
    return nativeQuery<KeywordMoverRow>(
      db,
      `SELECT k.id AS "keywordId", k.term AS keyword, a.position AS before, b.position AS after,
         a.checked_at IS NOT NULL AS "checkedBefore", b.checked_at IS NOT NULL AS "checkedAfter"
       FROM keyword k
       LEFT JOIN LATERAL (SELECT position, checked_at FROM ranking r WHERE r.keyword_id = k.id AND r.status = 'OK'
                          AND r.checked_at < $2 ORDER BY checked_at DESC, id DESC LIMIT 1) a ON true
       LEFT JOIN LATERAL (SELECT position, checked_at FROM ranking r WHERE r.keyword_id = k.id AND r.status = 'OK'
                          AND r.checked_at < $3 ORDER BY checked_at DESC, id DESC LIMIT 1) b ON true
       WHERE k.project_id = $1 ORDER BY k.created_at, k.id`,
      [projectId, from, until],
    );
  }

  async projectOfKeyword(db: NativeDb, keywordId: string): Promise<string | undefined> {
    const [row] = await nativeQuery<{ project_id: string }>(db, 'SELECT project_id FROM keyword WHERE id = $1', [
      keywordId,
    ]);
    return row?.project_id;
  }

  /** How far the project's rank checks were evaluated (null: never). */
  async rankWatermark(db: NativeDb, projectId: string): Promise<Date | null> {
    const [row] = await nativeQuery<{ at: Date }>(
      db,
      'SELECT evaluated_until AS at FROM alert_rank_watermark WHERE project_id = $1',
      [projectId],
    );
    return row?.at ?? null;
  }

  /** Moves the watermark forward (never back). */
  async advanceRankWatermark(db: NativeDb, projectId: string, until: Date): Promise<void> {
    await nativeQuery(
      db,
      `INSERT INTO alert_rank_watermark (project_id, evaluated_until) SELECT $1, $2 WHERE EXISTS
         (SELECT 1 FROM project WHERE id = $1)
       ON CONFLICT (project_id) DO UPDATE
         SET evaluated_until = GREATEST(alert_rank_watermark.evaluated_until, EXCLUDED.evaluated_until)`,
      [projectId, until],
    );
  }
}
