import type { Queue } from 'bullmq';

/** Rank queue jobs carry ids only (STYLE: XxxJobData). Competitor profiles have their own queue (src/competitors). */
export type RankJobData = { kind: 'check-project'; projectId: string } | { kind: 'check-keyword'; keywordId: string };

export const dailySchedulerId = (projectId: string) => `rank-daily-${projectId}`;

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
  await queue.upsertJobScheduler(
    dailySchedulerId(projectId),
    { pattern: dailyRankPattern(projectId), tz: 'UTC' },
    { name: 'check-project', data: { kind: 'check-project', projectId } },
  );
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
