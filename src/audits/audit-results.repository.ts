import { jsonParam } from '../platform/db/sql-params.js';
import { nativeQuery, nativeTransaction, type NativeDb, type NativeTx } from '../platform/db/native-query.js';
import type { AuditLinkRow, AuditPageRow, OccurrenceRecord, VitalsRecord } from './audit-engine.js';
import type { AuditAttempt } from './audit.repository.js';
import { STATUS_CLASS_OF_ROW } from './audit-pages.repository.js';
import { storedInlinksSql } from './inlinks.js';
import type { EvidenceKeyShape } from './evidence-shape.js';
import type { FixesShown } from '../seo/scoring/index.js';

/*
 * A running attempt's rows (the job runner's writes): its pages, links and occurrences in batches while it crawls,
 * its issues, page counts and snapshots with its completion, and the cleanup of an earlier attempt's rows.
 */

/** An issue of a completed audit, as the job runner hands it over (its id already drawn). */
export interface IssueRow {
  id: string;
  code: string;
  title: string;
  severity: string;
  category: string;
  description: string;
  affectedPages: number;
  applicablePages: number;
  /** Its evidence's shape over the audit's occurrences (the URL table's evidence columns). */
  evidenceShape: EvidenceKeyShape[];
  /** A fix-grouped check's fixes (how many, the widest with their reach); null for other checks. */
  fixes: FixesShown | null;
  /** Of affectedPages: URLs charged as another check's fix (a linked 4xx/5xx URL). */
  chargedElsewhere: number;
}

/** A technical snapshot row (one per measured URL and device), its verdicts already decided. */
export interface SnapshotRow extends VitalsRecord {
  id: string;
  https: boolean;
  hsts: boolean;
  httpVersion: string | null;
  compression: string | null;
  robotsTxt: string;
  sitemap: string;
}

/** What a completed run writes beside its scores, in the transaction of its COMPLETED transition. */
export interface AuditResults {
  auditId: string;
  projectId: string;
  issues: IssueRow[];
  snapshots: SnapshotRow[];
}

/**
 * Batch inserts write only while their attempt is current ($1 the audit, $3 the attempt). FOR SHARE makes a
 * concurrent claim (an UPDATE of the row) wait for this insert, so the new attempt's cleanup sees its rows.
 * A cancelled audit still takes its attempt's last batches: the pages crawled before the cancel are kept.
 */
const CURRENT_ATTEMPT = `EXISTS (SELECT 1 FROM audit WHERE id = $1 AND attempts = $3 AND status IN ('RUNNING',
  'CANCELLED') FOR SHARE)`;

export class AuditResultsRepository {
  /** The audit's status and attempt number (the running job watches them), or null when the row is gone. */
  async readStatus(db: NativeDb, auditId: string): Promise<{ status: string; attempts: number } | null> {
    const [row] = await nativeQuery<{ status: string; attempts: number }>(
      db,
      'SELECT status, attempts FROM audit WHERE id = $1',
      [auditId],
    );
    return row ?? null;
  }

  /** The audit's attempt number, or null when the row is gone. */
  async readAttempts(db: NativeDb, auditId: string): Promise<number | null> {
    const [row] = await nativeQuery<{ attempts: number }>(db, 'SELECT attempts FROM audit WHERE id = $1', [auditId]);
    return row ? row.attempts : null;
  }

  /**
   * The attempt's progress counters (no status or phase change: a later attempt's row is left alone). The external
   * link checks' N of M come after the last page only; a write without them keeps the figures already written.
   */
  async writeProgress(
    db: NativeDb,
    run: AuditAttempt,
    progress: { pagesCrawled: number; pagesQueued: number; externalLinks?: { checked: number; found: number } },
  ): Promise<void> {
    const external = progress.externalLinks;
    await nativeQuery(
      db,
      `UPDATE audit SET pages_crawled = $3, pages_queued = $4,
         external_links_checked = COALESCE($5::int, external_links_checked),
         external_links_found = COALESCE($6::int, external_links_found)
       WHERE id = $1 AND attempts = $2`,
      [
        run.auditId,
        run.attempt,
        progress.pagesCrawled,
        progress.pagesQueued,
        external ? external.checked : null,
        external ? external.found : null,
      ],
    );
  }

  /**
   * Attempt n is alive: its heartbeat, written only while the audit is RUNNING at that attempt, or COMPLETED and
   * still waiting for its external verdicts (a stale worker cannot vouch for a later attempt, nor keep a finished
   * audit "alive"). False when the guard matched no row.
   */
  async writeHeartbeat(db: NativeDb, run: AuditAttempt): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      `UPDATE audit SET heartbeat_at = now() WHERE id = $1 AND attempts = $2
         AND (status = 'RUNNING' OR (status = 'COMPLETED' AND NOT external_links_final)) RETURNING id`,
      [run.auditId, run.attempt],
    );
    return rows.length > 0;
  }

  /**
   * VACUUM (ANALYZE) of the tables an audit's results fill (not in a transaction: VACUUM cannot run in one).
   * SKIP_LOCKED: a table another vacuum holds is left to it, never waited for.
   */
  async vacuumResults(db: NativeDb): Promise<void> {
    await nativeQuery(db, 'VACUUM (ANALYZE, SKIP_LOCKED) issue_occurrence, audit_page');
  }

  /**
   * Fresh statistics of the tables the completion aggregates (a sample of ~30,000 rows each; allowed in a
   * transaction, but run before it so that no lock is held). The crawl just inserted the audit's rows; with statistics
   * that do not know them the planner expects one row per audit and joins the per-position inlink counts to the pages
   * in a nested loop: a 3,000-page audit's completion then ran for minutes instead of under a second.
   */
  async analyzeResults(db: NativeDb): Promise<void> {
    await nativeQuery(db, 'ANALYZE audit_link, audit_page, issue_occurrence');
  }

  /** A cancelled run's audit reports the pages it keeps (progress was last written up to a second before). */
  async settleCancelledCounts(db: NativeDb, run: AuditAttempt): Promise<void> {
    await nativeQuery(
      db,
      `UPDATE audit SET pages_crawled = (SELECT count(*) FROM audit_page WHERE audit_id = $1),
         pages_failed = (SELECT count(*) FROM audit_page WHERE audit_id = $1 AND error IS NOT NULL), pages_queued = 0
       WHERE id = $1 AND attempts = $2 AND status = 'CANCELLED'`,
      [run.auditId, run.attempt],
    );
  }

  /** The custom extractors this attempt evaluates (key, name, kind): the audit's URL table columns. */
  async recordExtractors(
    db: NativeDb,
    run: AuditAttempt,
    extractors: { key: string; name: string; kind: string }[],
  ): Promise<void> {
    const value = extractors.length ? extractors.map(({ key, name, kind }) => ({ key, name, kind })) : null;
    await nativeQuery(db, 'UPDATE audit SET extractors = $2::jsonb WHERE id = $1 AND attempts = $3', [
      run.auditId,
      value === null ? null : JSON.stringify(value),
      run.attempt,
    ]);
  }

  /** What an earlier attempt wrote (pages, occurrences, issues, snapshots), one table at a time. */
  async deleteResults(db: NativeDb, auditId: string): Promise<void> {
    for (const table of ['issue_occurrence', 'audit_issue', 'audit_link', 'audit_page', 'technical_snapshot']) {
      await nativeQuery(db, `DELETE FROM ${table} WHERE audit_id = $1`, [auditId]);
    }
  }

  // Batches go straight to node-postgres with server-side parameters: the ORM connection would inline the
  // JSON document into the SQL text, escaping it character by character.
  async insertPages(db: NativeDb, run: AuditAttempt, rows: AuditPageRow[]): Promise<void> {
    if (!rows.length) return;
    await nativeQuery(
      db,
      `INSERT INTO audit_page (audit_id, url, final_url, status_code, kind, depth, title, meta_description,
        canonical, indexable,
         word_count, response_time_ms, bytes, content_hash, outlinks, error, details, rendering, extraction)
       SELECT $1, r."url", r."finalUrl", r."statusCode", r."kind", r."depth", r."title", r."metaDescription",
        r."canonical", r."indexable",
         r."wordCount", r."responseTimeMs", r."bytes", r."contentHash", r."outlinks", r."error", r."details",
         r."rendering", r."extraction"
       FROM jsonb_to_recordset($2::jsonb) AS r("url" text, "finalUrl" text, "statusCode" int, "kind" text,
         "depth" int, "title" text, "metaDescription" text, "canonical" text, "indexable" bool, "wordCount" int,
         "responseTimeMs" int, "bytes" int, "contentHash" text, "outlinks" int, "error" text, "details" jsonb,
         "rendering" jsonb, "extraction" jsonb)
       WHERE ${CURRENT_ATTEMPT}
       ON CONFLICT (audit_id, url) DO NOTHING`,
      [run.auditId, jsonParam(rows), run.attempt],
    );
  }

  /** The link graph, column arrays unnested: a batch of 5,000 links is one statement with six array parameters. */
  async insertLinks(db: NativeDb, run: AuditAttempt, rows: AuditLinkRow[]): Promise<void> {
    if (!rows.length) return;
    await nativeQuery(
      db,
      `INSERT INTO audit_link (audit_id, source_url, target_url, anchor, rel, internal, position)
       SELECT $1, l.source, l.target, l.anchor, l.rel, l.internal, l.position
       FROM unnest($2::text[], $4::text[], $5::text[], $6::text[], $7::bool[], $8::text[])
         AS l(source, target, anchor, rel, internal, position)
       WHERE ${CURRENT_ATTEMPT}`,
      [
        run.auditId,
        rows.map((r) => r.sourceUrl),
        run.attempt,
        rows.map((r) => r.targetUrl),
        rows.map((r) => r.anchor),
        rows.map((r) => r.rel),
        rows.map((r) => r.internal),
        rows.map((r) => r.position),
      ],
    );
  }

  async insertOccurrences(db: NativeDb, run: AuditAttempt, rows: OccurrenceRecord[]): Promise<void> {
    if (!rows.length) return;
    await nativeQuery(
      db,
      `INSERT INTO issue_occurrence (audit_id, code, url, evidence)
       SELECT $1, r.code, r.url, r.evidence FROM jsonb_to_recordset($2::jsonb) AS r(code text, url text, evidence jsonb)
       WHERE ${CURRENT_ATTEMPT}`,
      [run.auditId, jsonParam(rows), run.attempt],
    );
  }

  /**
   * One transaction: `transition` first (the lifecycle's COMPLETED transition, which locks the audit row until
   * commit), then, only when it happened, the results and `after` (the project's "won't fix" markings). Returns
   * whether the transition happened.
   */
  saveCompleted(
    db: NativeDb,
    transition: (tx: NativeTx) => Promise<boolean>,
    results: AuditResults,
    after?: (tx: NativeTx) => Promise<unknown>,
  ): Promise<boolean> {
    return nativeTransaction(db, async (tx) => {
      const completed = await transition(tx);
      if (completed) await this.insertResults(tx, results);
      if (completed && after) await after(tx);
      return completed;
    });
  }

  /**
   * One transaction: `transition` first (the lifecycle's finalizeExternal, which locks the audit row until commit),
   * then, only when it happened, the occurrences the external verdicts found, the audit's issues as the folded-in
   * outcome has them (each issue row kept by its code, so an id read before stays the same issue; new ones added,
   * those gone removed), the pages' counts again, the segments' kept facts and members dropped (written again when
   * read), and `after` (the "won't fix" markings). Returns whether the transition happened.
   */
  saveExternalFinal(
    db: NativeDb,
    transition: (tx: NativeTx) => Promise<boolean>,
    results: Pick<AuditResults, 'auditId' | 'issues'> & { occurrences: OccurrenceRecord[] },
    after?: (tx: NativeTx) => Promise<unknown>,
  ): Promise<boolean> {
    return nativeTransaction(db, async (tx) => {
      const done = await transition(tx);
      if (!done) return false;
      const { auditId, issues } = results;
      for (let i = 0; i < results.occurrences.length; i += 5_000)
        await tx.query(
          `INSERT INTO issue_occurrence (audit_id, code, url, evidence)
           SELECT $1, r.code, r.url, r.evidence
           FROM jsonb_to_recordset($2::jsonb) AS r(code text, url text, evidence jsonb)`,
          [auditId, jsonParam(results.occurrences.slice(i, i + 5_000))],
        );
      // What was kept of the audit's segments (their facts, their members) read issues that just changed.
      await tx.query('DELETE FROM audit_segment_facts WHERE audit_id = $1', [auditId]);
      await tx.query('DELETE FROM audit_segment_member WHERE audit_id = $1', [auditId]);
      await tx.query('DELETE FROM audit_segment_membership WHERE audit_id = $1', [auditId]);
      await tx.query(`DELETE FROM audit_issue WHERE audit_id = $1 AND NOT (code = ANY($2::text[]))`, [
        auditId,
        issues.map((i) => i.code),
      ]);
      await this.upsertIssues(tx, auditId, issues);
      await this.storePageCounts(tx, auditId);
      if (after) await after(tx);
      return true;
    });
  }

  /**
   * Each page's issue counts (its occurrences, all streamed before the completion: in all, by severity, distinct
   * checks), in one pass over the pages that have any, then its inlinks (src/audits/inlinks.ts: the one definition,
   * counted over the link graph, in all and by link position); part of the completion (insertResults). The pages
   * explorer, the URL table, the page view and the exports read a completed audit's stored counts.
   */
  async storePageCounts(tx: NativeTx, auditId: string): Promise<void> {
    await tx.query(
      `WITH c AS (SELECT o.url, count(*)::int AS n,
                    count(*) FILTER (WHERE i.severity = 'CRITICAL')::int AS critical,
                    count(*) FILTER (WHERE i.severity = 'WARNING')::int AS warning,
                    count(*) FILTER (WHERE i.severity = 'NOTICE')::int AS notice,
                    count(DISTINCT o.code)::int AS codes,
                    array_agg(DISTINCT o.code ORDER BY o.code) AS code_set
                  FROM issue_occurrence o LEFT JOIN audit_issue i ON i.audit_id = o.audit_id AND i.code = o.code
                  WHERE o.audit_id = $1 GROUP BY o.url)
       UPDATE audit_page p SET issue_count = c.n, critical_issues = c.critical, warning_issues = c.warning,
         notice_issues = c.notice, issue_codes = c.codes, issue_code_set = c.code_set
       FROM c WHERE p.audit_id = $1 AND p.url = c.url`,
      [auditId],
    );
    // The pages no check found anything on ("has issue X" reads the set once stored).
    await tx.query(`UPDATE audit_page SET issue_code_set = '{}' WHERE audit_id = $1 AND issue_code_set IS NULL`, [
      auditId,
    ]);
    // Each issue's occurrences: the total of its URL table.
    await tx.query(
      `UPDATE audit_issue i SET occurrences = (SELECT count(*) FROM issue_occurrence o
         WHERE o.audit_id = i.audit_id AND o.code = i.code) WHERE i.audit_id = $1`,
      [auditId],
    );
    // The pages' inlinks, in all and by position: the URL table's fields, the page view's count and total.
    await tx.query(storedInlinksSql(), [auditId]);
    await tx.query(
      `UPDATE audit SET page_facets = COALESCE((
         SELECT jsonb_agg(jsonb_build_array(f.status_class, f.kind, f.has_issues, f.pages))
         FROM (SELECT ${STATUS_CLASS_OF_ROW} AS status_class, p.kind, p.issue_count > 0 AS has_issues,
                      count(*)::int AS pages
               FROM audit_page p WHERE p.audit_id = $1 GROUP BY 1, 2, 3) f), '[]'::jsonb)
       WHERE id = $1`,
      [auditId],
    );
  }

  /**
   * The audit's URLs merged into its project's history (url_history: the first and last completed audit that
   * crawled each URL), part of the completion: the URL table's first_seen/last_seen read one row of it per URL.
   * Rows are taken in URL order, so two audits of a project completing together wait rather than deadlock.
   */
  async mergeUrlHistory(tx: NativeTx, auditId: string): Promise<void> {
    await tx.query(
      `INSERT INTO url_history (project_id, url, first_seen, last_seen)
       SELECT a.project_id, p.url, a.created_at, a.created_at FROM audit a JOIN audit_page p ON p.audit_id = a.id
       WHERE a.id = $1 ORDER BY p.url
       ON CONFLICT (project_id, url) DO UPDATE SET first_seen = least(url_history.first_seen, EXCLUDED.first_seen),
         last_seen = greatest(url_history.last_seen, EXCLUDED.last_seen)`,
      [auditId],
    );
  }

  /** The audit's issues, inserted, or updated where the audit already has its code (the id stays). */
  private async upsertIssues(tx: NativeTx, auditId: string, issues: AuditResults['issues']): Promise<void> {
    if (!issues.length) return;
    await tx.query(
      `INSERT INTO audit_issue (id, audit_id, code, title, severity, category, description,
        affected_pages, applicable_pages, evidence_shape, fixes, charged_elsewhere)
       SELECT r.id, $1::uuid, r.code, r.title, r.severity, r.category, r.description,
        r."affectedPages", r."applicablePages", r."evidenceShape", r.fixes, r."chargedElsewhere"
       FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, code text, title text, severity text,
        category text, description text,
         "affectedPages" int, "applicablePages" int, "evidenceShape" jsonb, fixes jsonb, "chargedElsewhere" int)
       ON CONFLICT (audit_id, code) DO UPDATE SET title = EXCLUDED.title, severity = EXCLUDED.severity,
         category = EXCLUDED.category, description = EXCLUDED.description, affected_pages = EXCLUDED.affected_pages,
         applicable_pages = EXCLUDED.applicable_pages, evidence_shape = EXCLUDED.evidence_shape,
         fixes = EXCLUDED.fixes, charged_elsewhere = EXCLUDED.charged_elsewhere`,
      [auditId, jsonParam(issues)],
    );
  }

  private async insertResults(tx: NativeTx, results: AuditResults): Promise<void> {
    const { auditId, projectId, issues } = results;
    await this.upsertIssues(tx, auditId, issues);
    await this.storePageCounts(tx, auditId);
    await this.mergeUrlHistory(tx, auditId);
    for (const v of results.snapshots) {
      await tx.query(
        `INSERT INTO technical_snapshot (id, project_id, audit_id, url, measured_at, device, source,
          lcp_ms, cls, inp_ms, tbt_ms, fcp_ms, ttfb_ms,
           performance_score, https, hsts, http_version, compression, robots_txt, sitemap)
         VALUES ($1, $2, $3, $4, now(), $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
        [
          v.id,
          projectId,
          auditId,
          v.url,
          v.device,
          v.source,
          v.lcpMs,
          v.cls,
          v.inpMs,
          v.tbtMs,
          v.fcpMs,
          v.ttfbMs,
          v.performanceScore,
          v.https,
          v.hsts,
          v.httpVersion,
          v.compression,
          v.robotsTxt,
          v.sitemap,
        ],
      );
    }
  }
}
