import type { Worker } from 'bullmq';
import { loadConfigOrExit, type AppConfig } from '../src/platform/config.js';
import { createLogger, type Logger } from '../src/platform/logger.js';
import { createOrm, type MikroORM } from '../src/platform/db/orm.js';
import { ENTITIES } from '../src/entities.js';
import { createRedis, redisTimeoutsOf, type Redis } from '../src/platform/redis.js';
import { DependencyMonitor } from '../src/platform/dependency-monitor.js';
import { isInfrastructureFailure } from '../src/platform/infra-errors.js';
import { pingDatabase } from '../src/platform/db/health.js';
import { SharedMetrics } from '../src/platform/shared-metrics.js';
import { exitOnUnhandledErrors } from '../src/platform/process-guards.js';
import { announceReady } from '../src/platform/ready-signal.js';
import { trimHeapAfterStart } from '../src/platform/startup-heap-trim.js';

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
 * closed (the current jobs finish or release themselves), then connections, and the process exits 0. An error
 * nothing handled, a failed start or a failed shutdown logs one fatal line and exits 1 (the supervisor restarts
 * the process). Never rejects. Workers never serve HTTP.
 */
export async function runWorkerProcess(name: string, handlers: JobHandlers[]): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.LOG_LEVEL, name });
  const fatal = exitOnUnhandledErrors(logger, 'worker');
  try {
    await run(name, handlers, config, logger, fatal);
  } catch (err) {
    fatal('worker failed to start')(err);
  }
}

type Fatal = (kind: string) => (err: unknown) => void;

async function run(name: string, handlers: JobHandlers[], config: AppConfig, logger: Logger, fatal: Fatal) {
  let stopping = false;
  const started: Awaited<ReturnType<JobHandlers['start']>>[] = [];
  const closing: { shutdown?: (signal: string) => Promise<void> } = {};
  // Signals are handled from the start: one that arrives while queues are starting closes what has started.
  let booted!: () => void;
  const boot = new Promise<void>((resolve) => (booted = resolve));
  const onSignal = (signal: string) => {
    if (stopping) return;
    stopping = true;
    boot.then(() => closing.shutdown?.(signal)).catch(fatal('worker shutdown failed'));
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  // The process that started this one (`seo start`'s API, a `seo worker` supervisor) is gone, even killed with no
  // chance to signal: stop as on SIGTERM rather than run on unsupervised. Only a child with an IPC channel gets it.
  process.on('disconnect', () => onSignal('disconnect'));

  const late: { monitor?: DependencyMonitor } = {};
  const onError = (what: string) => (err: Error) => {
    // DependencyMonitor.check() never rejects: it records a failed probe as the dependency being down.
    if (isInfrastructureFailure(err)) void late.monitor?.check();
    else logger.error({ err }, `${what} error`);
  };
  const redis = createRedis(config.REDIS_URL, {
    name: `${name}-control`,
    ...redisTimeoutsOf(config),
    onEvent: (_event, err) => (err ? onError('redis')(err) : void late.monitor?.check()),
  });
  const orm = await createOrm({
    databaseUrl: config.DATABASE_URL,
    entities: ENTITIES,
    logger,
    poolMax: 5,
    connectTimeoutMs: config.PG_CONNECT_TIMEOUT_MS,
  });
  const dependencies = new DependencyMonitor({
    logger,
    probes: { postgres: () => pingDatabase(orm.em), redis: () => redis.ping() },
  });
  late.monitor = dependencies;
  const metricsRedis = createRedis(config.REDIS_URL, {
    name: `${name}:metrics`,
    ...redisTimeoutsOf(config),
    onEvent: (_event, err) => err && onError('metrics redis')(err),
  });
  const metrics = new SharedMetrics(metricsRedis, config.REDIS_PREFIX, (err) =>
    logger.debug({ err }, 'metrics not written; kept for the next flush'),
  );
  const runtime: WorkerRuntime = {
    config,
    logger,
    orm,
    metrics,
    shuttingDown: () => stopping,
    redis,
    dependencies,
    onError,
  };
  const seconds = (job: { processedOn?: number; finishedOn?: number }) =>
    Math.max(0, ((job.finishedOn ?? Date.now()) - (job.processedOn ?? Date.now())) / 1000);

  closing.shutdown = async (signal: string) => {
    logger.info({ signal }, 'worker shutting down');
    const timeout = new Error('the workers did not close within 30 s');
    const timer = setTimeout(() => fatal('worker shutdown timed out')(timeout), 30_000).unref();
    await Promise.allSettled(started.flatMap((s) => s.workers).map((w) => w.close()));
    await Promise.allSettled(started.map((s) => s.close?.()));
    await metrics.flush();
    await metricsRedis.quit().catch(() => undefined);
    dependencies.close();
    redis.disconnect();
    await orm.close(true);
    clearTimeout(timer);
    logger.info({ signal }, 'worker stopped');
    process.exit(0);
  };
  try {
    for (const h of handlers) {
      if (stopping) break;
      const s = await h.start(runtime);
      started.push(s);
      // The workers' 'error' listeners are attached by createWorker (src/platform/queues.ts).
      for (const w of s.workers) {
        w.on('completed', (job) => metrics.observeJob(w.name, 'completed', seconds(job)));
        w.on('failed', (job) => job && metrics.observeJob(w.name, 'failed', seconds(job)));
      }
    }
  } finally {
    booted();
  }
  if (stopping) return;
  logger.info({ queues: handlers.map((h) => h.queue) }, 'worker ready');
  announceReady();
  trimHeapAfterStart(logger);
}
