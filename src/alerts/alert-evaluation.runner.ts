import { createHash } from 'node:crypto';
import type { NativeDb } from '../platform/db/native-query.js';
import type { Logger } from '../platform/logger.js';
import { newId } from '../platform/ids.js';
import { AlertRepository, type AlertProject } from './alert.repository.js';
import type { AuditAlertFacts, RankAlertFacts } from './alert-facts.js';
import type { AlertFactsReader, AuditFactsProvider } from './alert-facts-reader.js';
import { alertRetryOptions, type AlertJobData, type AlertQueue } from './alert-jobs.js';
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

/**
 * Worker-side evaluation: the facts of a finished audit or rank check against the project's rules. Each alert is
 * recorded once per rule and subject (the audit, or the window of rank checks), then fanned out to one delivery job
 * per webhook endpoint and one e-mail job per opted-in member. Job ids make a retried evaluation enqueue nothing twice.
 */
export class AlertEvaluationRunner {
  constructor(
    private readonly db: NativeDb,
    private readonly queue: AlertQueue,
    private readonly auditFacts: AuditFactsProvider,
    private readonly reader: AlertFactsReader,
    private readonly options: AlertDispatchOptions,
    private readonly logger: Logger,
    private readonly repo = new AlertRepository(),
  ) {}

  async evaluateAudit(auditId: string): Promise<EvaluationResult> {
    const facts = await this.auditFacts(this.db, auditId);
    if (!facts) return NOTHING;
    return this.evaluateAuditFacts(facts);
  }

  /** The facts given (tests, and providers the worker composes) rather than read. */
  async evaluateAuditFacts(facts: AuditAlertFacts): Promise<EvaluationResult> {
    const rules = await this.repo.activeRules(this.db, facts.projectId, AUDIT_RULE_KINDS);
    if (!rules.length) return NOTHING;
    return this.raise(facts.projectId, rules, evaluateAuditRules(rules, facts), `audit:${facts.auditId}`);
  }

  async evaluateRank(projectId: string): Promise<EvaluationResult> {
    const rules = await this.repo.activeRules(this.db, projectId, RANK_RULE_KINDS);
    const { moves, until } = await this.reader.rankMoves(this.db, projectId);
    if (!until) return NOTHING;
    const facts: RankAlertFacts = { projectId, moves };
    // The window's key: the checks it covers, so that evaluating the same window again raises nothing twice.
    const window = createHash('sha256')
      .update(moves.map((m) => `${m.keywordId}:${m.before}:${m.after}`).join(','))
      .update(until.toISOString())
      .digest('base64url');
    const result = rules.length
      ? await this.raise(projectId, rules, evaluateRankRules(rules, facts), `rank:${window}`)
      : NOTHING;
    await this.reader.advanceRankWatermark(this.db, projectId, until);
    return result;
  }

  private async raise(
    projectId: string,
    rules: AlertRule[],
    drafts: AlertDraft[],
    subject: string,
  ): Promise<EvaluationResult> {
    if (!drafts.length) return NOTHING;
    const project = await this.repo.project(this.db, projectId);
    if (!project) return NOTHING;
    const result = { raised: 0, webhooks: 0, emails: 0 };
    for (const draft of drafts) {
      const rule = rules.find((r) => r.id === draft.ruleId)!;
      const event = { id: newId(), createdAt: new Date() };
      const recorded = await this.repo.insertEvent(this.db, {
        ...event,
        projectId,
        ruleId: rule.id,
        kind: rule.kind,
        dedupeKey: subject,
        payload: alertPayload(event, project, rule, draft, this.options.baseUrl),
      });
      if (recorded.inserted) result.raised++;
      const sent = await this.dispatch(project, recorded.id, draft);
      result.webhooks += sent.webhooks;
      result.emails += sent.emails;
      this.logger.info(
        { projectId, ruleId: rule.id, kind: rule.kind, eventId: recorded.id, new: recorded.inserted, ...sent },
        'alert raised',
      );
    }
    return result;
  }

  /** One job per endpoint and per recipient; the job ids are the event's, so a second dispatch adds nothing. */
  private async dispatch(project: AlertProject, eventId: string, draft: AlertDraft) {
    const jobs: { name: string; data: AlertJobData; opts: object }[] = [];
    const retry = (attempts: number) => alertRetryOptions(attempts, this.options.retryDelayMs);
    if (draft.channels.includes('WEBHOOK')) {
      for (const endpointId of await this.repo.enabledEndpointIds(this.db, project.id)) {
        jobs.push({
          name: 'deliver-webhook',
          data: { kind: 'deliver-webhook', eventId, endpointId },
          opts: { ...retry(this.options.webhookAttempts), jobId: `webhook-${eventId}-${endpointId}` },
        });
      }
    }
    const webhooks = jobs.length;
    if (draft.channels.includes('EMAIL')) {
      if (!this.options.mailEnabled) {
        this.logger.warn({ projectId: project.id, eventId }, 'alert e-mails not sent: SMTP_URL is not configured');
      } else {
        for (const r of await this.repo.immediateRecipients(this.db, project.id)) {
          jobs.push({
            name: 'send-alert-email',
            data: { kind: 'send-alert-email', eventId, userId: r.userId },
            opts: { ...retry(3), jobId: `alert-mail-${eventId}-${r.userId}` },
          });
        }
      }
    }
    if (jobs.length) await this.queue.addBulk(jobs);
    return { webhooks, emails: jobs.length - webhooks };
  }
}
