import type { Queue } from 'bullmq';
import type { AppConfig } from '../platform/config.js';
import type { NativeDb } from '../platform/db/native-query.js';
import type { Logger } from '../platform/logger.js';
import { QUEUES, createQueue } from '../platform/queues.js';
import type { Redis } from '../platform/redis.js';
import { AlertFactsRepository } from './alert-facts.repository.js';

/**
 * The alert queue's jobs carry ids only (STYLE: XxxJobData); secrets and payloads stay in PostgreSQL. `deliver` is one
 * attempt of an owed delivery (alert_delivery: a webhook or an alert e-mail); `deliver-webhook` and `send-alert-email`
 * are jobs queued before deliveries were recorded, adopted into the outbox when they run.
 */
export type AlertJobData =
  | { kind: 'evaluate-audit'; auditId: string }
  | { kind: 'evaluate-rank'; projectId: string }
  | { kind: 'deliver'; deliveryId: string; attempt: number }
  | { kind: 'deliver-webhook'; eventId: string; endpointId: string; manual?: boolean }
  | { kind: 'send-alert-email'; eventId: string; userId: string }
  | { kind: 'weekly-digest' }
  | { kind: 'send-digest'; userId: string; until: string };

export type AlertQueue = Queue<AlertJobData>;

export const DIGEST_SCHEDULER_ID = 'alert-weekly-digest';

const kept = { removeOnComplete: { age: 24 * 3600, count: 5000 }, removeOnFail: { age: 7 * 24 * 3600 } };

/** Retries with exponential backoff from `retryDelayMs` (ALERT_RETRY_DELAY_MS). */
export const alertRetryOptions = (attempts: number, retryDelayMs: number) => ({
  attempts,
  backoff: { type: 'exponential' as const, delay: retryDelayMs },
  ...kept,
});

/** The job id of a completed audit's evaluation: one job per audit, however often its completion is reported. */
export const evaluationJobId = (auditId: string) => `evaluate-audit-${auditId}`;

/** The job id of attempt `attempt` of an owed delivery: the queue's and the reconciler's job for it are one. */
export const deliveryJobId = (deliveryId: string, attempt: number) => `alert-delivery-${deliveryId}-${attempt}`;

/**
 * A finished audit's alerts, evaluated by an alert worker; once per audit (the job id, and the audit's
 * alert_evaluation row, which the evaluation claims).
 */
export async function enqueueAuditEvaluation(queue: AlertQueue, auditId: string, retryDelayMs: number): Promise<void> {
  await queue.add(
    'evaluate-audit',
    { kind: 'evaluate-audit', auditId },
    { ...alertRetryOptions(3, retryDelayMs), jobId: evaluationJobId(auditId) },
  );
}

/**
 * Attempt `attempt` of an owed delivery, after `delayMs`. The job's own retries are for an outage that stopped it
 * before it could record its attempt; the delivery's retries are the outbox's (a new job per attempt).
 */
export async function enqueueDelivery(
  queue: AlertQueue,
  delivery: { deliveryId: string; attempt: number; delayMs?: number },
  retryDelayMs: number,
): Promise<string> {
  const jobId = deliveryJobId(delivery.deliveryId, delivery.attempt);
  await queue.add(
    'deliver',
    { kind: 'deliver', deliveryId: delivery.deliveryId, attempt: delivery.attempt },
    { ...alertRetryOptions(3, retryDelayMs), jobId, delay: Math.max(0, Math.round(delivery.delayMs ?? 0)) },
  );
  return jobId;
}

/**
 * A project's rank alerts, `settleMs` after its latest keyword check: each check pushes the evaluation back (BullMQ
 * debounce), so a run of many keywords is evaluated once, after its last check.
 */
export async function enqueueRankEvaluation(
  queue: AlertQueue,
  projectId: string,
  settleMs: number,
  retryDelayMs: number,
): Promise<void> {
  await queue.add(
    'evaluate-rank',
    { kind: 'evaluate-rank', projectId },
    {
      ...alertRetryOptions(3, retryDelayMs),
      delay: settleMs,
      deduplication: { id: `evaluate-rank-${projectId}`, ttl: Math.max(settleMs, 1), extend: true, replace: true },
    },
  );
}

/**
 * The weekly digest, as a BullMQ job scheduler: upserting is idempotent by scheduler id, so every alert worker
 * (re)registers it at start and exactly one schedule exists (with the pattern of the latest start).
 */
export async function scheduleWeeklyDigest(queue: AlertQueue, pattern: string): Promise<void> {
  await queue.upsertJobScheduler(
    DIGEST_SCHEDULER_ID,
    { pattern, tz: 'UTC' },
    { name: 'weekly-digest', data: { kind: 'weekly-digest' }, opts: kept },
  );
}

/**
 * What the audit and rank workers call when their work finishes: the evaluation goes to the alert queue (an alert
 * worker runs it). Never rejects: an alert that could not be queued is logged, and the audit or check stands. A
 * completed audit's evaluation is owed in PostgreSQL already (its alert_evaluation row): when the queue cannot take
 * the job, the alert workers' reconciler queues it once Redis is back (late, not lost).
 */
export interface AlertTriggers {
  auditCompleted(auditId: string): Promise<void>;
  keywordChecked(keywordId: string): Promise<void>;
  close(): Promise<void>;
}

export function createAlertTriggers(opts: {
  redis: Redis;
  db: NativeDb;
  config: Pick<AppConfig, 'REDIS_PREFIX' | 'ALERT_RETRY_DELAY_MS' | 'ALERT_RANK_SETTLE_MS'>;
  logger: Logger;
  onError: (err: Error) => void;
}): AlertTriggers {
  const { config, logger } = opts;
  const queue = createQueue<AlertJobData>(QUEUES.alert, opts.redis, config.REDIS_PREFIX, opts.onError);
  const factsRepo = new AlertFactsRepository();
  const logged = (what: string, ids: Record<string, string>) => (err: unknown) =>
    logger.warn({ ...ids, err }, `${what}: alerts not evaluated`);
  return {
    auditCompleted: (auditId) =>
      enqueueAuditEvaluation(queue, auditId, config.ALERT_RETRY_DELAY_MS).catch((err: unknown) =>
        logger.warn(
          { auditId, err },
          'audit completed: its alerts are owed in PostgreSQL and evaluated once the alert queue is back',
        ),
      ),
    keywordChecked: async (keywordId) => {
      try {
        const projectId = await factsRepo.projectOfKeyword(opts.db, keywordId);
        if (projectId)
          await enqueueRankEvaluation(queue, projectId, config.ALERT_RANK_SETTLE_MS, config.ALERT_RETRY_DELAY_MS);
      } catch (err) {
        logged('keyword checked', { keywordId })(err);
      }
    },
    close: () => queue.close(),
  };
}
