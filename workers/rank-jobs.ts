import { UnrecoverableError } from 'bullmq';
import { QUEUES, createQueue, createWorker } from '../src/platform/queues.js';
import { createRedis, redisTimeoutsOf } from '../src/platform/redis.js';
import { RankCheckRunner, reconcileRankSchedules, type RankJobData } from '../src/keywords/index.js';
import { startReconciling } from '../src/platform/job-schedulers.js';
import { enqueueCompetitorProfile, type CompetitorJobData } from '../src/competitors/index.js';
import { createSerpProvider } from '../src/serp/index.js';
import { meteredFetch } from '../src/platform/shared-metrics.js';
import { createAlertTriggers } from '../src/alerts/index.js';
import type { JobHandlers } from './run-worker.js';

/**
 * What the rank queue holds: keyword checks, and competitor profiles enqueued there by a release before the
 * competitor queue existed (still waiting, delayed or retrying after an upgrade).
 */
type RankQueueJobData = RankJobData | CompetitorJobData;

/**
 * The rank queue's worker: keyword checks (with their daily schedules). A competitor profile found on this queue
 * is handed over to the competitor queue under the same job id (so it runs once, in a competitor worker).
 */
export const rankJobs: JobHandlers = {
  queue: 'rank',
  async start({ config, logger, orm, metrics, onError }) {
    const redis = createRedis(config.REDIS_URL, {
      name: 'rank-producer',
      ...redisTimeoutsOf(config),
      onEvent: (_event, err) => err && onError('rank producer')(err),
    });
    const queue = createQueue<RankJobData>(QUEUES.rank, redis, config.REDIS_PREFIX, onError('rank queue'));
    const competitorQueue = createQueue<CompetitorJobData>(
      QUEUES.competitor,
      redis,
      config.REDIS_PREFIX,
      onError('competitor queue'),
    );
    const serpFetch = meteredFetch(
      globalThis.fetch,
      metrics,
      { requests: 'seo_serp_requests_total', errors: 'seo_serp_errors_total' },
      { provider: config.SERP_PROVIDER ?? 'none' },
    );
    const provider = createSerpProvider(config, serpFetch);
    if (!provider)
      logger.warn('no SERP provider configured: rank checks will be recorded as failed with a clear error');
    const ranks = new RankCheckRunner(
      orm,
      queue,
      provider,
      { depth: config.SERP_DEPTH, snapshotSize: config.SERP_DEPTH, retryDelayMs: config.SERP_RETRY_DELAY_MS },
      logger,
    );

    // Daily schedules from the database, at start and every SCHEDULE_RECONCILE_MS: a Redis that restarted empty has
    // them back (upserts are idempotent, so every worker may do it).
    const reconciling = startReconciling(
      'rank',
      () => reconcileRankSchedules(queue, orm.em.fork()),
      config.SCHEDULE_RECONCILE_MS,
      logger,
    );
    await reconciling.first;

    const alerts = createAlertTriggers({ redis, db: orm.em, config, logger, onError: onError('alert queue') });
    const worker = createWorker<RankQueueJobData>(
      QUEUES.rank,
      async (job) => {
        const data = job.data;
        switch (data.kind) {
          case 'check-project':
            return { keywords: await ranks.checkProject(data.projectId, job.id ?? String(Date.now())) };
          case 'check-keyword': {
            const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
            const outcome = await ranks.checkKeyword(data.keywordId, lastAttempt);
            // The project's rank alerts are evaluated once its run of checks has settled (src/alerts).
            if (outcome.status === 'OK') await alerts.keywordChecked(data.keywordId);
            return outcome;
          }
          case 'competitor-profile':
            await enqueueCompetitorProfile(competitorQueue, data.competitorId, config.SERP_RETRY_DELAY_MS);
            logger.info(
              { jobId: job.id, competitorId: data.competitorId },
              'competitor profile moved to the competitor queue',
            );
            return { movedTo: QUEUES.competitor };
          default:
            throw new UnrecoverableError(`unknown rank job ${JSON.stringify(data)}`);
        }
      },
      {
        redisUrl: config.REDIS_URL,
        prefix: config.REDIS_PREFIX,
        onError: onError('rank worker'),
        onRedisEvent: (_event, err) => err && onError('rank worker connection')(err),
        concurrency: config.SERP_CONCURRENCY,
        // Provider rate limit, shared by every rank worker through Redis.
        limiter: { max: config.SERP_RATE_PER_SECOND, duration: 1_000 },
      },
    );
    worker.on('failed', (job, err) =>
      logger.warn({ jobId: job?.id, attempt: job?.attemptsMade, err: err.message }, 'rank job attempt failed'),
    );
    return {
      workers: [worker],
      close: async () => {
        reconciling.stop();
        await queue.close();
        await competitorQueue.close();
        await alerts.close();
        await redis.quit();
      },
    };
  },
};
