import 'reflect-metadata';
import type { Worker } from 'bullmq';
import { loadConfigOrExit, type AppConfig } from '../src/platform/config.js';
import { createLogger, type Logger } from '../src/platform/logger.js';
import { createOrm, type MikroORM } from '../src/platform/db/orm.js';
import { ENTITIES } from '../src/entities.js';

export interface WorkerRuntime {
  config: AppConfig;
  logger: Logger;
  orm: MikroORM;
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
  const { workers, close } = await start({ config, logger, orm, shuttingDown: () => stopping });
  for (const w of workers) w.on('error', (err) => logger.error({ err }, 'worker error'));

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    const timer = setTimeout(() => process.exit(1), 30_000).unref();
    await Promise.allSettled(workers.map((w) => w.close()));
    await close?.().catch(() => undefined);
    await orm.close(true);
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  logger.info('worker ready');
}
