import type { Queue } from 'bullmq';
import { rankJobOptions } from '../keywords/index.js';

/**
 * Competitor queue jobs carry ids only (STYLE: XxxJobData). A profile fetches and analyses one homepage: no SERP
 * provider call, so the queue has its own concurrency (COMPETITOR_CONCURRENCY) and no provider rate limit.
 */
export type CompetitorJobData = { kind: 'competitor-profile'; competitorId: string };

export type CompetitorQueue = Queue<CompetitorJobData>;

/** One job per competitor (a second add while one waits is a no-op); retried as rank jobs are (4 attempts). */
export async function enqueueCompetitorProfile(
  queue: CompetitorQueue,
  competitorId: string,
  retryDelayMs: number,
): Promise<void> {
  const data: CompetitorJobData = { kind: 'competitor-profile', competitorId };
  await queue.add('competitor-profile', data, { ...rankJobOptions(retryDelayMs), jobId: `profile-${competitorId}` });
}
