import type { Redis } from 'ioredis';
import { QUEUES, createQueue, type Queue } from './queues.js';
import type { NativeDb } from './db/native-query.js';
import { appliedMigrations, pingDatabase } from './db/health.js';
import { MIGRATION_NAMES } from './db/migrations/names.js';
import { readSharedMetrics } from './shared-metrics.js';

/** A check that does not answer within this is failed: a scrape or a probe never hangs on a stalled dependency. */
const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, what: string, ms = CHECK_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const reason = (err: unknown) => (err instanceof Error ? err.message.split('\n')[0].slice(0, 200) : String(err));

export type ReadinessCheck = { ok: true } | { ok: false; error: string };
export interface Readiness {
  ready: boolean;
  checks: { postgres: ReadinessCheck; redis: ReadinessCheck; migrations: ReadinessCheck };
}

/** Migrations this build knows that the database has not applied (an API must not serve an old schema). */
export async function pendingMigrations(db: NativeDb): Promise<string[]> {
  const applied = await appliedMigrations(db);
  return MIGRATION_NAMES.filter((n) => !applied.has(n));
}

/** Readiness of an API process: PostgreSQL answers, Redis answers, every migration of this build is applied. */
export async function checkReadiness(deps: { db: NativeDb; redis: Redis }): Promise<Readiness> {
  const settle = async (what: string, fn: () => Promise<string | null>): Promise<ReadinessCheck> => {
    try {
      const problem = await withTimeout(fn(), what);
      return problem ? { ok: false, error: problem } : { ok: true };
    } catch (err) {
      return { ok: false, error: reason(err) };
    }
  };
  const [postgres, redis] = await Promise.all([
    settle('PostgreSQL', async () => (await pingDatabase(deps.db), null)),
    settle('Redis', async () => ((await deps.redis.ping()) === 'PONG' ? null : 'unexpected answer to PING')),
  ]);
  const migrations = postgres.ok
    ? await settle('PostgreSQL', async () => {
        const pending = await pendingMigrations(deps.db);
        return pending.length ? `${pending.length} pending: ${pending.join(', ')} (run \`seo migrate\`)` : null;
      })
    : ({ ok: false, error: 'not checked: PostgreSQL is unavailable' } as const);
  return { ready: postgres.ok && redis.ok && migrations.ok, checks: { postgres, redis, migrations } };
}

const AUDIT_STATUSES = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'];
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * The platform-wide metrics an API process serves at /metrics, read when scraped: queue depths from BullMQ,
 * audits by status from PostgreSQL, and the counters every process adds to Redis (shared-metrics.ts). Workers
 * expose nothing themselves, so one scrape of any API process shows the whole deployment. A source that fails
 * is reported by `seo_metrics_source_up` and its series are left out; the scrape itself still succeeds.
 */
export class ClusterMetrics {
  private readonly queues: Queue<unknown>[];

  /** `onError`: the 'error' events of the queues read (on the shared connection, so an outage emits them too). */
  constructor(
    private readonly deps: {
      /** Audits by status (the audits module's repository answers it). */
      auditsByStatus: () => Promise<{ status: string; n: number }[]>;
      redis: Redis;
      prefix: string;
      onError: (err: Error) => void;
    },
  ) {
    this.queues = Object.values(QUEUES).map((name) =>
      createQueue<unknown>(name, deps.redis, deps.prefix, deps.onError),
    );
  }

  async render(): Promise<string> {
    const [queues, audits, shared] = await Promise.allSettled([
      withTimeout(this.queueDepths(), 'Redis'),
      withTimeout(this.auditsByStatus(), 'PostgreSQL'),
      withTimeout(readSharedMetrics(this.deps.redis, this.deps.prefix), 'Redis'),
    ]);
    const out: string[] = [];
    out.push('# HELP seo_queue_jobs Jobs in each BullMQ queue by state.', '# TYPE seo_queue_jobs gauge');
    if (queues.status === 'fulfilled') out.push(...queues.value);
    out.push(
      '# HELP seo_audits Audits in the database by status (COMPLETED, FAILED and CANCELLED are final).',
      '# TYPE seo_audits gauge',
    );
    if (audits.status === 'fulfilled') out.push(...audits.value);
    out.push(
      '# HELP seo_metrics_source_up Whether a source of these metrics answered the scrape (1) or not (0).',
      '# TYPE seo_metrics_source_up gauge',
    );
    out.push(`seo_metrics_source_up{source="bullmq"} ${queues.status === 'fulfilled' ? 1 : 0}`);
    out.push(`seo_metrics_source_up{source="postgres"} ${audits.status === 'fulfilled' ? 1 : 0}`);
    out.push(`seo_metrics_source_up{source="redis_counters"} ${shared.status === 'fulfilled' ? 1 : 0}`);
    return `${out.join('\n')}\n${shared.status === 'fulfilled' ? shared.value : ''}`;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.queues.map((q) => q.close()));
  }

  private async queueDepths(): Promise<string[]> {
    const lines: string[] = [];
    for (const queue of this.queues) {
      const counts = await queue.getJobCounts(...QUEUE_STATES);
      for (const state of QUEUE_STATES)
        lines.push(`seo_queue_jobs{queue="${queue.name}",state="${state}"} ${counts[state] ?? 0}`);
    }
    return lines;
  }

  private async auditsByStatus(): Promise<string[]> {
    const rows = await this.deps.auditsByStatus();
    const by = new Map(rows.map((r) => [r.status, r.n]));
    return [...new Set([...AUDIT_STATUSES, ...by.keys()])].map((s) => `seo_audits{status="${s}"} ${by.get(s) ?? 0}`);
  }
}
