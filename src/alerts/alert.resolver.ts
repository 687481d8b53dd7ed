import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import type { AlertRule } from './alert-rules.js';
import { describeRule } from './alert-rules.js';
import type { AlertService } from './alert.service.js';
import type { WebhookService } from './webhook.service.js';
import {
  AlertEmailPreferenceInput,
  AlertEmailPreferenceType,
  AlertRuleInput,
  AlertRuleType,
  AlertUnsubscribePayload,
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  WebhookDeliveryConnection,
  WebhookDeliveryQueuedType,
  WebhookEndpointType,
  WebhookEndpointWithSecretType,
} from './alert.types.js';

const toRuleType = (rule: AlertRule): AlertRuleType => ({ ...rule, description: describeRule(rule) }) as AlertRuleType;

@Resolver(() => AlertRuleType)
export class AlertResolver {
  constructor(
    private readonly alerts: AlertService,
    private readonly webhooks: WebhookService,
  ) {}

  @Query(() => [AlertRuleType], { description: "A project's alert rules, oldest first." })
  async alertRules(
    @Arg('projectId', () => ID) projectId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<AlertRuleType[]> {
    return (await this.alerts.listRules(ctx.em, ctx.principal, projectId)).map(toRuleType);
  }

  @Mutation(() => AlertRuleType, { description: 'Adds an alert rule to a project (at most 50 per project).' })
  async createAlertRule(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => AlertRuleInput) input: AlertRuleInput,
    @Ctx() ctx: RequestContext,
  ): Promise<AlertRuleType> {
    return toRuleType(await this.alerts.createRule(ctx.em, ctx.principal, projectId, input));
  }

  @Mutation(() => AlertRuleType, { description: "Replaces a rule's settings with the input's." })
  async updateAlertRule(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => AlertRuleInput) input: AlertRuleInput,
    @Ctx() ctx: RequestContext,
  ): Promise<AlertRuleType> {
    return toRuleType(await this.alerts.updateRule(ctx.em, ctx.principal, id, input));
  }

  @Mutation(() => AlertRuleType, { description: 'Deletes a rule; the alerts it raised stay in the delivery logs.' })
  async deleteAlertRule(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<AlertRuleType> {
    return toRuleType(await this.alerts.deleteRule(ctx.em, ctx.principal, id));
  }

  @Query(() => [WebhookEndpointType], { description: "A project's webhook endpoints, oldest first (no secrets)." })
  webhookEndpoints(
    @Arg('projectId', () => ID) projectId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookEndpointType[]> {
    return this.webhooks.list(ctx.em, ctx.principal, projectId);
  }

  @Mutation(() => WebhookEndpointWithSecretType, {
    description: 'Adds a webhook endpoint (at most 10 per project); its signing secret is in the answer, once.',
  })
  createWebhookEndpoint(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => CreateWebhookEndpointInput) input: CreateWebhookEndpointInput,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookEndpointWithSecretType> {
    return this.webhooks.create(ctx.em, ctx.principal, projectId, input);
  }

  @Mutation(() => WebhookEndpointType, { description: "Changes an endpoint's URL, description or enabled flag." })
  updateWebhookEndpoint(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateWebhookEndpointInput) input: UpdateWebhookEndpointInput,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookEndpointType> {
    return this.webhooks.update(ctx.em, ctx.principal, id, input);
  }

  @Mutation(() => WebhookEndpointWithSecretType, {
    description: 'Replaces the signing secret; the new one is in the answer, once, and the old one stops at once.',
  })
  rotateWebhookSecret(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookEndpointWithSecretType> {
    return this.webhooks.rotateSecret(ctx.em, ctx.principal, id);
  }

  @Mutation(() => WebhookEndpointType, { description: 'Deletes an endpoint and its delivery log.' })
  deleteWebhookEndpoint(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<WebhookEndpointType> {
    return this.webhooks.remove(ctx.em, ctx.principal, id);
  }

  @Query(() => WebhookDeliveryConnection, { description: "An endpoint's delivery attempts, newest first." })
  async webhookDeliveries(
    @Arg('endpointId', () => ID) endpointId: string,
    @Arg('first', () => Int, { defaultValue: 20, description: '1-100' }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookDeliveryConnection> {
    const { rows, hasNext, total } = await this.webhooks.deliveries(ctx.em, ctx.principal, endpointId, first, after);
    return {
      nodes: rows,
      pageInfo: { hasNextPage: hasNext, endCursor: rows.at(-1)?.id ?? null },
      totalCount: total,
    };
  }

  @Mutation(() => WebhookDeliveryQueuedType, {
    description: "Sends a logged delivery's alert to its endpoint again (one attempt, signed anew, same event id).",
  })
  async redeliverWebhook(
    @Arg('deliveryId', () => ID) deliveryId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookDeliveryQueuedType> {
    const queued = await this.webhooks.redeliver(ctx.em, ctx.principal, deliveryId);
    return { message: 'Redelivery queued', ...queued };
  }

  @Mutation(() => WebhookDeliveryQueuedType, {
    description: 'Sends a `test` event to one endpoint (one attempt), to try its receiver and signature check.',
  })
  async sendTestWebhook(
    @Arg('endpointId', () => ID) endpointId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookDeliveryQueuedType> {
    const queued = await this.webhooks.sendTest(ctx.em, ctx.principal, endpointId);
    return { message: 'Test event queued', ...queued };
  }

  @Query(() => AlertEmailPreferenceType, {
    description: "The signed-in member's alert e-mails for a project (a session only, not an API key).",
  })
  alertEmailPreference(
    @Arg('projectId', () => ID) projectId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<AlertEmailPreferenceType> {
    return this.alerts.emailPreference(ctx.em, ctx.principal, projectId);
  }

  @Mutation(() => AlertEmailPreferenceType, { description: "Chooses the signed-in member's alert e-mails." })
  setAlertEmailPreference(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => AlertEmailPreferenceInput) input: AlertEmailPreferenceInput,
    @Ctx() ctx: RequestContext,
  ): Promise<AlertEmailPreferenceType> {
    return this.alerts.setEmailPreference(ctx.em, ctx.principal, projectId, input);
  }

  @Mutation(() => AlertUnsubscribePayload, {
    description:
      "An alert e-mail's unsubscribe link (no sign-in needed): turns off every alert e-mail of the person it was " +
      'sent to.',
  })
  async unsubscribeAlertEmails(
    @Arg('token', () => String) token: string,
    @Ctx() ctx: RequestContext,
  ): Promise<AlertUnsubscribePayload> {
    const { projects } = await this.alerts.unsubscribe(ctx.db, token);
    return { message: 'You will receive no more alert e-mails.', projects };
  }
}
