import { QUEUES, createQueue, createWorker } from '../src/platform/queues.js';
import { createMailer } from '../src/platform/mail.js';
import { createConfiguredSafeHttpClient } from '../src/platform/safe-http/index.js';
import {
  AlertFactsReader,
  createAlertJobRunner,
  scheduleWeeklyDigest,
  type AlertJobData,
  type AuditFactsProvider,
} from '../src/alerts/index.js';
import { VITAL_BANDS } from '../src/technical/index.js';
import type { JobHandlers } from './run-worker.js';

/** Jobs of the alert queue one worker process runs at once (deliveries mostly wait on the network). */
const ALERT_CONCURRENCY = 4;

/**
 * The alert queue's worker: evaluates a finished audit's or rank check's facts against the project's rules, delivers
 * the signed webhooks (retried with backoff: ALERT_WEBHOOK_ATTEMPTS from ALERT_RETRY_DELAY_MS), sends the alert
 * e-mails, and the weekly digest (a job scheduler registered at start). Evaluations and deliveries are owed in
 * PostgreSQL (src/alerts/alert-outbox.ts): its reconciler queues again what Redis lost.
 */
export const alertJobs: JobHandlers = {
  queue: 'alert',
  async start({ config, logger, orm, redis, onError }) {
    const queue = createQueue<AlertJobData>(QUEUES.alert, redis, config.REDIS_PREFIX, onError('alert queue'));
    const http = createConfiguredSafeHttpClient(config);
    const reader = new AlertFactsReader(VITAL_BANDS);
    const auditFacts: AuditFactsProvider = (db, auditId) => reader.auditFacts(db, auditId);
    const runner = createAlertJobRunner({
      db: orm.em,
      queue,
      http,
      mailer: createMailer(config, logger),
      logger,
      config,
      poorBounds: VITAL_BANDS,
      auditFacts,
    });

    await scheduleWeeklyDigest(queue, config.ALERT_DIGEST_CRON);
    logger.info({ pattern: config.ALERT_DIGEST_CRON }, 'weekly alert digest scheduled');
    // What PostgreSQL says is owed (completed audits' evaluations, deliveries' next attempts) and the queue lost or
    // never got: queued again at start and every ALERT_RECONCILE_MS.
    const reconciling = runner.outbox.startReconciling(config.ALERT_RECONCILE_MS);

    const worker = createWorker<AlertJobData>(QUEUES.alert, (job) => runner.run(job), {
      redisUrl: config.REDIS_URL,
      prefix: config.REDIS_PREFIX,
      onError: onError('alert worker'),
      onRedisEvent: (_event, err) => err && onError('alert worker connection')(err),
      concurrency: ALERT_CONCURRENCY,
    });
    worker.on('failed', (job, err) =>
      logger.warn(
        { jobId: job?.id, kind: job?.data.kind, attempt: job?.attemptsMade, err: err.message },
        'alert job attempt failed',
      ),
    );
    return {
      workers: [worker],
      close: async () => {
        reconciling.stop();
        await Promise.allSettled([queue.close(), http.close()]);
      },
    };
  },
};
