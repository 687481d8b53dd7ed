import { UnrecoverableError } from 'bullmq';
import { QUEUES, createWorker } from '../src/platform/queues.js';
import { createConfiguredSafeHttpClient } from '../src/platform/safe-http/index.js';
import { CompetitorProfileRunner, type CompetitorJobData } from '../src/competitors/index.js';
import type { JobHandlers } from './run-worker.js';

/**
 * The competitor queue's worker: a competitor's homepage profile (one page fetched through the safe HTTP client
 * and analysed), COMPETITOR_CONCURRENCY at a time. Profiles enqueued on the rank queue by an older release are
 * handed over to this queue by the rank worker (workers/rank-jobs.ts).
 */
export const competitorJobs: JobHandlers = {
  queue: 'competitor',
  async start({ config, logger, orm, onError }) {
    const client = createConfiguredSafeHttpClient(config);
    const profiles = new CompetitorProfileRunner(orm, client);
    const worker = createWorker<CompetitorJobData>(
      QUEUES.competitor,
      async (job) => {
        const data = job.data;
        if (data.kind !== 'competitor-profile' || !data.competitorId)
          throw new UnrecoverableError(`unknown competitor job ${JSON.stringify(data)}`);
        return { result: await profiles.run(data.competitorId) };
      },
      {
        redisUrl: config.REDIS_URL,
        prefix: config.REDIS_PREFIX,
        onError: onError('competitor worker'),
        onRedisEvent: (_event, err) => err && onError('competitor worker connection')(err),
        concurrency: config.COMPETITOR_CONCURRENCY,
      },
    );
    worker.on('failed', (job, err) =>
      logger.warn(
        { jobId: job?.id, competitorId: job?.data.competitorId, attempt: job?.attemptsMade, err: err.message },
        'competitor job attempt failed',
      ),
    );
    return { workers: [worker], close: () => client.close() };
  },
};
