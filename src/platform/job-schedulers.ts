import type { JobSchedulerTemplateOptions, Queue } from 'bullmq';
import { isInfrastructureFailure } from './infra-errors.js';
import type { Logger } from './logger.js';

/**
 * BullMQ job schedulers kept equal to what PostgreSQL says (docs/operations.md: schedules are rows there; Redis holds
 * their working copy). A Redis that restarted empty has lost every scheduler: each worker process re-creates the
 * missing ones at start and every SCHEDULE_RECONCILE_MS, and removes those whose reason is gone (project deleted,
 * schedule OFF, no keyword left). Running it in N processes at once is safe: upserting a scheduler is idempotent
 * by id, and a run's exactly-once is its owner's business (audits claim a slot row).
 */

/** One scheduler as it should be. */
export interface DesiredJobScheduler<T> {
  id: string;
  repeat: { pattern: string; tz: string };
  name: string;
  data: T;
  opts?: JobSchedulerTemplateOptions;
}

export interface ReconcileReport {
  /** Missing from Redis (or never registered): created. */
  created: string[];
  /** Present with another pattern or time zone: replaced. */
  updated: string[];
  /** Present without a reason: removed. */
  removed: string[];
  /** Present as they should be: left alone. */
  kept: number;
}

const PAGE = 1_000;

/**
 * Makes the queue's schedulers whose id starts with `idPrefix` exactly `desired`. A scheduler that is already right is
 * not upserted again: re-registering one removes its next job while it waits for a worker, and the run is then lost.
 */
export async function reconcileJobSchedulers<T>(
  queue: Queue<T>,
  idPrefix: string,
  desired: readonly DesiredJobScheduler<T>[],
): Promise<ReconcileReport> {
  // BullMQ derives the job name's type from the data's, which it cannot for a generic T: names are plain strings here.
  const untyped: Queue = queue;
  const existing = new Map<string, { pattern?: string | null; tz?: string | null }>();
  for (let start = 0; ; start += PAGE) {
    const page = await queue.getJobSchedulers(start, start + PAGE - 1, true);
    for (const s of page) if (s.key.startsWith(idPrefix)) existing.set(s.key, s);
    if (page.length < PAGE) break;
  }
  const report: ReconcileReport = { created: [], updated: [], removed: [], kept: 0 };
  const wanted = new Set<string>();
  for (const d of desired) {
    wanted.add(d.id);
    const current = existing.get(d.id);
    if (current && current.pattern === d.repeat.pattern && (current.tz ?? null) === d.repeat.tz) {
      report.kept++;
      continue;
    }
    await untyped.upsertJobScheduler(d.id, d.repeat, { name: d.name, data: d.data, opts: d.opts });
    (current ? report.updated : report.created).push(d.id);
  }
  for (const id of existing.keys()) {
    if (wanted.has(id)) continue;
    await queue.removeJobScheduler(id);
    report.removed.push(id);
  }
  return report;
}

/**
 * Runs `reconcile` now and every `intervalMs` (never two at once) until the returned stop function is called. Failures
 * are logged, never thrown; an outage of PostgreSQL or Redis is the dependency monitor's to report, so it is logged at
 * debug level only and the next round tries again.
 */
export function startReconciling(
  what: string,
  reconcile: () => Promise<ReconcileReport>,
  intervalMs: number,
  logger: Logger,
): { stop: () => void; first: Promise<void> } {
  let running: Promise<void> | null = null;
  const round = (): Promise<void> => {
    running ??= reconcile()
      .then((r) => {
        const changed = r.created.length + r.updated.length + r.removed.length;
        const report = {
          created: r.created.length,
          updated: r.updated.length,
          removed: r.removed.length,
          kept: r.kept,
        };
        if (changed) logger.info(report, `${what} schedules reconciled`);
        else logger.debug(report, `${what} schedules reconciled`);
      })
      .catch((err: unknown) => {
        if (isInfrastructureFailure(err)) logger.debug({ err }, `${what} schedules not reconciled (outage)`);
        else logger.error({ err }, `${what} schedules not reconciled`);
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const first = round();
  const timer = intervalMs > 0 ? setInterval(() => void round(), intervalMs) : null;
  timer?.unref();
  return { stop: () => timer && clearInterval(timer), first };
}
