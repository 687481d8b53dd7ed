import type { NativeDb } from '../platform/db/native-query.js';
import type { Mailer } from '../platform/mail.js';
import { AlertFactsRepository, type AlertProject } from './alert-facts.repository.js';
import { AlertOutboxRepository } from './alert-outbox.repository.js';
import { AlertRecipientRepository } from './alert-recipient.repository.js';
import type { NewIssueFact } from './alert-facts.js';
import type { AuditFactsProvider } from './alert-facts-reader.js';
import { digestPeriod, digestProject } from './alert-digest.js';
import { renderAlertMail, renderDigestMail, type MailLinks } from './alert-mail.js';
import type { AlertPayload } from './alert-payload.js';
import type { UnsubscribeTokens } from './unsubscribe-token.js';

const WEEK_MS = 7 * 24 * 3600 * 1000;

export type MailOutcome = 'sent' | 'skipped';

/**
 * Worker-side alert e-mails through the platform's mailer (SMTP_URL): an alert to each member who wants the project's
 * alerts as they happen, and the weekly digest to each who wants it. Preferences and membership are read again when
 * the mail is sent, so a member who opted out (or left) since the alert gets nothing.
 */
export class AlertMailRunner {
  constructor(
    private readonly db: NativeDb,
    private readonly mailer: Mailer,
    private readonly auditFacts: AuditFactsProvider,
    private readonly tokens: UnsubscribeTokens,
    private readonly options: { baseUrl: string },
    private readonly factsRepo = new AlertFactsRepository(),
    private readonly outboxRepo = new AlertOutboxRepository(),
    private readonly recipientRepo = new AlertRecipientRepository(),
  ) {}

  private links(userId: string, projectId?: string): MailLinks {
    const base = this.options.baseUrl;
    return {
      unsubscribeUrl: `${base}/unsubscribe?token=${encodeURIComponent(this.tokens.create(userId))}`,
      preferencesUrl: projectId ? `${base}/projects/${projectId}/alerts` : `${base}/projects`,
    };
  }

  async sendAlert(eventId: string, userId: string): Promise<MailOutcome> {
    const event = await this.outboxRepo.eventById(this.db, eventId);
    if (!event) return 'skipped';
    const recipient = await this.recipientRepo.immediateRecipient(this.db, event.projectId, userId);
    if (!recipient) return 'skipped';
    const payload = event.payload as AlertPayload;
    await this.mailer.send(
      renderAlertMail(
        recipient.email,
        {
          projectName: payload.project.name,
          title: payload.alert.title,
          lines: payload.alert.lines,
          url: payload.alert.url,
        },
        this.links(userId, event.projectId),
      ),
    );
    return 'sent';
  }

  /** Users to send this week's digest to. */
  digestRecipients(): Promise<string[]> {
    return this.recipientRepo.digestUserIds(this.db);
  }

  /** The digest of the week that ends at `until`, for one user: each project they chose, by name. */
  async sendDigest(userId: string, until: Date): Promise<MailOutcome> {
    const subscription = await this.recipientRepo.digestSubscription(this.db, userId);
    if (!subscription?.projects.length) return 'skipped';
    const from = new Date(until.getTime() - WEEK_MS);
    const projects = [];
    for (const project of subscription.projects) projects.push(await this.projectWeek(project, from, until));
    await this.mailer.send(
      renderDigestMail(
        subscription.recipient.email,
        { period: digestPeriod(from, until), projects },
        this.links(userId, subscription.projects.length === 1 ? subscription.projects[0].id : undefined),
      ),
    );
    return 'sent';
  }

  private async projectWeek(project: AlertProject, from: Date, until: Date) {
    const [audits, before, movers] = await Promise.all([
      this.factsRepo.completedAuditsBetween(this.db, project.id, from, until),
      this.factsRepo.lastCompletedBefore(this.db, project.id, from),
      this.factsRepo.keywordMovers(this.db, project.id, from, until),
    ]);
    const newCritical: NewIssueFact[] = [];
    for (const audit of audits) {
      const facts = await this.auditFacts(this.db, audit.id);
      newCritical.push(...(facts?.newIssues.filter((i) => i.severity === 'CRITICAL') ?? []));
    }
    return digestProject({
      name: project.name,
      url: `${this.options.baseUrl}/projects/${project.id}`,
      weekScores: audits.map((a) => a.scores.overall),
      scoreBefore: before?.scores.overall ?? null,
      newCritical,
      movers,
    });
  }
}
