import 'reflect-metadata';
import type { Worker } from 'bullmq';
import { loadConfigOrExit, type AppConfig } from '../src/platform/config.js';
import { createLogger, type Logger } from '../src/platform/logger.js';
import { createOrm, type MikroORM } from '../src/platform/db/orm.js';
import { ENTITIES } from '../src/entities.js';
import { createRedis } from '../src/platform/redis.js';
import { SharedMetrics } from '../src/platform/shared-metrics.js';

export interface WorkerRuntime {
  config: AppConfig;
  logger: Logger;
  orm: MikroORM;
  /** Counters shared by every process through Redis, served by the API's /metrics. */
  metrics: SharedMetrics;
  /** True once SIGTERM/SIGINT arrived: long jobs should stop and release themselves. */
  shuttingDown(): boolean;
}

/**
 * Shared boot and shutdown of a worker process: config, logger, ORM; on SIGTERM/SIGINT the workers are
 * closed (the current job finishes or releases itself), then connections. Workers never serve HTTP.
 */
export async function runWorkerProcess(
  name: string,
  start: (runtime: WorkerRuntime) => Promise<{ workers: Worker[]; close?: () => Promise<void> }>,
): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.LOG_LEVEL, name });
  const orm = await createOrm({ databaseUrl: config.DATABASE_URL, entities: ENTITIES, logger, poolMax: 5 });
  let stopping = false;
  const metricsRedis = createRedis(config.REDIS_URL, { name: `${name}:metrics` });
  const metrics = new SharedMetrics(metricsRedis, config.REDIS_PREFIX, (err) => logger.debug({ err }, 'metrics not written; kept for the next flush'));
  const { workers, close } = await start({ config, logger, orm, metrics, shuttingDown: () => stopping });
  const seconds = (job: { processedOn?: number; finishedOn?: number }) => Math.max(0, ((job.finishedOn ?? Date.now()) - (job.processedOn ?? Date.now())) / 1000);
  for (const w of workers) {
    w.on('error', (err) => logger.error({ err }, 'worker error'));
    w.on('completed', (job) => metrics.observeJob(w.name, 'completed', seconds(job)));
    w.on('failed', (job) => job && metrics.observeJob(w.name, 'failed', seconds(job)));
  }

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    const timer = setTimeout(() => process.exit(1), 30_000).unref();
    await Promise.allSettled(workers.map((w) => w.close()));
    await close?.().catch(() => undefined);
    await metrics.flush();
    await metricsRedis.quit().catch(() => undefined);
    await orm.close(true);
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  logger.info('worker ready');
}
