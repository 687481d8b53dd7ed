import { setFlagsFromString } from 'node:v8';
import { DelayedError, UnrecoverableError } from 'bullmq';
import { QUEUES, createWorker } from '../src/platform/queues.js';
import { createConfiguredSafeHttpClient, parseResolvePins } from '../src/platform/safe-http/index.js';
import { AuditFailedError, AuditJobRunner, type AuditJobData } from '../src/audits/index.js';
import { createPageFactsPool } from '../src/crawler/index.js';
import { createLabMeter } from '../src/technical/index.js';
import { runWorkerProcess } from './run-worker.js';

/**
 * An audit keeps a small record per page (about 4 KB for 20,000 pages) and streams everything else, so its
 * live heap stays well under 100 MB; V8's default growth lets the old space reach twice that in garbage
 * before a full collection. The heap grows by 25% between collections instead (no hard cap: a larger
 * audit still gets the memory it needs). Measured on 20,000 pages: peak RSS 400 -> under 300 MB, same speed.
 */
setFlagsFromString('--heap-growing-percent=25');

/** A failure message an owner can read; database and driver errors stay in the log. */
function readable(err: Error): string {
  if ((err as { code?: unknown }).code && !(err instanceof UnrecoverableError)) return 'Internal error while running the audit.';
  return err.message.split('\n')[0].slice(0, 300);
}

void runWorkerProcess('audit-worker', async ({ config, logger, orm, shuttingDown }) => {
  const client = createConfiguredSafeHttpClient(config);
  // Lab Core Web Vitals when a browser is configured; HTTP-level metrics otherwise.
  const meter = config.CHROMIUM_PATH
    ? createLabMeter({ chromiumPath: config.CHROMIUM_PATH, userAgent: config.CRAWLER_USER_AGENT, hostPins: parseResolvePins(config.SAFE_HTTP_RESOLVE), onError: (url, err) => logger.warn({ url, err }, 'lab measurement failed') })
    : null;
  // Page parsing on worker threads beside the crawl loop: an audit then uses more than one core.
  const parser = config.AUDIT_PARSE_THREADS > 0
    ? createPageFactsPool(config.AUDIT_PARSE_THREADS, { maxHeapMb: 96, onDegraded: (err) => logger.warn({ err }, 'page analysis threads unavailable') })
    : null;
  const runner = new AuditJobRunner(orm, client, config, logger, meter ? (urls, signal) => meter.measure(urls, signal) : undefined, parser?.extract);
  const worker = createWorker<AuditJobData>(
    QUEUES.audit,
    async (job, token) => {
      const { auditId } = job.data;
      if (!auditId) throw new UnrecoverableError('job without an audit id');
      logger.info({ auditId, jobId: job.id, attempt: job.attemptsMade + 1 }, 'audit started');
      const result = await runner
        .run(auditId, { reportProgress: (p) => job.updateProgress(p), interrupted: shuttingDown })
        .catch((err: unknown) => {
          // The site could not be audited (the audit is FAILED with the reason): a retry would fail the same way.
          if (err instanceof AuditFailedError) throw new UnrecoverableError(err.message);
          throw err;
        });
      if (result === 'interrupted') {
        // Shutdown: hand the job back without spending an attempt; another worker restarts it.
        await runner.markQueued(auditId, null);
        await job.moveToDelayed(Date.now() + 1_000, token);
        throw new DelayedError();
      }
      logger.info({ auditId, result }, 'audit finished');
      return { result };
    },
    {
      redisUrl: config.REDIS_URL,
      prefix: config.REDIS_PREFIX,
      concurrency: config.WORKER_CONCURRENCY,
      lockDuration: config.WORKER_LOCK_MS,
      stalledInterval: Math.max(1_000, Math.floor(config.WORKER_LOCK_MS / 2)),
      maxStalledCount: 2,
    },
  );
  worker.on('failed', (job, err) => {
    if (!job || err instanceof DelayedError) return;
    const auditId = job.data.auditId;
    const final = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    logger.error({ err, auditId, attempt: job.attemptsMade, final }, 'audit attempt failed');
    void (final ? runner.markFailed(auditId, readable(err)) : runner.markQueued(auditId, `Attempt ${job.attemptsMade} failed; retrying.`));
  });
  return { workers: [worker], close: async () => { await meter?.close(); await parser?.close(); await client.close(); } };
});
