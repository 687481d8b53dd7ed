import type { EntityManager } from '@mikro-orm/postgresql';
import type { MikroORM } from '../platform/db/orm.js';
import { rendererChromiumPath, type AppConfig } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import { newId } from '../platform/ids.js';
import type { NativeDb } from '../platform/db/native-query.js';
import type { SafeHttpClient } from '../platform/safe-http/index.js';
import {
  CrawlLoginFailure,
  extractInline,
  loadBrowserRendering,
  openCrawlSession,
  type CrawlOptions,
  type PageFactsExtract,
  type RendererLease,
  type RendererLeases,
} from '../crawler/index.js';
import { hstsVerdict, parseResponseHeaders } from '../seo/headers/index.js';
import { CheckOverrides } from '../seo/checks/index.js';
import { WontFixService } from './wont-fix.service.js';
import { CrawlLoginService, CustomExtractorService } from '../projects/index.js';
import { CheckSettingsService } from '../checks-catalog/index.js';
import { auditCrawlOptions } from './audit-crawl-options.js';
import * as lifecycle from './audit-lifecycle.js';
import type { AuditAttempt } from './audit-lifecycle.js';
import { AuditRepository } from './audit.repository.js';
import { AuditResultsRepository, type AuditResults } from './audit-results.repository.js';
import { projectExternalLinkCache } from './external-link-cache.js';
import {
  AuditFailedError,
  runAuditEngine,
  type AuditOutcome,
  type AuditSink,
  type LabMeter,
  type OccurrenceRecord,
} from './audit-engine.js';
import { EvidenceShapes } from './evidence-shape.js';
import { SegmentMembership } from './segment-membership.js';
import { SegmentRepository } from './segment.repository.js';
import { segmentFilterInput } from './segment-rule.js';
import { storedRuleCostProblem, validateFilter } from './url-table.service.js';

/**
 * 'superseded': a later attempt claimed the audit while this one still ran (a stalled lock); it writes nothing more.
 */
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
    private readonly config: Pick<
      AppConfig,
      'CRAWLER_USER_AGENT' | 'AUDIT_HEARTBEAT_MS' | 'CRAWL_SECRET_KEY' | 'authSecret'
    > &
      Partial<
        Pick<
          AppConfig,
          | 'CHROMIUM_PATH'
          | 'RENDER_CHROMIUM_PATH'
          | 'RENDER_PAGES'
          | 'RENDER_TIMEOUT_MS'
          | 'AUDIT_EXTERNAL_READABLE_AFTER_MS'
        >
      >,
    private readonly logger: Logger,
    private readonly labMeter?: LabMeter,
    /** Page parsing, e.g. on the worker's thread pool; in this thread by default. */
    private readonly extract?: PageFactsExtract,
    /** A running attempt's rows. */
    private readonly repo = new AuditResultsRepository(),
    private readonly audits = new AuditRepository(),
  ) {
    this.logins = new CrawlLoginService(config);
  }

  /** Opens a project's crawl login (sealed at rest) for its audits. */
  private readonly logins: CrawlLoginService;

  /** Browser rendering mode: one renderer for the process, alive while a run holds it (renderLease). */
  private renderers: RendererLeases | null = null;

  async run(auditId: string, ctx: AuditRunContext = {}): Promise<AuditRunResult> {
    const em = this.orm.em.fork();
    const audit = await this.audits.findById(em, auditId);
    if (!audit || !['QUEUED', 'RUNNING'].includes(audit.status)) return 'skipped';
    const project = await this.audits.findProject(em, audit.projectId);
    if (!project) return 'skipped';

    // The attempt number fences this run: if the queue hands the job to another run while this one is still
    // alive (its lock expired), every later write of this run matches no row and its end is 'superseded'.
    const run = await lifecycle.claim(em, auditId);
    if (!run) return 'skipped';
    const attempt = run.attempt;
    // What an earlier attempt wrote goes first: an audit never holds duplicate pages or issues.
    await this.repo.deleteResults(em, auditId);

    const watch = this.watch(em, auditId, attempt, ctx);
    const stopBeating = this.beat(em, run);
    // Each check's evidence shape, gathered as its occurrences stream out (stored with the issues).
    const shapes = new EvidenceShapes();
    // Once the audit completed readable, the occurrences its external verdicts find wait for the final transaction.
    let folded: OccurrenceRecord[] | null = null;
    try {
      let lastProgress = 0;
      const sink: AuditSink = {
        pages: async (rows) => {
          await this.repo.insertPages(em, run, rows);
          ctx.pagesStored?.(rows.length);
        },
        links: (rows) => this.repo.insertLinks(em, run, rows),
        occurrences: async (rows) => {
          for (const row of rows) shapes.add(row.code, row.evidence, row.url);
          if (folded) for (const row of rows) folded.push(row);
          else await this.repo.insertOccurrences(em, run, rows);
        },
        progress: async (p) => {
          const now = Date.now();
          // The external link checks' figures come once a second (and once when their wait ends): all are written.
          if (!p.externalLinks && now - lastProgress < PROGRESS_EVERY_MS) return;
          lastProgress = now;
          await this.repo.writeProgress(em, run, p);
          await ctx.reportProgress?.(p);
        },
        phase: async (phase) => {
          await lifecycle.enterPhase(em, run, phase);
        },
      };

      const settings = project.settings ?? {};
      // The project's check settings as they are now: applied by the engine and recorded in the score breakdown.
      const overrides = new CheckOverrides(await new CheckSettingsService().overridesFor(em, project.id));
      const crawlOptions = auditCrawlOptions({
        startUrl: project.url,
        maxPages: audit.maxPages,
        settings,
        userAgent: this.config.CRAWLER_USER_AGENT,
      });
      // The project's custom extractors as they are now, recorded on the audit (its URL table's columns) and
      // evaluated on every page; without any, pages are parsed as before.
      const extractors = await new CustomExtractorService().specsFor(em, project.id);
      await this.repo.recordExtractors(em, run, extractors);
      const specs = extractors.map(({ name: _name, ...spec }) => spec);
      const parse = this.extract ?? extractInline;
      const extract: PageFactsExtract | undefined = specs.length
        ? (body, context) => parse(body, { ...context, extraction: { specs } })
        : this.extract;
      // Browser rendering: the process's renderer, held for this run (its browser closes once no run holds it).
      const render = crawlOptions.rendering === 'browser' ? await this.renderLease() : null;
      let outcome: Awaited<ReturnType<typeof runAuditEngine>>;
      try {
        // A login crawl signs in first (a failed login fails the audit) and crawls with the project's credentials.
        const client = await this.crawlClient(em, project, crawlOptions, watch.signal);
        outcome = await runAuditEngine(
          client,
          {
            ...crawlOptions,
            signal: watch.signal,
            // Readable once the pages are done; external verdicts that take longer fold in when they arrive.
            externalReadableAfterMs: this.config.AUDIT_EXTERNAL_READABLE_AFTER_MS ?? 1_000,
            externalCache: projectExternalLinkCache(em, project.id, (err, what) =>
              this.logger.warn({ err, auditId }, what),
            ),
          },
          sink,
          this.labMeter,
          extract,
          overrides,
          render?.renderer,
        );
      } catch (err) {
        if (!(err instanceof AuditFailedError)) throw err;
        // The site could not be audited: FAILED now (this attempt's own transition), and the caller is told so that
        // the queue does not retry a failure that would repeat.
        const pages = { pagesCrawled: err.pagesCrawled, pagesFailed: err.pagesFailed };
        if (await lifecycle.failAttempt(em, run, err.message, pages)) throw err;
        return this.lostTo(em, run);
      } finally {
        await render?.release();
      }
      if (outcome.stopped) {
        const reason = watch.reason() ?? 'cancelled';
        if (reason === 'cancelled') await this.repo.settleCancelledCounts(em, run);
        return reason;
      }
      const done = await this.complete(em, run, project.id, outcome, shapes);
      if (!done) return this.lostTo(em, run);
      await this.settleResults(em, run.auditId);
      await this.keepSegmentMembers(em, run.auditId, project.id);
      if (outcome.foldExternal) {
        // Readable now; the external verdicts fold in when their checks end (the heartbeat goes on meanwhile).
        folded = [];
        const final = await this.finalOutcome(outcome.foldExternal, run.auditId);
        if (await this.finalize(em, run, project.id, final, folded, shapes))
          await this.keepSegmentMembers(em, run.auditId, project.id);
      }
      return 'completed';
    } finally {
      stopBeating();
      watch.stop();
    }
  }

  /**
   * The attempt's heartbeat in PostgreSQL, now and every AUDIT_HEARTBEAT_MS while the run lasts: the sweeper leaves
   * the audit alone while it is fresh, so a run whose job Redis lost (restarted empty) is not started again beside
   * it. Guarded on the attempt: once a later attempt claimed the audit, this run's beats match no row.
   */
  private beat(em: EntityManager, run: AuditAttempt): () => void {
    let writing = false;
    const beat = async () => {
      if (writing) return;
      writing = true;
      try {
        await this.repo.writeHeartbeat(em, run);
      } catch (err) {
        // A missed beat decides nothing: the sweeper allows a few before it counts the worker as gone.
        this.logger.warn({ err, auditId: run.auditId }, 'audit heartbeat not written');
      } finally {
        writing = false;
      }
    };
    void beat();
    const timer = setInterval(() => void beat(), this.config.AUDIT_HEARTBEAT_MS);
    return () => clearInterval(timer);
  }

  /**
   * Watches the audit row while the run lasts, every CANCELLATION_CHECK_MS, and aborts the returned signal when the
   * audit was cancelled (or its project deleted), when a later attempt claimed it, or when the process shuts down.
   */
  private watch(
    em: EntityManager,
    auditId: string,
    attempt: number,
    ctx: AuditRunContext,
  ): { signal: AbortSignal; reason(): StopReason | null; stop(): void } {
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
        const row = await this.repo.readStatus(em, auditId);
        if (!row) stopWith('cancelled');
        else if (row.attempts !== attempt) stopWith('superseded');
        // COMPLETED: this run's own completion, readable while its external verdicts are still to fold in.
        else if (row.status !== 'RUNNING' && row.status !== 'COMPLETED') stopWith('cancelled');
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

  /**
   * A hold on the process's page renderer (browser rendering mode), loaded on first use: html-mode audits never load
   * the browser code. Null without a Chromium (RENDER_CHROMIUM_PATH or CHROMIUM_PATH): the engine then fails the audit
   * with the reason.
   */
  private async renderLease(): Promise<RendererLease | null> {
    const chromiumPath = rendererChromiumPath(this.config);
    if (!chromiumPath) return null;
    const { createPageRenderer, createRendererLeases } = await loadBrowserRendering();
    this.renderers ??= createRendererLeases(() =>
      createPageRenderer({
        chromiumPath,
        client: this.client,
        pages: this.config.RENDER_PAGES,
        timeoutMs: this.config.RENDER_TIMEOUT_MS,
        onError: (err) => this.logger.warn({ err }, 'page renderer failed'),
      }),
    );
    return this.renderers.acquire();
  }

  /**
   * The crawl's HTTP client: the shared one, or for a project with a crawl login that client wrapped with the
   * project's credentials (sent to its own hosts only, and only inside the login's sealed binding:
   * src/crawler/crawl-login.ts), after a form login when it has one. The wrapper lives for this run only: nothing
   * else (competitors, tools) ever gets it.
   */
  private async crawlClient(
    em: EntityManager,
    project: { id: string; url: string; settings?: unknown },
    options: Omit<CrawlOptions, 'signal'>,
    signal: AbortSignal,
  ): Promise<SafeHttpClient> {
    try {
      // Suspended (the project grew past where the login was set for): the audit fails with the reason.
      const login = await this.logins.openForCrawl(em, project);
      if (!login) return this.client;
      const scope = { startUrl: options.startUrl, includeSubdomains: options.scope?.includeSubdomains === true };
      return await openCrawlSession(this.client, login, scope, { signal });
    } catch (err) {
      // Stopped while signing in: the crawl that follows sees the signal and sends nothing.
      if (signal.aborted) return this.client;
      if (err instanceof CrawlLoginFailure) throw new AuditFailedError(err.message, 0, 0);
      throw err;
    }
  }

  /** The outcome with the external verdicts folded in; null when they were stopped (a shutdown) or the fold failed. */
  private async finalOutcome(fold: () => Promise<AuditOutcome | null>, auditId: string): Promise<AuditOutcome | null> {
    try {
      return await fold();
    } catch (err) {
      this.logger.error({ err, auditId }, 'external verdicts not folded in');
      return null;
    }
  }

  /**
   * The readable audit made final: with its external verdicts (scores, counts, issues and their occurrences in one
   * transaction), or without them when the wait was stopped (the targets still pending said so). Alerts are owed
   * from then on. False when nothing was written (the audit was deleted, or is final already).
   */
  private async finalize(
    em: NativeDb,
    run: AuditAttempt,
    projectId: string,
    final: AuditOutcome | null,
    occurrences: OccurrenceRecord[],
    shapes: EvidenceShapes,
  ): Promise<boolean> {
    if (!final)
      return lifecycle.finalizeExternalSeen(em, { id: run.auditId, status: 'COMPLETED', attempts: run.attempt });
    const { scores, breakdown, crawl, counts } = final;
    return this.repo.saveExternalFinal(
      em,
      (tx) => lifecycle.finalizeExternal(tx, run, { scores, breakdown, crawl, counts }),
      { auditId: run.auditId, issues: resultsOf(run.auditId, projectId, final, shapes).issues, occurrences },
      (tx) => new WontFixService().applyToAudit(tx, run.auditId),
    );
  }

  /** This run's final transition did not happen: a later attempt claimed the audit, or it was cancelled. */
  private async lostTo(em: EntityManager, run: AuditAttempt): Promise<'superseded' | 'cancelled'> {
    const attempts = await this.repo.readAttempts(em, run.auditId);
    if (attempts !== null && attempts !== run.attempt) return 'superseded';
    await this.repo.settleCancelledCounts(em, run);
    return 'cancelled';
  }

  /** A final failure the queue reports (an attempt that threw, the last retry spent): true when it failed the audit. */
  markFailed(auditId: string, message: string): Promise<boolean> {
    return lifecycle.fail(this.orm.em, auditId, message);
  }

  /** A retryable failure or a released job: back in the queue's hands (true when the audit was running). */
  markQueued(auditId: string, note: string | null): Promise<boolean> {
    return lifecycle.requeue(this.orm.em, auditId, note);
  }

  /**
   * Marks the rows the audit just wrote all-visible and refreshes the planner's statistics, so that the first reads
   * of a fresh audit (its comparison with the one before, by the alert worker at once and by whoever opens it) merge
   * index-only scans instead of visiting the heap: the compare bench measured 1.3 s before and 0.4 s after on two
   * audits of 200,000 occurrences. Autovacuum would get there, but on a large shared table only after many more
   * inserts. The audit is already COMPLETED: a failure here is logged and changes nothing.
   */
  private async settleResults(em: NativeDb, auditId: string): Promise<void> {
    const started = Date.now();
    try {
      await this.repo.vacuumResults(em);
      this.logger.debug({ auditId, ms: Date.now() - started }, 'audit results vacuumed');
    } catch (err) {
      this.logger.warn({ err, auditId }, 'audit results not vacuumed (autovacuum will)');
    }
  }

  /**
   * The project's segments' members in the fresh audit (SegmentMembership), written now so that the first read of its
   * segment names does not write 50 of them. A rule that reads what changes after the audit is not kept; one that
   * fails (its time limit) is written when first read instead. The audit is already COMPLETED: a failure here is
   * logged and changes nothing.
   */
  private async keepSegmentMembers(em: NativeDb, auditId: string, projectId: string): Promise<void> {
    const started = Date.now();
    try {
      const rows = await new SegmentRepository().list(em, projectId);
      const rules = rows.flatMap((row) => {
        try {
          const rule = validateFilter(segmentFilterInput(row), false);
          // A rule too costly to run (saved before the cost check) gets no members: its reads are refused by name.
          return rule && !storedRuleCostProblem(rule) ? [{ row, rule }] : [];
        } catch {
          return [];
        }
      });
      const kept = await new SegmentMembership().keep(em, { id: auditId, completed: true }, rules);
      this.logger.debug({ auditId, segments: kept.size, ms: Date.now() - started }, 'segment members kept');
    } catch (err) {
      this.logger.warn({ err, auditId }, 'segment members not kept (written when first read)');
    }
  }

  /**
   * Issues, inlinks, technical snapshot and scores land together, after the audit row's transition (locked until
   * commit). A cancelled or superseded run stops there: its final results are not written, and the pages and
   * occurrences it streamed before stay with the cancelled audit.
   */
  private async complete(
    em: NativeDb,
    run: AuditAttempt,
    projectId: string,
    outcome: AuditOutcome,
    shapes: EvidenceShapes,
  ): Promise<boolean> {
    const { scores, breakdown, pagesCrawled, pagesFailed, crawl, counts } = outcome;
    const externalPending = outcome.externalPending === true;
    await this.repo.analyzeResults(em);
    return this.repo.saveCompleted(
      em,
      (tx) =>
        lifecycle.complete(tx, run, { scores, breakdown, pagesCrawled, pagesFailed, crawl, counts, externalPending }),
      resultsOf(run.auditId, projectId, outcome, shapes),
      // The project's "won't fix" markings: left out of the scores, or dropped where the URL changed.
      (tx) => new WontFixService().applyToAudit(tx, run.auditId),
    );
  }
}

/** The rows a completed run writes beside its scores: issues (with their ids), technical snapshots. */
function resultsOf(auditId: string, projectId: string, outcome: AuditOutcome, shapes: EvidenceShapes): AuditResults {
  const site = outcome.site;
  const robotsTxt = site.robots.status === null ? 'unreachable' : `${site.robots.status}`;
  const sitemap = site.sitemap.analysis ? (site.sitemap.analysis.valid ? 'valid' : 'invalid') : 'missing';
  return {
    auditId,
    projectId,
    issues: outcome.issues.map((i) => ({
      id: newId(),
      code: i.code,
      title: i.title,
      severity: i.severity,
      category: i.category,
      description: i.description,
      affectedPages: i.affectedPages,
      applicablePages: i.applicablePages,
      evidenceShape: shapes.shapeOf(i.code),
      fixes: i.fixes ? { count: i.fixes.count, listed: i.fixes.listed, places: i.fixes.places.length } : null,
      chargedElsewhere: i.chargedElsewhere ?? 0,
    })),
    snapshots: outcome.vitals.map((v) => ({
      id: newId(),
      url: v.url,
      device: v.device,
      source: v.source,
      lcpMs: v.lcpMs,
      cls: v.cls,
      inpMs: v.inpMs,
      tbtMs: v.tbtMs,
      fcpMs: v.fcpMs,
      ttfbMs: v.ttfbMs,
      performanceScore: v.performanceScore,
      https: site.https,
      // The snapshot's "HSTS on" is the site check's verdict: an invalid or max-age=0 header does not count.
      hsts: hstsOn(site.https, site.hstsHeader),
      httpVersion: site.httpVersion,
      compression: site.compression,
      robotsTxt,
      sitemap,
    })),
  };
}

/** The technical snapshot's "HSTS on": the site check's verdict (an invalid or max-age=0 header does not count). */
function hstsOn(https: boolean, header: string | null): boolean {
  const verdict = hstsVerdict(parseResponseHeaders({ 'strict-transport-security': header ?? undefined }), https);
  return verdict.applies && verdict.enabled;
}
