import { createHash } from 'node:crypto';
import type { NativeDb, NativeTx } from '../platform/db/native-query.js';
import { isInfrastructureFailure } from '../platform/infra-errors.js';
import type { Logger } from '../platform/logger.js';
import { newId } from '../platform/ids.js';
import { AlertFactsRepository, type AlertProject } from './alert-facts.repository.js';
import { AlertOutboxRepository, type NewOwedDelivery, type OwedDelivery } from './alert-outbox.repository.js';
import { AlertRecipientRepository } from './alert-recipient.repository.js';
import { AlertRuleRepository } from './alert-rule.repository.js';
import { WebhookRepository } from './webhook.repository.js';
import type { AuditAlertFacts, RankAlertFacts } from './alert-facts.js';
import type { AlertFactsReader, AuditFactsProvider } from './alert-facts-reader.js';
import { alertRetryOptions, deliveryJobId, type AlertQueue } from './alert-jobs.js';
import { alertPayload } from './alert-payload.js';
import {
  AUDIT_RULE_KINDS,
  RANK_RULE_KINDS,
  evaluateAuditRules,
  evaluateRankRules,
  type AlertDraft,
  type AlertRule,
} from './alert-rules.js';

export interface AlertDispatchOptions {
  /** The web app's public address (links in payloads and e-mails). */
  baseUrl: string;
  /** False without SMTP_URL: the e-mail channel sends nothing (and says so in the log). */
  mailEnabled: boolean;
  webhookAttempts: number;
  retryDelayMs: number;
}

export interface EvaluationResult {
  /** Alerts raised by this evaluation (a retried one finds them already raised: 0). */
  raised: number;
  webhooks: number;
  emails: number;
}

const NOTHING: EvaluationResult = { raised: 0, webhooks: 0, emails: 0 };

/** Attempts of an alert e-mail. */
export const EMAIL_ATTEMPTS = 3;
/** Evaluations of an audit that may fail (not an outage: a fault of the evaluation) before it is given up. */
export const EVALUATION_ATTEMPTS = 5;

/**
 * Worker-side evaluation: the facts of a finished audit or rank check against the project's rules. Each alert is
 * recorded once per rule and subject (the audit, or the window of rank checks), with one owed delivery per webhook
 * endpoint and per opted-in member (alert_delivery), in one transaction; then each delivery's first attempt is queued.
 * A completed audit is evaluated once: its alert_evaluation row is claimed by that transaction and marked DONE in it.
 * Should the queue refuse the attempts (Redis down), the deliveries stay owed and the reconciler queues them.
 */
export class AlertEvaluationRunner {
  constructor(
    private readonly db: NativeDb,
    private readonly queue: AlertQueue,
    private readonly auditFacts: AuditFactsProvider,
    private readonly reader: AlertFactsReader,
    private readonly options: AlertDispatchOptions,
    private readonly logger: Logger,
    private readonly factsRepo = new AlertFactsRepository(),
    private readonly outboxRepo = new AlertOutboxRepository(),
    private readonly recipientRepo = new AlertRecipientRepository(),
    private readonly ruleRepo = new AlertRuleRepository(),
    private readonly webhookRepo = new WebhookRepository(),
  ) {}

  /**
   * A completed audit's alerts, once: null-safe against a second job, a reconciler's job or another worker (the
   * claim). An evaluation that throws for another reason than an outage is counted, and given up after
   * EVALUATION_ATTEMPTS with its error kept on the row.
   */
  async evaluateAudit(auditId: string): Promise<EvaluationResult> {
    let owed: OwedDelivery[] = [];
    let result: EvaluationResult | null;
    try {
      // Read before the claim: the comparison behind the facts uses connections of its own. No facts (the project's
      // first audit: nothing to compare with) is an evaluation too, done with nothing raised.
      const facts = await this.auditFacts(this.db, auditId);
      result = await this.outboxRepo.evaluateOnce(this.db, auditId, async (tx) => {
        if (!facts) return NOTHING;
        const raised = await this.raiseAuditFacts(tx, facts);
        owed = raised.owed;
        return raised.result;
      });
    } catch (err) {
      if (!isInfrastructureFailure(err)) {
        const message = err instanceof Error ? err.message : String(err);
        const left = await this.outboxRepo
          .evaluationFailed(this.db, auditId, message, EVALUATION_ATTEMPTS, this.options.retryDelayMs)
          .catch(() => undefined);
        this.logger.error({ auditId, err, state: left?.state, attempts: left?.attempts }, 'alert evaluation failed');
      }
      throw err;
    }
    if (result === null) return NOTHING;
    await this.queueFirstAttempts(owed);
    return result;
  }

  /** The facts given (tests, and providers the worker composes) rather than read; not claimed. */
  async evaluateAuditFacts(facts: AuditAlertFacts): Promise<EvaluationResult> {
    const { result, owed } = await this.outboxRepo.inTransaction(this.db, (tx) => this.raiseAuditFacts(tx, facts));
    await this.queueFirstAttempts(owed);
    return result;
  }

  private async raiseAuditFacts(tx: NativeTx, facts: AuditAlertFacts): Promise<Raised> {
    const rules = await this.ruleRepo.activeRules(tx, facts.projectId, AUDIT_RULE_KINDS);
    if (!rules.length) return { result: NOTHING, owed: [] };
    return this.raise(tx, facts.projectId, rules, evaluateAuditRules(rules, facts), `audit:${facts.auditId}`);
  }

  async evaluateRank(projectId: string): Promise<EvaluationResult> {
    const rules = await this.ruleRepo.activeRules(this.db, projectId, RANK_RULE_KINDS);
    const { moves, cannibalised, until } = await this.reader.rankFacts(this.db, projectId);
    if (!until) return NOTHING;
    const facts: RankAlertFacts = { projectId, moves, cannibalised };
    // The window's key: the checks it covers, so that evaluating the same window again raises nothing twice.
    const window = createHash('sha256')
      .update(moves.map((m) => `${m.keywordId}:${m.before}:${m.after}`).join(','))
      .update(cannibalised.map((c) => `${c.keywordId}:${c.urls.map((u) => u.url).join(' ')}`).join(','))
      .update(until.toISOString())
      .digest('base64url');
    const { result, owed } = rules.length
      ? await this.outboxRepo.inTransaction(this.db, (tx) =>
          this.raise(tx, projectId, rules, evaluateRankRules(rules, facts), `rank:${window}`),
        )
      : { result: NOTHING, owed: [] };
    await this.queueFirstAttempts(owed);
    await this.reader.advanceRankWatermark(this.db, projectId, until);
    return result;
  }

  private async raise(
    tx: NativeTx,
    projectId: string,
    rules: AlertRule[],
    drafts: AlertDraft[],
    subject: string,
  ): Promise<Raised> {
    if (!drafts.length) return { result: NOTHING, owed: [] };
    const project = await this.factsRepo.project(tx, projectId);
    if (!project) return { result: NOTHING, owed: [] };
    const result = { raised: 0, webhooks: 0, emails: 0 };
    const owed: OwedDelivery[] = [];
    for (const draft of drafts) {
      const rule = rules.find((r) => r.id === draft.ruleId)!;
      const event = { id: newId(), createdAt: new Date() };
      const recorded = await this.outboxRepo.insertEvent(tx, {
        ...event,
        projectId,
        ruleId: rule.id,
        kind: rule.kind,
        dedupeKey: subject,
        payload: alertPayload(event, project, rule, draft, this.options.baseUrl),
      });
      if (recorded.inserted) result.raised++;
      const added = await this.owe(tx, project, recorded.id, draft);
      owed.push(...added);
      const sent = {
        webhooks: added.filter((d) => d.channel === 'WEBHOOK').length,
        emails: added.filter((d) => d.channel === 'EMAIL').length,
      };
      result.webhooks += sent.webhooks;
      result.emails += sent.emails;
      this.logger.info(
        { projectId, ruleId: rule.id, kind: rule.kind, eventId: recorded.id, new: recorded.inserted, ...sent },
        'alert raised',
      );
    }
    return { result, owed };
  }

  /** One owed delivery per endpoint and per recipient; one already owed for the same alert is not added again. */
  private async owe(tx: NativeTx, project: AlertProject, eventId: string, draft: AlertDraft): Promise<OwedDelivery[]> {
    const rows: NewOwedDelivery[] = [];
    if (draft.channels.includes('WEBHOOK')) {
      for (const endpointId of await this.webhookRepo.enabledEndpointIds(tx, project.id)) {
        rows.push({
          id: newId(),
          eventId,
          channel: 'WEBHOOK',
          endpointId,
          userId: null,
          manual: false,
          maxAttempts: this.options.webhookAttempts,
        });
      }
    }
    if (draft.channels.includes('EMAIL')) {
      if (!this.options.mailEnabled) {
        this.logger.warn({ projectId: project.id, eventId }, 'alert e-mails not sent: SMTP_URL is not configured');
      } else {
        for (const r of await this.recipientRepo.immediateRecipients(tx, project.id)) {
          rows.push({
            id: newId(),
            eventId,
            channel: 'EMAIL',
            endpointId: null,
            userId: r.userId,
            manual: false,
            maxAttempts: EMAIL_ATTEMPTS,
          });
        }
      }
    }
    return this.outboxRepo.insertOwedDeliveries(tx, rows);
  }

  /** The first attempt of each new delivery, queued now; what the queue refuses waits for the reconciler. */
  private async queueFirstAttempts(owed: OwedDelivery[]): Promise<void> {
    if (!owed.length) return;
    try {
      await this.queue.addBulk(
        owed.map((d) => ({
          name: 'deliver',
          data: { kind: 'deliver' as const, deliveryId: d.id, attempt: 1 },
          opts: { ...alertRetryOptions(3, this.options.retryDelayMs), jobId: deliveryJobId(d.id, 1) },
        })),
      );
    } catch (err) {
      if (!isInfrastructureFailure(err)) throw err;
      this.logger.warn(
        { deliveries: owed.length, err },
        'alert deliveries owed in PostgreSQL; the reconciler queues them once the alert queue is back',
      );
    }
  }
}

interface Raised {
  result: EvaluationResult;
  owed: OwedDelivery[];
}
