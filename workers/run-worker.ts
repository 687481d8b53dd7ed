import type { Worker } from 'bullmq';
import { loadConfigOrExit, type AppConfig } from '../src/platform/config.js';
import { createLogger, type Logger } from '../src/platform/logger.js';
import { createOrm, type MikroORM } from '../src/platform/db/orm.js';
import { ENTITIES } from '../src/entities.js';
import { createRedis, type Redis } from '../src/platform/redis.js';
import { DependencyMonitor } from '../src/platform/dependency-monitor.js';
import { isInfrastructureFailure } from '../src/platform/infra-errors.js';
import { nativeQuery } from '../src/platform/db/native-query.js';
import { SharedMetrics } from '../src/platform/shared-metrics.js';

export interface WorkerRuntime {
  config: AppConfig;
  logger: Logger;
  orm: MikroORM;
  /** Counters shared by every process through Redis, served by the API's /metrics. */
  metrics: SharedMetrics;
  /** True once SIGTERM/SIGINT arrived: long jobs should stop and release themselves. */
  shuttingDown(): boolean;
  /** A non-blocking Redis connection (fails fast while Redis is down) for producers, locks and probes. */
  redis: Redis;
  /** PostgreSQL and Redis reachability; logs one line per change of state. */
  dependencies: DependencyMonitor;
  /** For 'error' events of BullMQ objects: outages go to the monitor (one line per change), the rest to the log. */
  onError(what: string): (err: Error) => void;
}

/** What a queue's jobs need in a worker process: started with the process's runtime, closed with it. */
export interface JobHandlers {
  /** The queue served, for logs (`seo worker <queue>` names it). */
  queue: string;
  start(runtime: WorkerRuntime): Promise<{ workers: Worker[]; close?: () => Promise<void> }>;
}

/**
 * Shared boot and shutdown of a worker process serving one or more queues (one ORM, one Redis control
 * connection and one metrics writer for all of them): config, logger, ORM; on SIGTERM/SIGINT the workers are
 * closed (the current jobs finish or release themselves), then connections. Workers never serve HTTP.
 */
export async function runWorkerProcess(name: string, handlers: JobHandlers[]): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.LOG_LEVEL, name });
  // Anything that escapes every handler leaves the process in an unknown state: log it (one structured line)
  // and exit, so that the `seo worker` supervisor starts a fresh process (the job's lock expires and it is resumed).
  const fatal = (kind: string) => (err: unknown) => {
    logger.fatal({ err, kind }, `${kind}: the worker exits and its supervisor restarts it`);
    logger.flush?.();
    setTimeout(() => process.exit(1), 50).unref();
  };
  process.on('unhandledRejection', fatal('unhandled promise rejection'));
  process.on('uncaughtException', fatal('uncaught exception'));

  const late: { monitor?: DependencyMonitor } = {};
  const onError = (what: string) => (err: Error) => {
    if (isInfrastructureFailure(err)) void late.monitor?.check();
    else logger.error({ err }, `${what} error`);
  };
  const redis = createRedis(config.REDIS_URL, { name: `${name}-control`, onEvent: (_event, err) => (err ? onError('redis')(err) : void late.monitor?.check()) });
  const orm = await createOrm({ databaseUrl: config.DATABASE_URL, entities: ENTITIES, logger, poolMax: 5 });
  const dependencies = new DependencyMonitor({ logger, probes: { postgres: () => nativeQuery(orm.em, 'SELECT 1'), redis: () => redis.ping() } });
  late.monitor = dependencies;
  let stopping = false;
  const metricsRedis = createRedis(config.REDIS_URL, { name: `${name}:metrics`, onEvent: (_event, err) => err && onError('metrics redis')(err) });
  const metrics = new SharedMetrics(metricsRedis, config.REDIS_PREFIX, (err) => logger.debug({ err }, 'metrics not written; kept for the next flush'));
  const runtime: WorkerRuntime = { config, logger, orm, metrics, shuttingDown: () => stopping, redis, dependencies, onError };
  const started: Awaited<ReturnType<JobHandlers['start']>>[] = [];
  for (const h of handlers) started.push(await h.start(runtime));
  const workers = started.flatMap((s) => s.workers);
  const close = () => Promise.allSettled(started.map((s) => s.close?.()));
  const seconds = (job: { processedOn?: number; finishedOn?: number }) => Math.max(0, ((job.finishedOn ?? Date.now()) - (job.processedOn ?? Date.now())) / 1000);
  for (const w of workers) {
    w.on('error', onError('worker'));
    w.on('completed', (job) => metrics.observeJob(w.name, 'completed', seconds(job)));
    w.on('failed', (job) => job && metrics.observeJob(w.name, 'failed', seconds(job)));
  }

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    const timer = setTimeout(() => process.exit(1), 30_000).unref();
    await Promise.allSettled(workers.map((w) => w.close()));
    await close();
    await metrics.flush();
    await metricsRedis.quit().catch(() => undefined);
    dependencies.close();
    redis.disconnect();
    await orm.close(true);
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  logger.info({ queues: handlers.map((h) => h.queue) }, 'worker ready');
}
