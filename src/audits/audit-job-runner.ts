import type { EntityManager } from '@mikro-orm/postgresql';
import type { MikroORM } from '../platform/db/orm.js';
import type { AppConfig } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import { newId } from '../platform/ids.js';
import { jsonParam } from '../platform/db/sql-params.js';
import { nativeQuery, nativeTransaction, type NativeDb, type NativeTx } from '../platform/db/native-query.js';
import type { SafeHttpClient } from '../platform/safe-http/index.js';
import type { PageFactsExtract } from '../crawler/index.js';
import { hstsVerdict, parseResponseHeaders } from '../seo/headers/index.js';
import { auditCrawlOptions } from './audit-crawl-options.js';
import { ProjectEntity } from '../projects/index.js';
import { AuditEntity } from './audit.entity.js';
import * as lifecycle from './audit-lifecycle.js';
import type { AuditAttempt } from './audit-lifecycle.js';
import { AuditFailedError, runAuditEngine, type AuditOutcome, type AuditPageRow, type AuditSink, type LabMeter, type OccurrenceRecord } from './audit-engine.js';

/** 'superseded': a later attempt claimed the audit while this one still ran (a stalled lock); it writes nothing more. */
export type AuditRunResult = 'completed' | 'skipped' | 'cancelled' | 'interrupted' | 'superseded';

export interface AuditRunContext {
  /** Reports progress to the queue (BullMQ job.updateProgress). */
  reportProgress?(progress: { pagesCrawled: number; pagesQueued: number }): Promise<void>;
  /** True when the process is shutting down: stop and release the job. */
  interrupted?(): boolean;
  /** Pages of this run written to the database (the pages-crawled metric). */
  pagesStored?(count: number): void;
}

const PROGRESS_EVERY_MS = 1_000;
/**
 * How often a running audit's row is read for a cancellation (or a later attempt): one primary-key read. With the
 * abort that follows, a cancelled crawl sends its last request well within a second of the cancel.
 */
export const CANCELLATION_CHECK_MS = 250;
/**
 * Batch inserts write only while their attempt is current ($1 the audit, $3 the attempt). FOR SHARE makes a
 * concurrent claim (an UPDATE of the row) wait for this insert, so the new attempt's cleanup sees its rows.
 * A cancelled audit still takes its attempt's last batches: the pages crawled before the cancel are kept.
 */
const CURRENT_ATTEMPT = `EXISTS (SELECT 1 FROM audit WHERE id = $1 AND attempts = $3 AND status IN ('RUNNING', 'CANCELLED') FOR SHARE)`;

/** Why a run stopped early, as the watcher found it. */
type StopReason = 'cancelled' | 'superseded' | 'interrupted';

/**
 * Runs one audit job against PostgreSQL. Idempotent: a retried or recovered job first removes what an
 * earlier attempt wrote, so an audit never holds duplicate pages or issues.
 */
export class AuditJobRunner {
  constructor(
    private readonly orm: MikroORM,
    private readonly client: SafeHttpClient,
    private readonly config: Pick<AppConfig, 'CRAWLER_USER_AGENT'>,
    private readonly logger: Logger,
    private readonly labMeter?: LabMeter,
    /** Page parsing, e.g. on the worker's thread pool; in this thread by default. */
    private readonly extract?: PageFactsExtract,
  ) {}

  async run(auditId: string, ctx: AuditRunContext = {}): Promise<AuditRunResult> {
    const em = this.orm.em.fork();
    const audit = await em.findOne(AuditEntity, { id: auditId });
    if (!audit || !['QUEUED', 'RUNNING'].includes(audit.status)) return 'skipped';
    const project = await em.findOne(ProjectEntity, { id: audit.projectId });
    if (!project) return 'skipped';

    // The attempt number fences this run: if the queue hands the job to another run while this one is still
    // alive (its lock expired), every later write of this run matches no row and its end is 'superseded'.
    const run = await lifecycle.claim(em, auditId);
    if (!run) return 'skipped';
    const attempt = run.attempt;
    await this.clearPartial(em, auditId);

    const watch = this.watch(em, auditId, attempt, ctx);
    try {
      let lastProgress = 0;
      const sink: AuditSink = {
        pages: async (rows) => {
          await this.insertPages(em, auditId, attempt, rows);
          ctx.pagesStored?.(rows.length);
        },
        occurrences: (rows) => this.insertOccurrences(em, auditId, attempt, rows),
        progress: async (p) => {
          const now = Date.now();
          if (now - lastProgress < PROGRESS_EVERY_MS) return;
          lastProgress = now;
          await nativeQuery(
            em,
            'UPDATE audit SET pages_crawled = $3, pages_queued = $4 WHERE id = $1 AND attempts = $2',
            [auditId, attempt, p.pagesCrawled, p.pagesQueued],
          );
          await ctx.reportProgress?.(p);
        },
        phase: async (phase) => {
          await lifecycle.enterPhase(em, run, phase);
        },
      };

      const settings = project.settings ?? {};
      let outcome: Awaited<ReturnType<typeof runAuditEngine>>;
      try {
        outcome = await runAuditEngine(
          this.client,
          { ...auditCrawlOptions({ startUrl: project.url, maxPages: audit.maxPages, settings, userAgent: this.config.CRAWLER_USER_AGENT }), signal: watch.signal },
          sink,
          this.labMeter,
          this.extract,
        );
      } catch (err) {
        if (!(err instanceof AuditFailedError)) throw err;
        // The site could not be audited: FAILED now (this attempt's own transition), and the caller is told so that
        // the queue does not retry a failure that would repeat.
        const pages = { pagesCrawled: err.pagesCrawled, pagesFailed: err.pagesFailed };
        if (await lifecycle.failAttempt(em, run, err.message, pages)) throw err;
        return this.lostTo(em, run);
      }
      if (outcome.stopped) {
        const reason = watch.reason() ?? 'cancelled';
        if (reason === 'cancelled') await this.settleCancelled(em, auditId, attempt);
        return reason;
      }
      const done = await this.complete(em, run, project.id, outcome);
      if (done) return 'completed';
      return this.lostTo(em, run);
    } finally {
      watch.stop();
    }
  }

  /**
   * Watches the audit row while the run lasts, every CANCELLATION_CHECK_MS, and aborts the returned signal when the
   * audit was cancelled (or its project deleted), when a later attempt claimed it, or when the process shuts down.
   */
  private watch(em: EntityManager, auditId: string, attempt: number, ctx: AuditRunContext): { signal: AbortSignal; reason(): StopReason | null; stop(): void } {
    const controller = new AbortController();
    let reason: StopReason | null = null;
    let checking = false;
    const stopWith = (why: StopReason) => {
      if (reason) return;
      reason = why;
      controller.abort(why);
    };
    const check = async () => {
      if (reason || checking) return;
      if (ctx.interrupted?.()) return stopWith('interrupted');
      checking = true;
      try {
        const [row] = await nativeQuery<{ status: string; attempts: number }>(em, 'SELECT status, attempts FROM audit WHERE id = $1', [auditId]);
        if (!row) stopWith('cancelled');
        else if (row.attempts !== attempt) stopWith('superseded');
        else if (row.status !== 'RUNNING') stopWith('cancelled');
      } catch (err) {
        // A failed read decides nothing: the next tick reads again.
        this.logger.warn({ err, auditId }, 'cancellation check failed');
      } finally {
        checking = false;
      }
    };
    const timer = setInterval(() => void check(), CANCELLATION_CHECK_MS);
    return {
      signal: controller.signal,
      reason: () => reason,
      stop: () => clearInterval(timer),
    };
  }

  /** This run's final transition did not happen: a later attempt claimed the audit, or it was cancelled. */
  private async lostTo(em: EntityManager, run: AuditAttempt): Promise<'superseded' | 'cancelled'> {
    const [row] = await nativeQuery<{ attempts: number }>(em, 'SELECT attempts FROM audit WHERE id = $1', [
      run.auditId,
    ]);
    if (row && row.attempts !== run.attempt) return 'superseded';
    await this.settleCancelled(em, run.auditId, run.attempt);
    return 'cancelled';
  }

  /** A cancelled run's audit reports the pages it keeps (progress was last written up to a second before). */
  private async settleCancelled(em: EntityManager, auditId: string, attempt: number): Promise<void> {
    await nativeQuery(
      em,
      `UPDATE audit SET pages_crawled = (SELECT count(*) FROM audit_page WHERE audit_id = $1),
         pages_failed = (SELECT count(*) FROM audit_page WHERE audit_id = $1 AND error IS NOT NULL), pages_queued = 0
       WHERE id = $1 AND attempts = $2 AND status = 'CANCELLED'`,
      [auditId, attempt],
    );
  }

  /** A final failure the queue reports (an attempt that threw, the last retry spent): true when it failed the audit. */
  markFailed(auditId: string, message: string): Promise<boolean> {
    return lifecycle.fail(this.orm.em, auditId, message);
  }

  /** A retryable failure or a released job: back in the queue's hands (true when the audit was running). */
  markQueued(auditId: string, note: string | null): Promise<boolean> {
    return lifecycle.requeue(this.orm.em, auditId, note);
  }

  private async clearPartial(em: EntityManager, auditId: string): Promise<void> {
    for (const table of ['issue_occurrence', 'audit_issue', 'audit_page', 'technical_snapshot']) {
      await nativeQuery(em, `DELETE FROM ${table} WHERE audit_id = $1`, [auditId]);
    }
  }

  // Batches go straight to node-postgres with server-side parameters: the ORM connection would inline the
  // JSON document into the SQL text, escaping it character by character.
  private async insertPages(em: EntityManager, auditId: string, attempt: number, rows: AuditPageRow[]): Promise<void> {
    if (!rows.length) return;
    await nativeQuery(
      em,
      `INSERT INTO audit_page (audit_id, url, final_url, status_code, depth, title, meta_description, canonical, indexable,
         word_count, response_time_ms, bytes, content_hash, outlinks, error)
       SELECT $1, r."url", r."finalUrl", r."statusCode", r."depth", r."title", r."metaDescription", r."canonical", r."indexable",
         r."wordCount", r."responseTimeMs", r."bytes", r."contentHash", r."outlinks", r."error"
       FROM jsonb_to_recordset($2::jsonb) AS r("url" text, "finalUrl" text, "statusCode" int, "depth" int, "title" text,
         "metaDescription" text, "canonical" text, "indexable" bool, "wordCount" int, "responseTimeMs" int, "bytes" int,
         "contentHash" text, "outlinks" int, "error" text)
       WHERE ${CURRENT_ATTEMPT}
       ON CONFLICT (audit_id, url) DO NOTHING`,
      [auditId, jsonParam(rows), attempt],
    );
  }

  private async insertOccurrences(em: EntityManager, auditId: string, attempt: number, rows: OccurrenceRecord[]): Promise<void> {
    if (!rows.length) return;
    await nativeQuery(
      em,
      `INSERT INTO issue_occurrence (audit_id, code, url, evidence)
       SELECT $1, r.code, r.url, r.evidence FROM jsonb_to_recordset($2::jsonb) AS r(code text, url text, evidence jsonb)
       WHERE ${CURRENT_ATTEMPT}`,
      [auditId, jsonParam(rows), attempt],
    );
  }

  /**
   * Issues, inlinks, technical snapshot and scores land together, after the audit row's transition (locked until
   * commit). A cancelled or superseded run stops there: its final results are not written, and the pages and
   * occurrences it streamed before stay with the cancelled audit.
   */
  private complete(em: NativeDb, run: AuditAttempt, projectId: string, outcome: AuditOutcome): Promise<boolean> {
    return nativeTransaction(em, async (tx) => {
      const { scores, pagesCrawled, pagesFailed } = outcome;
      const completed = await lifecycle.complete(tx, run, { scores, pagesCrawled, pagesFailed });
      if (completed) await this.writeResults(tx, run.auditId, projectId, outcome);
      return completed;
    });
  }

  private async writeResults(tx: NativeTx, auditId: string, projectId: string, outcome: AuditOutcome): Promise<void> {
    const issues = outcome.issues;
    if (issues.length) {
      await tx.query(
        `INSERT INTO audit_issue (id, audit_id, code, title, severity, category, description, affected_pages, applicable_pages)
         SELECT r.id, $1::uuid, r.code, r.title, r.severity, r.category, r.description, r."affectedPages", r."applicablePages"
         FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, code text, title text, severity text, category text, description text,
           "affectedPages" int, "applicablePages" int)`,
        [
          auditId,
          jsonParam(
            issues.map((i) => ({
              id: newId(),
              code: i.code,
              title: i.title,
              severity: i.severity,
              category: i.category,
              description: i.description,
              affectedPages: i.affectedPages,
              applicablePages: i.applicablePages,
            })),
          ),
        ],
      );
    }
    if (outcome.inlinks.size) {
      await tx.query(
        `UPDATE audit_page p SET inlinks = u.n::int FROM jsonb_each_text($1::jsonb) AS u(url, n)
         WHERE p.audit_id = $2 AND p.url = u.url AND u.n::int > 0`,
        [jsonParam(Object.fromEntries(outcome.inlinks)), auditId],
      );
    }
    const site = outcome.site;
    const robotsTxt = site.robots.status === null ? 'unreachable' : `${site.robots.status}`;
    const sitemap = site.sitemap.analysis ? (site.sitemap.analysis.valid ? 'valid' : 'invalid') : 'missing';
    for (const v of outcome.vitals) {
      await tx.query(
        `INSERT INTO technical_snapshot (id, project_id, audit_id, url, measured_at, device, source, lcp_ms, cls, inp_ms, tbt_ms, fcp_ms, ttfb_ms,
           performance_score, https, hsts, http_version, compression, robots_txt, sitemap)
         VALUES ($1, $2, $3, $4, now(), $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
        [
          newId(),
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
          site.https,
          // The snapshot's "HSTS on" is the site check's verdict: an invalid or max-age=0 header does not count.
          hstsOn(site.https, site.hstsHeader),
          site.httpVersion,
          site.compression,
          robotsTxt,
          sitemap,
        ],
      );
    }
  }
}

/** The technical snapshot's "HSTS on": the site check's verdict (an invalid or max-age=0 header does not count). */
function hstsOn(https: boolean, header: string | null): boolean {
  const verdict = hstsVerdict(parseResponseHeaders({ 'strict-transport-security': header ?? undefined }), https);
  return verdict.applies && verdict.enabled;
}
