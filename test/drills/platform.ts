/**
 * An isolated platform for a drill: a fresh database (on the given PostgreSQL), its own Redis key prefix, N
 * built API processes and M worker groups (`seo worker`, i.e. the worker process of every queue under its
 * supervisor), every line they print kept for inspection (the secrets drill searches them).
 * The server is built first when its sources changed, as `npm start` does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Redis } from 'ioredis';
import { TARGETS, buildIfChanged } from '../../src/platform/build/incremental-build.js';
import { freePort, startApiProcess, type ApiProcess } from '../bench/api-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = 'dist/src/cli.js';

export interface PlatformOptions {
  /** API processes (default 1). */
  apis?: number;
  /** Worker groups, each a `seo worker` supervisor with its children (default 0). */
  workerGroups?: number;
  /** PostgreSQL server to create the drill's database on (default the machine's, 127.0.0.1:5432). */
  postgresUrl?: string;
  /** Redis to use (default DRILL_REDIS_URL, else the machine's, db 0) under a fresh key prefix. */
  redisUrl?: string;
  /** Extra environment for every process (SAFE_HTTP_ALLOW, DEFAULT_PLAN, LOG_LEVEL…). */
  env?: Record<string, string>;
}

export interface WorkerGroup {
  pid: number;
  alive(): boolean;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface Platform {
  env: Record<string, string>;
  databaseUrl: string;
  apis: ApiProcess[];
  workers: WorkerGroup[];
  /** Runs `seo <args>` (the built CLI) against this platform; resolves with its stdout parsed as JSON. */
  cli<T = unknown>(args: string[]): Promise<T>;
  /** Runs `seo <args>` with extra environment and resolves with its exit code and output, whatever the code. */
  cliRun(
    args: string[],
    env?: Record<string, string>,
  ): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Starts one more worker group (after a kill, say). */
  startWorkerGroup(): WorkerGroup;
  /** Every line printed so far by every process of the platform, the CLI's included. */
  logs(): string;
  /** A SQL query on the drill's database. */
  sql<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** Stops every process, drops the database and deletes the Redis keys of the prefix. */
  stop(): Promise<void>;
}

export async function startPlatform(options: PlatformOptions = {}): Promise<Platform> {
  buildIfChanged(TARGETS.server);
  const id = randomBytes(4).toString('hex');
  const pgBase = new URL(options.postgresUrl ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const databaseUrl = new URL(pgBase);
  databaseUrl.pathname = `/seo_drill_${id}`;
  const redisUrl = options.redisUrl ?? process.env.DRILL_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `drill-${id}`;
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    BETTER_AUTH_SECRET: randomBytes(24).toString('hex'),
    // Drills sign many users up from 127.0.0.1.
    SIGNUPS_PER_IP_PER_HOUR: '100000',
    ...options.env,
  };
  const output: string[] = [];
  const run = (args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += String(d)));
      child.stderr.on('data', (d) => output.push(String(d)));
      child.once('error', reject);
      child.once('exit', (code) => {
        output.push(stdout);
        if (code === 0) resolve(stdout);
        else reject(new Error(`seo ${args.join(' ')} exited with ${code}: ${stdout}`));
      });
    });
  await run(['migrate']);

  const children: ChildProcess[] = [];
  const startWorkerGroup = (): WorkerGroup => {
    const child = spawn(process.execPath, [CLI, 'worker'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: a drill can signal the supervisor and its children together
    });
    child.stdout!.on('data', (d) => output.push(String(d)));
    child.stderr!.on('data', (d) => output.push(String(d)));
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const alive = () => child.exitCode === null && child.signalCode === null;
    return {
      pid: child.pid!,
      alive,
      stop: async (signal = 'SIGTERM') => {
        if (alive()) {
          child.kill(signal);
          setTimeout(() => alive() && process.kill(-child.pid!, 'SIGKILL'), 15_000).unref();
        }
        return exited;
      },
    };
  };

  const apis: ApiProcess[] = [];
  for (let i = 0; i < (options.apis ?? 1); i++)
    apis.push(await startApiProcess({ ...env, PORT: String(await freePort()) }));
  const workers = Array.from({ length: options.workerGroups ?? 0 }, startWorkerGroup);
  const pool = new pg.Pool({ connectionString: databaseUrl.toString(), max: 2 });
  pool.on('error', () => undefined); // a drill may restart PostgreSQL under it

  return {
    env,
    databaseUrl: databaseUrl.toString(),
    apis,
    workers,
    startWorkerGroup,
    cli: async <T>(args: string[]) => JSON.parse(await run(args)) as T,
    cliRun: (args, extra = {}) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [CLI, ...args], {
          cwd: ROOT,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, ...extra },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += String(d)));
        child.stderr.on('data', (d) => (stderr += String(d)));
        child.once('error', reject);
        child.once('exit', (code) => {
          output.push(stderr, stdout);
          resolve({ code, stdout, stderr });
        });
      }),
    logs: () => [...output, ...apis.map((a) => a.output())].join(''),
    sql: async <R extends pg.QueryResultRow>(text: string, params: unknown[] = []) =>
      (await pool.query<R>(text, params)).rows,
    stop: async () => {
      await Promise.allSettled(apis.map((a) => a.stop()));
      await Promise.allSettled(workers.map((w) => w.stop()));
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await pool.end().catch(() => undefined);
      const admin = new pg.Client({ connectionString: pgBase.toString() });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "seo_drill_${id}" WITH (FORCE)`);
      await admin.end();
      const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
      const keys = await redis.keys(`${prefix}:*`);
      for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
      redis.disconnect();
    },
  };
}
