import { AsyncLocalStorage } from 'node:async_hooks';
import { setFlagsFromString } from 'node:v8';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { QUEUES, createQueue, createWorker } from '../src/platform/queues.js';
import { infrastructureFailure } from '../src/platform/infra-errors.js';
import { createConfiguredSafeHttpClient, parseResolvePins } from '../src/platform/safe-http/index.js';
import {
  AuditFailedError,
  AuditJobRunner,
  AuditSweeper,
  heartbeatGraceOf,
  type AuditJobData,
} from '../src/audits/index.js';
import { createPageFactsPool, type PageFactsExtract } from '../src/crawler/index.js';
import { createLabMeter } from '../src/technical/index.js';
import { createAlertTriggers } from '../src/alerts/index.js';
import type { JobHandlers } from './run-worker.js';
import { startAuditSchedules } from './audit-schedule-jobs.js';

/** A failure message an owner can read; database and driver errors stay in the log. */
function readable(err: Error): string {
  if ((err as { code?: unknown }).code && !(err instanceof UnrecoverableError))
    return 'Internal error while running the audit.';
  return err.message.split('\n')[0].slice(0, 300);
}

/** An outage puts the job back this many times (2 s doubling to 60 s: about 15 minutes in all) before it counts. */
const MAX_OUTAGE_RETRIES = 20;
const outageDelayMs = (retry: number) => Math.min(60_000, 2_000 * 2 ** retry);

/**
 * BullMQ's word that the queue no longer holds a job this worker runs: Redis lost its data (restarted empty), or the
 * lock expired and another run took the job. Not the audit's failure: the run still writes its end to PostgreSQL
 * (fenced on its attempt), and the sweeper leaves its audit alone while its heartbeat is fresh.
 */
const LOST_JOB = /^(Missing key for job|Missing lock for job|Lock mismatch for job|could not renew lock for job) /;

/**
 * Progress goes to the queue without holding up the crawl: one update in flight at most, and a failed one (Redis
 * down, or the job gone) is dropped; PostgreSQL keeps the audit's own progress.
 */
function progressReporter(job: Job<AuditJobData>): (p: { pagesCrawled: number; pagesQueued: number }) => Promise<void> {
  let inFlight = false;
  return async (p) => {
    if (inFlight) return;
    inFlight = true;
    void job
      .updateProgress(p)
      .catch(() => undefined)
      .finally(() => {
        inFlight = false;
      });
  };
}

/** The audit queue's worker: crawls and audits, and the sweeper of audits whose job went missing. */
export const auditJobs: JobHandlers = {
  queue: 'audit',
  async start({ config, logger, orm, metrics, shuttingDown, redis, onError }) {
    /**
     * An audit keeps a few hundred bytes per page (src/seo/checks/page-summary-store.ts: typed arrays and UTF-8,
     * mostly outside the JavaScript heap) and streams everything else, so its live heap stays near 50 MB (measured
     * on 100,000 pages); V8's default growth lets the old space reach twice that in garbage before a full
     * collection. The heap grows by 25% between collections instead (no hard cap: a larger audit still gets the
     * memory it needs). Measured on 20,000 pages: peak RSS 400 -> under 300 MB, same speed.
     */
    setFlagsFromString('--heap-growing-percent=25');
    const client = createConfiguredSafeHttpClient(config);
    // Lab Core Web Vitals when a browser is configured; HTTP-level metrics otherwise.
    const meter = config.CHROMIUM_PATH
      ? createLabMeter({
          chromiumPath: config.CHROMIUM_PATH,
          userAgent: config.CRAWLER_USER_AGENT,
          hostPins: parseResolvePins(config.SAFE_HTTP_RESOLVE),
          onError: (url, err) => logger.warn({ url, err }, 'lab measurement failed'),
        })
      : null;
    // Page parsing on worker threads beside the crawl loop: an audit then uses more than one core, and this thread
    // (every audit's heartbeat and job lock) never parses a page. Each running audit has a lane of its own with up to
    // AUDIT_PARSE_THREADS threads, so one audit's slow or hostile page never waits in front of another audit's pages;
    // a page a thread cannot get through (PAGE_ANALYSIS_LIMITS: 256 MB, 10 s) fails alone. The threads start as
    // pages need them, not at boot: an idle worker does not hold their heaps (~30 MB per thread).
    let parser: ReturnType<typeof createPageFactsPool> | null = null;
    const lanes = new AsyncLocalStorage<string>();
    const extract: PageFactsExtract | undefined =
      config.AUDIT_PARSE_THREADS > 0
        ? (body, context) => {
            parser ??= createPageFactsPool(config.AUDIT_PARSE_THREADS * config.WORKER_CONCURRENCY, {
              perLane: config.AUDIT_PARSE_THREADS,
              onDegraded: (err) => logger.error({ err }, 'page analysis threads unavailable'),
              onFailed: ({ url, lane, reason }) => logger.warn({ auditId: lane, url, reason }, 'page not analysed'),
              onYielded: ({ url, lane }) => logger.info({ auditId: lane, url }, 'long page analysis gave way'),
              // The pages of an audit whose page gave way: in a process at nice 19 (its garbage collection too).
              lowPriorityProcess: true,
              onLowPriorityUnavailable: (err) => logger.warn({ err }, 'low-priority page analysis unavailable'),
            });
            return parser.extract(body, context, lanes.getStore());
          }
        : undefined;
    const runner = new AuditJobRunner(
      orm,
      client,
      config,
      logger,
      meter ? (urls, signal) => meter.measure(urls, signal) : undefined,
      extract,
    );
    // A completed audit's alerts are evaluated on the alert queue (src/alerts), by an alert worker.
    const alerts = createAlertTriggers({ redis, db: orm.em, config, logger, onError: onError('alert queue') });
    // Scheduled audits share the queue: their jobs start audits (workers/audit-schedule-jobs.ts).
    const schedules = await startAuditSchedules({ config, logger, orm, redis, onError });
    const worker = createWorker<AuditJobData>(
      QUEUES.audit,
      async (job, token) => {
        const scheduled = schedules.handle(job);
        if (scheduled) return scheduled;
        const { auditId } = job.data;
        if (!auditId) throw new UnrecoverableError('job without an audit id');
        logger.info({ auditId, jobId: job.id, attempt: job.attemptsMade + 1 }, 'audit started');
        let result: Awaited<ReturnType<AuditJobRunner['run']>>;
        try {
          // The audit's pages go to its own lane of the page analysis threads.
          result = await lanes.run(auditId, () =>
            runner.run(auditId, {
              reportProgress: progressReporter(job),
              interrupted: shuttingDown,
              pagesStored: (n) => metrics.inc('seo_pages_crawled_total', {}, n),
            }),
          );
        } catch (err) {
          // The site could not be audited (the audit is FAILED with the reason): a retry would fail the same way.
          if (err instanceof AuditFailedError) throw new UnrecoverableError(err.message);
          // PostgreSQL or Redis went away under the audit: not the audit's failure. The job goes back to the queue
          // (delayed, with backoff) without spending an attempt; the next run starts the audit over.
          const dependency = infrastructureFailure(err);
          const retries = job.data.outageRetries ?? 0;
          if (!dependency || shuttingDown() || retries >= MAX_OUTAGE_RETRIES) throw err;
          const delay = outageDelayMs(retries);
          logger.warn(
            { auditId, dependency, retryInMs: delay, outageRetries: retries + 1, reason: (err as Error).message },
            'audit interrupted by an outage; queued again without spending an attempt',
          );
          await runner
            .markQueued(auditId, 'Interrupted by an outage of the database or the queue; it resumes shortly.')
            .catch(() => undefined);
          await job.updateData({ ...job.data, outageRetries: retries + 1 });
          await job.moveToDelayed(Date.now() + delay, token);
          throw new DelayedError();
        }
        if (result === 'interrupted') {
          // Shutdown: hand the job back without spending an attempt; another worker restarts it. Should PostgreSQL
          // refuse the write, the job is handed back all the same: the sweeper shows a RUNNING audit whose job
          // waits as QUEUED.
          await runner
            .markQueued(auditId, null)
            .catch((err: unknown) =>
              logger.warn({ err, auditId }, 'could not mark the audit queued; the audit sweeper will'),
            );
          await job.moveToDelayed(Date.now() + 1_000, token);
          throw new DelayedError();
        }
        logger.info({ auditId, result }, 'audit finished');
        if (result === 'completed') await alerts.auditCompleted(auditId);
        return { result };
      },
      {
        redisUrl: config.REDIS_URL,
        prefix: config.REDIS_PREFIX,
        onError: (err) =>
          LOST_JOB.test(err.message)
            ? logger.warn({ reason: err.message }, 'the queue lost a running audit job; PostgreSQL keeps the audit')
            : onError('audit worker')(err),
        onRedisEvent: (_event, err) => err && onError('audit worker connection')(err),
        concurrency: config.WORKER_CONCURRENCY,
        lockDuration: config.WORKER_LOCK_MS,
        stalledInterval: Math.max(1_000, Math.floor(config.WORKER_LOCK_MS / 2)),
        maxStalledCount: 2,
      },
    );
    worker.on('failed', (job, err) => {
      if (!job || err instanceof DelayedError) return;
      if (schedules.owns(job)) return void logger.warn({ err, jobId: job.id }, 'scheduled audit job failed');
      const auditId = job.data.auditId;
      const final = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
      logger.error({ err, auditId, attempt: job.attemptsMade, final }, 'audit attempt failed');
      // With PostgreSQL down this write fails too: the sweeper finds the audit later (its job failed) and fails it.
      const recorded = final
        ? runner.markFailed(auditId, readable(err))
        : runner.markQueued(auditId, `Attempt ${job.attemptsMade} failed; retrying.`);
      void recorded.catch((writeErr: unknown) =>
        logger.warn({ err: writeErr, auditId }, 'could not record the failed attempt; the audit sweeper will'),
      );
    });

    // Audits whose job the queue lost (Redis restarted empty) or never learnt the end of: requeued or failed.
    const sweepQueue = createQueue<AuditJobData>(QUEUES.audit, redis, config.REDIS_PREFIX, onError('sweeper queue'));
    const sweeper = new AuditSweeper(orm, sweepQueue, redis, {
      prefix: config.REDIS_PREFIX,
      graceMs: config.WORKER_LOCK_MS,
      heartbeatGraceMs: heartbeatGraceOf(config.AUDIT_HEARTBEAT_MS),
      logger,
    });
    const stopSweeping =
      config.AUDIT_SWEEP_INTERVAL_MS > 0 ? sweeper.start(config.AUDIT_SWEEP_INTERVAL_MS) : () => undefined;
    return {
      workers: [worker],
      close: async () => {
        stopSweeping();
        await schedules.close();
        // Each closes whatever the others do: one that fails is logged, not left to stop the rest.
        const closed = await Promise.allSettled([
          sweepQueue.close(),
          meter?.close(),
          parser?.close(),
          client.close(),
          alerts.close(),
        ]);
        for (const c of closed) {
          if (c.status === 'rejected') logger.warn({ err: c.reason }, 'audit worker resource did not close cleanly');
        }
      },
    };
  },
};
