import type { Queue } from 'bullmq';
import type { NativeDb } from '../platform/db/native-query.js';
import { reconcileJobSchedulers, type DesiredJobScheduler, type ReconcileReport } from '../platform/job-schedulers.js';
import { KeywordRepository } from './keyword.repository.js';

/** Rank queue jobs carry ids only (STYLE: XxxJobData). Competitor profiles have their own queue (src/competitors). */
export type RankJobData = { kind: 'check-project'; projectId: string } | { kind: 'check-keyword'; keywordId: string };

/** Every daily rank scheduler's id starts with this (the reconciler owns those on the rank queue). */
export const RANK_SCHEDULER_PREFIX = 'rank-daily-';
export const dailySchedulerId = (projectId: string) => `${RANK_SCHEDULER_PREFIX}${projectId}`;

export type RankQueue = Queue<RankJobData>;

/**
 * A daily cron time (UTC) derived from the project id, so projects' checks spread over the day instead of all
 * hitting the provider at midnight. A cron pattern (unlike `every`) never fires at registration.
 */
export function dailyRankPattern(projectId: string): string {
  let hash = 0;
  for (const ch of projectId) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return `${hash % 60} ${Math.floor(hash / 60) % 24} * * *`;
}

/**
 * The daily rank check of a project, as a BullMQ job scheduler. Upserting is idempotent by scheduler id,
 * so every process may (re)register it at start and exactly one schedule exists.
 */
export async function scheduleDailyRankCheck(queue: RankQueue, projectId: string): Promise<void> {
  const { id, repeat, name, data } = dailyRankScheduler(projectId);
  await queue.upsertJobScheduler(id, repeat, { name, data });
}

/** The daily rank check of a project as a job scheduler (for the reconciler and the upsert above alike). */
export function dailyRankScheduler(projectId: string): DesiredJobScheduler<RankJobData> {
  return {
    id: dailySchedulerId(projectId),
    repeat: { pattern: dailyRankPattern(projectId), tz: 'UTC' },
    name: 'check-project',
    data: { kind: 'check-project', projectId },
  };
}

/**
 * The rank queue's daily schedulers made equal to the projects that have keywords (src/platform/job-schedulers.ts):
 * re-created after Redis lost them, removed once a project has no keyword left or is gone.
 */
export async function reconcileRankSchedules(
  queue: RankQueue,
  db: NativeDb,
  repo = new KeywordRepository(),
): Promise<ReconcileReport> {
  const projectIds = await repo.projectIdsWithKeywords(db);
  return reconcileJobSchedulers(queue, RANK_SCHEDULER_PREFIX, projectIds.map(dailyRankScheduler));
}

export async function unscheduleDailyRankCheck(queue: RankQueue, projectId: string): Promise<void> {
  await queue.removeJobScheduler(dailySchedulerId(projectId));
}

/** Retries with exponential backoff from `retryDelayMs` (SERP_RETRY_DELAY_MS): 4 attempts in all. */
export const rankJobOptions = (retryDelayMs: number) => ({
  attempts: 4,
  backoff: { type: 'exponential' as const, delay: retryDelayMs },
  removeOnComplete: { age: 24 * 3600, count: 5000 },
  removeOnFail: { age: 7 * 24 * 3600 },
});
