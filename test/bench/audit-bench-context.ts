import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Queue } from 'bullmq';
import { bundleWorkersSync } from '../../src/platform/build/bundle-workers.js';
import { loadConfig, type AppConfig } from '../../src/platform/config.js';
import { newId } from '../../src/platform/ids.js';
import { createRedis } from '../../src/platform/redis.js';
import { QUEUES, createQueue } from '../../src/platform/queues.js';
import type { AuditJobData } from '../../src/audits/audit-job.js';
import { prepareBenchDatabase, removeRedisKeys } from './bench-database.js';
import type { WorkerAuditOptions } from './audit-worker-run.js';

/**
 * What the benches that run real audit workers share (audit, real, audit-100k): the bench database migrated, a
 * Redis prefix and audit queue of their own, an ENTERPRISE organization whose projects point at a host pinned to
 * 127.0.0.1, the worker's environment, and the worker compiled as production runs it. Everything is undone by
 * close(), in reverse order.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface AuditBenchContextOptions {
  /** For the Redis prefix and the organization's name. */
  name: string;
  databaseUrl: string;
  /** The host name projects use; the worker resolves it to 127.0.0.1 (SAFE_HTTP_RESOLVE). */
  host: string;
  /** An existing organization (e.g. one with a signed-up owner for GraphQL); else one is created and removed. */
  organizationId?: string;
  /** tsc output folder of the worker (compiled first unless `compile` is false), or null for tsx. */
  workerDist: string | null;
  compile: boolean;
  /** Added to (or overriding) the worker's environment. */
  workerEnv?: Record<string, string>;
  execArgv?: string[];
  logFile?: string;
  timeoutMs: number;
  log: (line: string) => void;
}

export interface AuditBenchContext {
  config: AppConfig;
  pool: pg.Pool;
  queue: Queue<AuditJobData>;
  organizationId: string;
  /** Everything runWorkerAudit needs but the project and the page budget. */
  worker: Omit<WorkerAuditOptions, 'projectId' | 'maxPages'>;
  /** A project of the organization at `url` (its host: options.host). */
  createProject(url: string): Promise<string>;
  /** Runs at close(), before what the context itself set up is undone. */
  defer(cleanup: () => Promise<unknown>): void;
  close(): Promise<void>;
}

/** Compiles the sources as the build does (tsc -p tsconfig.build.json), for a worker run from dist/. */
export function compileWorker(log: (line: string) => void, distDir: string): void {
  log('compiling the worker (tsc -p tsconfig.build.json)');
  try {
    execFileSync(
      process.execPath,
      [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      { cwd: ROOT, stdio: 'inherit' },
    );
  } catch (err) {
    // tsc still emits on type errors; a worker that was emitted is run, one that was not is an error.
    if (!existsSync(resolve(ROOT, distDir, 'workers/audit.worker.js'))) throw err;
    log('WARNING: tsc reported errors; running the worker it emitted anyway');
  }
  // As `npm start`'s build: the worker entries bundled (src/platform/build/bundle-workers.ts).
  bundleWorkersSync(resolve(ROOT, distDir));
}

export async function openAuditBenchContext(opts: AuditBenchContextOptions): Promise<AuditBenchContext> {
  const prefix = `bench-${opts.name}-${randomBytes(5).toString('hex')}`;
  const authSecret = process.env.BETTER_AUTH_SECRET ?? randomBytes(32).toString('hex');
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: opts.databaseUrl,
    REDIS_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    BETTER_AUTH_SECRET: authSecret,
  });
  opts.log(`database ${new URL(opts.databaseUrl).pathname.slice(1)}: ensuring and migrating`);
  await prepareBenchDatabase(opts.databaseUrl);

  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((err: unknown) => opts.log(`cleanup failed: ${String(err)}`));
    cleanups.length = 0;
  };
  try {
    // First: tsc runs synchronously, and a Redis client already connected would time its commands out meanwhile.
    if (opts.compile && opts.workerDist) compileWorker(opts.log, opts.workerDist);
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 2 });
    cleanups.push(() => pool.end());
    const redis = createRedis(config.REDIS_URL, { name: `bench-${opts.name}` });
    cleanups.push(() => redis.quit());
    cleanups.push(() => removeRedisKeys(redis, `${prefix}:*`));
    const queue = createQueue<AuditJobData>(QUEUES.audit, redis, prefix, (err) =>
      console.error('audit queue error', err),
    );
    cleanups.push(() => queue.close());

    let organizationId = opts.organizationId;
    if (!organizationId) {
      // An ENTERPRISE organization of its own; its projects, audits and results cascade when it goes.
      const id = `bench-${opts.name}-${randomBytes(6).toString('hex')}`;
      await pool.query(
        `INSERT INTO organization (id, name, slug, "createdAt", plan) VALUES ($1, $2, $1, now(), 'ENTERPRISE')`,
        [id, `${opts.name} bench`],
      );
      cleanups.push(() => pool.query('DELETE FROM organization WHERE id = $1', [id]));
      organizationId = id;
    }
    const deferred: (() => Promise<unknown>)[] = [];
    cleanups.push(async () => {
      for (const cleanup of deferred.reverse())
        await cleanup().catch((err: unknown) => opts.log(`cleanup failed: ${String(err)}`));
    });
    return {
      config,
      pool,
      queue,
      organizationId,
      worker: {
        pool,
        queue,
        // The worker's environment: the bench database, its own queue prefix, the host pinned to loopback.
        env: {
          NODE_ENV: process.env.NODE_ENV ?? 'production',
          DATABASE_URL: opts.databaseUrl,
          REDIS_URL: config.REDIS_URL,
          REDIS_PREFIX: prefix,
          ...benchHostEnv(opts.host),
          WORKER_CONCURRENCY: '1',
          LOG_LEVEL: 'warn',
          BETTER_AUTH_SECRET: authSecret,
          // No lab browser unless the bench asks for one.
          CHROMIUM_PATH: '',
          ...opts.workerEnv,
        },
        execArgv: opts.execArgv ?? [],
        distDir: opts.workerDist ?? undefined,
        logFile: opts.logFile,
        timeoutMs: opts.timeoutMs,
        log: opts.log,
      },
      createProject: async (url) => {
        const id = newId();
        await pool.query(
          `INSERT INTO project (id, organization_id, name, url, domain, settings) VALUES ($1, $2, $3, $4, $5, '{}')`,
          [id, organizationId, `bench ${url}`, url, opts.host],
        );
        return id;
      },
      defer: (cleanup) => deferred.push(cleanup),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The worker's address settings: loopback allowed, and the bench's host name pinned to it. */
export function benchHostEnv(host: string): { SAFE_HTTP_ALLOW: string; SAFE_HTTP_RESOLVE: string } {
  return { SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` };
}

/** A non-negative integer from the environment, or the fallback when unset or empty. */
export const intFromEnv = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
};
