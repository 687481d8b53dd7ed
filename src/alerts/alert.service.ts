import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../platform/config.js';
import type { Principal } from '../platform/context.js';
import type { NativeDb } from '../platform/db/native-query.js';
import { DomainError, badInput, notFound } from '../platform/errors.js';
import { isUuid, newId } from '../platform/ids.js';
import { assertApiAccess } from '../identity/index.js';
import type { ProjectService } from '../projects/index.js';
import { AlertRecipientRepository } from './alert-recipient.repository.js';
import { AlertRuleRepository } from './alert-rule.repository.js';
import { parseAlertRuleInput, type AlertRuleInputData } from './alert-rule-input.js';
import type { AlertRule } from './alert-rules.js';
import { UnsubscribeTokens } from './unsubscribe-token.js';
import { webhookKeyMaterial } from './webhook-secret.js';

/** Rules one project may have: enough for every kind several times over, few enough to evaluate at once. */
export const MAX_RULES_PER_PROJECT = 50;

/** A member's alert e-mails for one project. */
export interface AlertEmailPreference {
  projectId: string;
  email: string;
  immediate: boolean;
  weeklyDigest: boolean;
  /** False without SMTP_URL: the choices are kept, and nothing is sent until mail is configured. */
  mailConfigured: boolean;
}

/**
 * Alert rules and e-mail preferences. Rules follow the project's rules of access: any member's session manages them
 * (as it manages the project), API keys as their plan allows (read on Pro, write on Enterprise); another
 * organization's project or rule is NOT_FOUND. E-mail preferences are a signed-in member's own.
 */
export class AlertService {
  private readonly tokens: UnsubscribeTokens;

  constructor(
    private readonly config: Pick<AppConfig, 'SMTP_URL' | 'authSecret' | 'WEBHOOK_SECRET_KEY'>,
    private readonly projects: ProjectService,
    private readonly recipientRepo = new AlertRecipientRepository(),
    private readonly ruleRepo = new AlertRuleRepository(),
  ) {
    this.tokens = new UnsubscribeTokens(webhookKeyMaterial(config));
  }

  async listRules(em: EntityManager, principal: Principal | null, projectId: string): Promise<AlertRule[]> {
    const p = assertApiAccess(principal, 'read');
    const project = await this.projects.findOwned(em, p, projectId);
    return this.ruleRepo.listRules(em, project.id);
  }

  async createRule(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    input: AlertRuleInputData,
  ): Promise<AlertRule> {
    const p = assertApiAccess(principal, 'write');
    const project = await this.projects.findOwned(em, p, projectId);
    await this.assertSegmentOfProject(em, project.id, input.segmentId);
    const fields = parseAlertRuleInput(input);
    const rule = await this.ruleRepo.insertRuleLocked(
      em,
      { id: newId(), projectId: project.id, ...fields },
      (count) => {
        if (count >= MAX_RULES_PER_PROJECT) {
          throw new DomainError('BAD_USER_INPUT', `A project has at most ${MAX_RULES_PER_PROJECT} alert rules.`);
        }
      },
    );
    if (!rule) throw notFound('Project');
    return rule;
  }

  /** Replaces a rule's settings (its kind included) with the input's, validated as at creation. */
  async updateRule(
    em: EntityManager,
    principal: Principal | null,
    ruleId: string,
    input: AlertRuleInputData,
  ): Promise<AlertRule> {
    const p = assertApiAccess(principal, 'write');
    const rule = await this.findRule(em, p, ruleId);
    await this.assertSegmentOfProject(em, rule.projectId, input.segmentId);
    const fields = parseAlertRuleInput(input);
    const updated = await this.ruleRepo.updateRule(em, rule.id, fields);
    if (!updated) throw notFound('Alert rule');
    return updated;
  }

  async deleteRule(em: EntityManager, principal: Principal | null, ruleId: string): Promise<AlertRule> {
    const p = assertApiAccess(principal, 'write');
    const rule = await this.findRule(em, p, ruleId);
    await this.ruleRepo.deleteRule(em, rule.id);
    return rule;
  }

  /**
   * A segment named by the input must be one of the project's: NOT_FOUND otherwise (another project's or
   * organization's, or none), before the rest of the input is read, so that another tenant's id is never told apart
   * by a validation message.
   */
  private async assertSegmentOfProject(em: EntityManager, projectId: string, segmentId: unknown): Promise<void> {
    if (segmentId === undefined || segmentId === null || segmentId === '') return;
    if (
      typeof segmentId !== 'string' ||
      !isUuid(segmentId) ||
      !(await this.ruleRepo.segmentOfProject(em, projectId, segmentId))
    )
      throw notFound('Segment');
  }

  private async findRule(em: EntityManager, p: Principal, ruleId: string): Promise<AlertRule> {
    const rule = isUuid(ruleId) ? await this.ruleRepo.findRuleOwned(em, ruleId, p.organizationId) : undefined;
    if (!rule) throw notFound('Alert rule');
    return rule;
  }

  /** E-mail preferences are a person's: a session's, never an API key's. */
  private member(principal: Principal | null, access: 'read' | 'write'): Principal & { userId: string } {
    const p = assertApiAccess(principal, access);
    if (p.via !== 'SESSION' || !p.userId) {
      throw new DomainError('FORBIDDEN', 'Alert e-mails are chosen by each signed-in member, not with an API key.');
    }
    return p as Principal & { userId: string };
  }

  async emailPreference(em: EntityManager, principal: Principal | null, projectId: string) {
    const p = this.member(principal, 'read');
    const project = await this.projects.findOwned(em, p, projectId);
    return this.preferenceOf(em, p.userId, project.id);
  }

  async setEmailPreference(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    input: { immediate?: unknown; weeklyDigest?: unknown },
  ): Promise<AlertEmailPreference> {
    const p = this.member(principal, 'write');
    const project = await this.projects.findOwned(em, p, projectId);
    const current = await this.recipientRepo.preference(em, p.userId, project.id);
    const flag = (name: 'immediate' | 'weeklyDigest') => {
      const v = input[name];
      if (v === undefined || v === null) return current[name];
      if (typeof v !== 'boolean') throw badInput(`${name} must be true or false`, [{ path: name, message: 'invalid' }]);
      return v;
    };
    await this.recipientRepo.savePreference(em, p.userId, project.id, {
      immediate: flag('immediate'),
      weeklyDigest: flag('weeklyDigest'),
    });
    return this.preferenceOf(em, p.userId, project.id);
  }

  private async preferenceOf(db: NativeDb, userId: string, projectId: string): Promise<AlertEmailPreference> {
    const [pref, email] = await Promise.all([
      this.recipientRepo.preference(db, userId, projectId),
      this.recipientRepo.userEmail(db, userId),
    ]);
    return { projectId, email: email ?? '', ...pref, mailConfigured: Boolean(this.config.SMTP_URL) };
  }

  /**
   * The unsubscribe link of an alert e-mail (no sign-in): every alert e-mail of the token's user is turned off.
   * Returns how many projects had one on; a token this server did not make is BAD_USER_INPUT.
   */
  async unsubscribe(db: NativeDb, token: string): Promise<{ projects: number }> {
    const userId = this.tokens.verify(token);
    if (!userId) {
      throw badInput('This unsubscribe link is not valid. Open the link from the e-mail again.', [
        { path: 'token', message: 'invalid' },
      ]);
    }
    return { projects: await this.recipientRepo.unsubscribeAll(db, userId) };
  }
}
