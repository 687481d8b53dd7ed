import type { NativeDb } from '../platform/db/native-query.js';
import { infrastructureFailure, isInfrastructureFailure } from '../platform/infra-errors.js';
import type { Logger } from '../platform/logger.js';
import { newId } from '../platform/ids.js';
import { AlertOutboxRepository, type DeliverySettlement, type OwedDelivery } from './alert-outbox.repository.js';
import {
  deliveryJobId,
  enqueueDelivery,
  enqueueAuditEvaluation,
  evaluationJobId,
  type AlertQueue,
} from './alert-jobs.js';
import type { AlertMailRunner } from './alert-mail.runner.js';
import type { DeliveryOutcome, WebhookDeliveryRunner } from './webhook-delivery.runner.js';

export interface AlertOutboxOptions {
  /** ALERT_RETRY_DELAY_MS: the delay before attempt 2, doubling after each failed attempt. */
  retryDelayMs: number;
  /** How long one attempt holds its delivery (not due meanwhile): the webhook timeout and a margin. */
  leaseMs: number;
  /** False without SMTP_URL: owed e-mails are skipped with that reason. */
  mailEnabled: boolean;
}

/** What one job of a delivery did. */
export type AttemptResult =
  | { status: 'NOT_CLAIMED' }
  | { status: 'DELIVERED' | 'SKIPPED' | 'ABANDONED' | 'RETRYING'; attempt: number; detail?: string };

export interface AlertReconcileReport {
  /** Completed audits whose evaluation was owed and not in the queue: queued again. */
  evaluations: number;
  /** Owed delivery attempts not in the queue: queued again. */
  deliveries: number;
  /** Owed work found in the queue (waiting, delayed or running): left alone. */
  kept: number;
}

/** Job states in which the queue will still run a job. */
const LIVE_STATES = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);
/** Owed items the reconciler looks at per round, of each kind (the rest in the next round). */
const RECONCILE_BATCH = 500;

/**
 * The alert outbox (DESIGN: PostgreSQL holds what is owed, Redis carries the work): each owed delivery is a row of
 * alert_delivery whose attempts are claimed one by one — a guarded update on the attempt number, so two jobs for the
 * same attempt make one and a delivered alert is never sent again by a retry — and each completed audit's evaluation
 * a row of alert_evaluation. `attempt` runs one attempt and queues the next (delayed, doubling from
 * ALERT_RETRY_DELAY_MS) or records why the delivery was given up; `reconcile` queues whatever is owed and due but not
 * in the queue (Redis was down when it was due, or lost its data), as the schedules' reconciler does for schedulers.
 * A crash between an endpoint's 2xx and its record can send that attempt again: receivers drop duplicates by
 * X-Event-Id.
 */
export class AlertOutbox {
  constructor(
    private readonly db: NativeDb,
    private readonly queue: AlertQueue,
    private readonly webhooks: WebhookDeliveryRunner,
    private readonly mails: AlertMailRunner,
    private readonly options: AlertOutboxOptions,
    private readonly logger: Logger,
    private readonly outboxRepo = new AlertOutboxRepository(),
  ) {}

  /** Attempt `attempt` of a delivery, once: claimed, sent, recorded, and the next one queued or the end recorded. */
  async attempt(deliveryId: string, attempt: number): Promise<AttemptResult> {
    const claimed = await this.outboxRepo.claimDelivery(this.db, deliveryId, attempt, this.options.leaseMs);
    if (!claimed) return { status: 'NOT_CLAIMED' };
    if (claimed.attempts > claimed.maxAttempts) {
      // The last allowed attempt was claimed and never recorded its end (its worker or the database went away).
      const reason = `Gave up after ${claimed.maxAttempts} attempts; the last one did not finish.`;
      await this.settle(claimed, attempt, { state: 'ABANDONED', reason, lastError: null });
      return { status: 'ABANDONED', attempt, detail: reason };
    }
    let outcome: DeliveryOutcome;
    try {
      outcome = await this.send(claimed, attempt);
    } catch (err) {
      const dependency = infrastructureFailure(err);
      // PostgreSQL or Redis: the attempt's end cannot be recorded; its lease runs out and the reconciler queues the
      // next attempt.
      if (dependency === 'postgres' || dependency === 'redis') throw err;
      outcome = { status: 'FAILED', retry: true, error: err instanceof Error ? err.message : String(err) };
    }
    if (outcome.status === 'DELIVERED') {
      await this.settle(claimed, attempt, { state: 'DELIVERED' });
      return { status: 'DELIVERED', attempt };
    }
    if (outcome.status === 'SKIPPED') {
      await this.settle(claimed, attempt, { state: 'SKIPPED', reason: outcome.reason, lastError: null });
      return { status: 'SKIPPED', attempt, detail: outcome.reason };
    }
    if (!outcome.retry || attempt >= claimed.maxAttempts) {
      const attempts = `${claimed.maxAttempts} attempt${claimed.maxAttempts === 1 ? '' : 's'}`;
      const reason = !outcome.retry
        ? `Not retried: ${outcome.error}`
        : `Gave up after ${attempts}; the last: ${outcome.error}`;
      await this.settle(claimed, attempt, { state: 'ABANDONED', reason, lastError: outcome.error });
      this.logger.warn(
        { deliveryId, eventId: claimed.eventId, channel: claimed.channel, attempt, reason },
        'alert delivery abandoned',
      );
      return { status: 'ABANDONED', attempt, detail: reason };
    }
    const retryInMs = this.options.retryDelayMs * 2 ** (attempt - 1);
    if (!(await this.settle(claimed, attempt, { state: 'PENDING', retryInMs, lastError: outcome.error })))
      return { status: 'NOT_CLAIMED' };
    await this.queueAttempt(deliveryId, attempt + 1, retryInMs);
    return { status: 'RETRYING', attempt, detail: outcome.error };
  }

  private async send(d: OwedDelivery, attempt: number): Promise<DeliveryOutcome> {
    if (d.channel === 'WEBHOOK') {
      return this.webhooks.deliver(
        { eventId: d.eventId, endpointId: d.endpointId!, manual: d.manual, deliveryId: d.id },
        attempt,
      );
    }
    if (!this.options.mailEnabled) return { status: 'SKIPPED', reason: 'SMTP_URL is not configured' };
    const sent = await this.mails.sendAlert(d.eventId, d.userId!);
    return sent === 'sent'
      ? { status: 'DELIVERED', statusCode: 250 }
      : { status: 'SKIPPED', reason: 'the member no longer wants alert e-mails of this project, or left it' };
  }

  private settle(d: OwedDelivery, attempt: number, s: DeliverySettlement): Promise<boolean> {
    return this.outboxRepo.settleDelivery(this.db, d.id, attempt, s);
  }

  /** Queues an attempt; the queue refusing it (Redis down) leaves it to the reconciler, as owed. */
  async queueAttempt(deliveryId: string, attempt: number, delayMs = 0): Promise<string> {
    const jobId = deliveryJobId(deliveryId, attempt);
    try {
      await enqueueDelivery(this.queue, { deliveryId, attempt, delayMs }, this.options.retryDelayMs);
    } catch (err) {
      if (!isInfrastructureFailure(err)) throw err;
      this.logger.warn(
        { deliveryId, attempt, err },
        'alert delivery owed; the reconciler queues it once Redis is back',
      );
    }
    return jobId;
  }

  /**
   * A job queued before deliveries were recorded (an upgrade with jobs in the queue): the delivery is owed as any
   * other (found again when the alert already has one to that recipient), then its next attempt runs here.
   */
  async adopt(
    legacy: { eventId: string; endpointId: string | null; userId: string | null; manual: boolean },
    maxAttempts: number,
  ): Promise<AttemptResult> {
    const channel = legacy.endpointId ? 'WEBHOOK' : 'EMAIL';
    const [inserted] = await this.outboxRepo.insertOwedDeliveries(this.db, [
      { id: newId(), ...legacy, channel, maxAttempts: legacy.manual ? 1 : maxAttempts },
    ]);
    const owed = inserted ?? (legacy.manual ? undefined : await this.outboxRepo.owedDeliveryOf(this.db, legacy));
    if (!owed) return { status: 'NOT_CLAIMED' };
    return this.attempt(owed.id, owed.attempts + 1);
  }

  /**
   * Queues what PostgreSQL says is owed and has been due for `graceMs` but the queue does not hold: an evaluation
   * under its job id, a delivery's next attempt under its attempt's job id. A job the queue still runs is left alone;
   * one it finished or failed without the row moving on (an outage, a race) is replaced. Safe in N processes at once:
   * the job ids dedupe, and the claims make one run of whatever is queued twice.
   */
  async reconcile(graceMs: number): Promise<AlertReconcileReport> {
    const due = await this.outboxRepo.dueWork(this.db, graceMs, RECONCILE_BATCH);
    const report: AlertReconcileReport = { evaluations: 0, deliveries: 0, kept: 0 };
    for (const e of due.evaluations) {
      if (!(await this.replaceable(evaluationJobId(e.auditId)))) {
        report.kept++;
        continue;
      }
      await enqueueAuditEvaluation(this.queue, e.auditId, this.options.retryDelayMs);
      report.evaluations++;
    }
    for (const d of due.deliveries) {
      if (!(await this.replaceable(deliveryJobId(d.id, d.attempts + 1)))) {
        report.kept++;
        continue;
      }
      await enqueueDelivery(this.queue, { deliveryId: d.id, attempt: d.attempts + 1 }, this.options.retryDelayMs);
      report.deliveries++;
    }
    return report;
  }

  /** True when no job of this id will run (missing, or finished): a finished one is removed to make room. */
  private async replaceable(jobId: string): Promise<boolean> {
    const job = await this.queue.getJob(jobId);
    if (!job) return true;
    const state = await job.getState();
    if (LIVE_STATES.has(state)) return false;
    await job.remove();
    return true;
  }

  /**
   * Reconciles now and every `intervalMs` (never two rounds at once; 0: at start only) until stopped, with a grace
   * of `intervalMs`. Failures are logged, never thrown; an outage is the dependency monitor's to report.
   */
  startReconciling(intervalMs: number): { stop: () => void; first: Promise<void> } {
    let running: Promise<void> | null = null;
    const graceMs = intervalMs;
    const round = (): Promise<void> => {
      running ??= this.reconcile(graceMs)
        .then((r) => {
          if (r.evaluations || r.deliveries)
            this.logger.info(r, 'owed alerts queued again (reconciled with PostgreSQL)');
          else this.logger.debug(r, 'alerts reconciled');
        })
        .catch((err: unknown) => {
          if (isInfrastructureFailure(err)) this.logger.debug({ err }, 'alerts not reconciled (outage)');
          else this.logger.error({ err }, 'alerts not reconciled');
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
}
