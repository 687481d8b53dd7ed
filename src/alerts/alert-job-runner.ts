import { UnrecoverableError } from 'bullmq';
import type { AppConfig } from '../platform/config.js';
import type { NativeDb } from '../platform/db/native-query.js';
import type { Logger } from '../platform/logger.js';
import type { Mailer } from '../platform/mail.js';
import { createAddressPolicy, parseAllowList, type SafeHttpClient } from '../platform/safe-http/index.js';
import { AlertEvaluationRunner, EMAIL_ATTEMPTS } from './alert-evaluation.runner.js';
import { AlertOutbox } from './alert-outbox.js';
import { AlertFactsReader, type AuditFactsProvider } from './alert-facts-reader.js';
import { alertRetryOptions, type AlertJobData, type AlertQueue } from './alert-jobs.js';
import { AlertMailRunner } from './alert-mail.runner.js';
import type { PoorBound } from './alert-vitals.js';
import { UnsubscribeTokens } from './unsubscribe-token.js';
import { WebhookDeliveryRunner } from './webhook-delivery.runner.js';
import { WebhookSecretBox, webhookKeyMaterial } from './webhook-secret.js';

/** What a job handler reads of a BullMQ job. */
export interface AlertJob {
  data: AlertJobData;
  /** Attempts made before this one. */
  attemptsMade: number;
  /** When the job was created (a scheduled digest: when the schedule fired). */
  timestamp: number;
}

/**
 * The alert queue's jobs, by kind: evaluations, attempts of owed deliveries (webhooks and alert e-mails: each attempt
 * is recorded in PostgreSQL, and the next one queued by the outbox, not by BullMQ's retries), and the weekly digest
 * (fanned out to one job per user and week).
 */
export class AlertJobRunner {
  constructor(
    private readonly queue: AlertQueue,
    private readonly evaluation: AlertEvaluationRunner,
    readonly outbox: AlertOutbox,
    private readonly mails: AlertMailRunner,
    private readonly mailer: Pick<Mailer, 'enabled'>,
    private readonly options: { retryDelayMs: number; webhookAttempts: number },
  ) {}

  async run(job: AlertJob): Promise<unknown> {
    const data = job.data;
    switch (data.kind) {
      case 'evaluate-audit':
        return this.evaluation.evaluateAudit(data.auditId);
      case 'evaluate-rank':
        return this.evaluation.evaluateRank(data.projectId);
      case 'deliver':
        return this.outbox.attempt(data.deliveryId, data.attempt);
      case 'deliver-webhook':
        return this.outbox.adopt(
          { eventId: data.eventId, endpointId: data.endpointId, userId: null, manual: data.manual ?? false },
          this.options.webhookAttempts,
        );
      case 'send-alert-email':
        return this.outbox.adopt(
          { eventId: data.eventId, endpointId: null, userId: data.userId, manual: false },
          EMAIL_ATTEMPTS,
        );
      case 'weekly-digest': {
        if (!this.mailer.enabled) return { users: 0, reason: 'SMTP_URL is not configured' };
        // The week ends when the schedule fired; one digest per user and week, however often this job runs.
        const until = new Date(job.timestamp).toISOString();
        const users = await this.mails.digestRecipients();
        await this.queue.addBulk(
          users.map((userId) => ({
            name: 'send-digest',
            data: { kind: 'send-digest' as const, userId, until },
            opts: { ...alertRetryOptions(3, this.options.retryDelayMs), jobId: `digest-${userId}-${job.timestamp}` },
          })),
        );
        return { users: users.length };
      }
      case 'send-digest':
        if (!this.mailer.enabled) return { status: 'skipped', reason: 'SMTP_URL is not configured' };
        return { status: await this.mails.sendDigest(data.userId, new Date(data.until)) };
      default:
        throw new UnrecoverableError(`unknown alert job ${JSON.stringify(data)}`);
    }
  }
}

/** An attempt holds its delivery for the webhook timeout and this much more before another may be made. */
const DELIVERY_LEASE_MARGIN_MS = 60_000;

export type AlertWorkerConfig = Pick<
  AppConfig,
  | 'baseUrl'
  | 'SAFE_HTTP_ALLOW'
  | 'authSecret'
  | 'WEBHOOK_SECRET_KEY'
  | 'ALERT_WEBHOOK_ATTEMPTS'
  | 'ALERT_RETRY_DELAY_MS'
  | 'ALERT_WEBHOOK_TIMEOUT_MS'
>;

/**
 * The alert worker's job runner from its parts: the database, the alert queue (fan-out), the safe HTTP client, the
 * mailer, and the audit facts provider (by default the scores and vitals this module reads itself).
 */
export function createAlertJobRunner(opts: {
  db: NativeDb;
  queue: AlertQueue;
  http: SafeHttpClient;
  mailer: Mailer;
  logger: Logger;
  config: AlertWorkerConfig;
  poorBounds: readonly PoorBound[];
  auditFacts?: AuditFactsProvider;
}): AlertJobRunner {
  const { db, queue, config, logger, mailer } = opts;
  const reader = new AlertFactsReader(opts.poorBounds);
  const auditFacts = opts.auditFacts ?? ((conn, auditId) => reader.auditFacts(conn, auditId));
  const keys = webhookKeyMaterial(config);
  const evaluation = new AlertEvaluationRunner(
    db,
    queue,
    auditFacts,
    reader,
    {
      baseUrl: config.baseUrl,
      mailEnabled: mailer.enabled,
      webhookAttempts: config.ALERT_WEBHOOK_ATTEMPTS,
      retryDelayMs: config.ALERT_RETRY_DELAY_MS,
    },
    logger,
  );
  const deliveries = new WebhookDeliveryRunner(
    db,
    opts.http,
    new WebhookSecretBox(keys),
    createAddressPolicy(parseAllowList(config.SAFE_HTTP_ALLOW.join(','))),
    { timeoutMs: config.ALERT_WEBHOOK_TIMEOUT_MS },
    logger,
  );
  const mails = new AlertMailRunner(db, mailer, auditFacts, new UnsubscribeTokens(keys), { baseUrl: config.baseUrl });
  const outbox = new AlertOutbox(
    db,
    queue,
    deliveries,
    mails,
    {
      retryDelayMs: config.ALERT_RETRY_DELAY_MS,
      leaseMs: config.ALERT_WEBHOOK_TIMEOUT_MS + DELIVERY_LEASE_MARGIN_MS,
      mailEnabled: mailer.enabled,
    },
    logger,
  );
  return new AlertJobRunner(queue, evaluation, outbox, mails, mailer, {
    retryDelayMs: config.ALERT_RETRY_DELAY_MS,
    webhookAttempts: config.ALERT_WEBHOOK_ATTEMPTS,
  });
}
