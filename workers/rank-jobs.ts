import { UnrecoverableError } from 'bullmq';
import { QUEUES, createQueue, createWorker } from '../src/platform/queues.js';
import { createRedis } from '../src/platform/redis.js';
import { createConfiguredSafeHttpClient } from '../src/platform/safe-http/index.js';
import { nativeQuery } from '../src/platform/db/native-query.js';
import { RankCheckRunner, scheduleDailyRankCheck, type RankJobData } from '../src/keywords/index.js';
import { CompetitorProfileRunner } from '../src/competitors/index.js';
import { createSerpProvider } from '../src/serp/index.js';
import { meteredFetch } from '../src/platform/shared-metrics.js';
import type { JobHandlers } from './run-worker.js';

/** The rank queue's worker: keyword checks (with their daily schedules) and competitor profiles. */
export const rankJobs: JobHandlers = {
  queue: 'rank',
  async start({ config, logger, orm, metrics, onError }) {
    const redis = createRedis(config.REDIS_URL, { name: 'rank-producer', onEvent: (_event, err) => err && onError('rank producer')(err) });
    const queue = createQueue<RankJobData>(QUEUES.rank, redis, config.REDIS_PREFIX, onError('rank queue'));
    const serpFetch = meteredFetch(globalThis.fetch, metrics, { requests: 'seo_serp_requests_total', errors: 'seo_serp_errors_total' }, { provider: config.SERP_PROVIDER ?? 'none' });
    const provider = createSerpProvider(config, serpFetch);
    if (!provider) logger.warn('no SERP provider configured: rank checks will be recorded as failed with a clear error');
    const client = createConfiguredSafeHttpClient(config);
    const ranks = new RankCheckRunner(orm, queue, provider, { depth: config.SERP_DEPTH, snapshotSize: config.SERP_DEPTH, retryDelayMs: config.SERP_RETRY_DELAY_MS }, logger);
    const profiles = new CompetitorProfileRunner(orm, client);

    // Daily schedules: upserts are idempotent, so every worker may register them at start.
    const projects = await nativeQuery<{ project_id: string }>(orm.em.fork(), 'SELECT DISTINCT project_id FROM keyword');
    for (const p of projects) await scheduleDailyRankCheck(queue, p.project_id);
    logger.info({ projects: projects.length }, 'daily rank schedules registered');

    const worker = createWorker<RankJobData>(
      QUEUES.rank,
      async (job) => {
        const data = job.data;
        switch (data.kind) {
          case 'check-project':
            return { keywords: await ranks.checkProject(data.projectId, job.id ?? String(Date.now())) };
          case 'check-keyword': {
            const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
            return ranks.checkKeyword(data.keywordId, lastAttempt);
          }
          case 'competitor-profile':
            return { result: await profiles.run(data.competitorId) };
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
    worker.on('failed', (job, err) => logger.warn({ jobId: job?.id, attempt: job?.attemptsMade, err: err.message }, 'rank job attempt failed'));
    return {
      workers: [worker],
      close: async () => {
        await queue.close();
        await redis.quit();
        await client.close();
      },
    };
  },
};
