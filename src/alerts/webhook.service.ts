import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../platform/config.js';
import type { Principal } from '../platform/context.js';
import { DomainError, badInput, notFound } from '../platform/errors.js';
import { isUuid, newId } from '../platform/ids.js';
import { createAddressPolicy, parseAllowList, refusedTarget, type AddressPolicy } from '../platform/safe-http/index.js';
import { assertApiAccess } from '../identity/index.js';
import type { ProjectService } from '../projects/index.js';
import { AlertFactsRepository } from './alert-facts.repository.js';
import { AlertOutboxRepository } from './alert-outbox.repository.js';
import { WebhookRepository, type WebhookDeliveryRow, type WebhookEndpointRow } from './webhook.repository.js';
import { enqueueDelivery, type AlertQueue } from './alert-jobs.js';
import { testPayload } from './alert-payload.js';
import { WebhookSecretBox, webhookKeyMaterial } from './webhook-secret.js';

export const MAX_ENDPOINTS_PER_PROJECT = 10;
const MAX_URL_LENGTH = 2048;
const MAX_DESCRIPTION = 200;

export interface WebhookEndpointView extends WebhookEndpointRow {
  lastDelivery: WebhookDeliveryRow | null;
}

/** An endpoint with its signing secret: the answer of creation and rotation, the only times the secret is shown. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpointView;
  secret: string;
}

export interface QueuedDelivery {
  eventId: string;
  endpointId: string;
  jobId: string;
}

type WebhookConfig = Pick<
  AppConfig,
  'SAFE_HTTP_ALLOW' | 'authSecret' | 'WEBHOOK_SECRET_KEY' | 'ALERT_RETRY_DELAY_MS' | 'baseUrl'
>;

/**
 * Webhook endpoints of a project and their delivery logs. An endpoint's URL is checked against the SSRF policy (the
 * safe HTTP client's, SAFE_HTTP_ALLOW) when it is saved, and again at every delivery; its secret is generated here,
 * returned once and stored encrypted. Access as for the project's other settings.
 */
export class WebhookService {
  private readonly policy: AddressPolicy;
  private readonly secrets: WebhookSecretBox;

  constructor(
    private readonly config: WebhookConfig,
    private readonly projects: ProjectService,
    private readonly queue: AlertQueue,
    private readonly factsRepo = new AlertFactsRepository(),
    private readonly outboxRepo = new AlertOutboxRepository(),
    private readonly webhookRepo = new WebhookRepository(),
  ) {
    this.policy = createAddressPolicy(parseAllowList(config.SAFE_HTTP_ALLOW.join(',')));
    this.secrets = new WebhookSecretBox(webhookKeyMaterial(config));
  }

  async list(em: EntityManager, principal: Principal | null, projectId: string): Promise<WebhookEndpointView[]> {
    const p = assertApiAccess(principal, 'read');
    const project = await this.projects.findOwned(em, p, projectId);
    return this.withLastDelivery(em, await this.webhookRepo.listEndpoints(em, project.id));
  }

  async create(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    input: { url: string; description?: string | null },
  ): Promise<EndpointWithSecret> {
    const p = assertApiAccess(principal, 'write');
    const project = await this.projects.findOwned(em, p, projectId);
    const url = this.parseUrl(input.url);
    const description = this.parseDescription(input.description);
    const secret = WebhookSecretBox.generate();
    const row = await this.webhookRepo.insertEndpointLocked(
      em,
      { id: newId(), projectId: project.id, url, description, secret: this.secrets.seal(secret) },
      (count) => {
        if (count >= MAX_ENDPOINTS_PER_PROJECT)
          throw badInput(`A project has at most ${MAX_ENDPOINTS_PER_PROJECT} webhook endpoints.`);
      },
    );
    if (!row) throw notFound('Project');
    return { endpoint: { ...row, lastDelivery: null }, secret };
  }

  async update(
    em: EntityManager,
    principal: Principal | null,
    endpointId: string,
    input: { url?: string | null; description?: string | null; enabled?: boolean | null },
  ): Promise<WebhookEndpointView> {
    const p = assertApiAccess(principal, 'write');
    const endpoint = await this.findOwned(em, p, endpointId);
    const updated = await this.webhookRepo.updateEndpoint(em, endpoint.id, {
      url: input.url == null ? endpoint.url : this.parseUrl(input.url),
      description: input.description == null ? endpoint.description : this.parseDescription(input.description),
      enabled: input.enabled ?? endpoint.enabled,
    });
    if (!updated) throw notFound('Webhook endpoint');
    return (await this.withLastDelivery(em, [updated]))[0];
  }

  /** A new secret, returned once; deliveries sign with it from now on (the old one stops verifying). */
  async rotateSecret(em: EntityManager, principal: Principal | null, endpointId: string): Promise<EndpointWithSecret> {
    const p = assertApiAccess(principal, 'write');
    const endpoint = await this.findOwned(em, p, endpointId);
    const secret = WebhookSecretBox.generate();
    const updated = await this.webhookRepo.replaceSecret(em, endpoint.id, this.secrets.seal(secret));
    if (!updated) throw notFound('Webhook endpoint');
    return { endpoint: (await this.withLastDelivery(em, [updated]))[0], secret };
  }

  async remove(em: EntityManager, principal: Principal | null, endpointId: string): Promise<WebhookEndpointView> {
    const p = assertApiAccess(principal, 'write');
    const endpoint = await this.findOwned(em, p, endpointId);
    const [view] = await this.withLastDelivery(em, [endpoint]);
    await this.webhookRepo.deleteEndpoint(em, endpoint.id);
    return view;
  }

  /** An endpoint's delivery log, newest first, 1-100 per page (the cursor is the last delivery's id). */
  async deliveries(
    em: EntityManager,
    principal: Principal | null,
    endpointId: string,
    first: number,
    after?: string | null,
  ): Promise<{ rows: WebhookDeliveryRow[]; hasNext: boolean; total: number }> {
    const p = assertApiAccess(principal, 'read');
    const endpoint = await this.findOwned(em, p, endpointId);
    if (!Number.isInteger(first) || first < 1 || first > 100) {
      throw badInput('first must be 1-100', [{ path: 'first', message: 'must be 1-100' }]);
    }
    if (after && !isUuid(after))
      throw badInput('after is not a cursor of this list', [{ path: 'after', message: 'invalid' }]);
    const [rows, total] = await Promise.all([
      this.webhookRepo.listDeliveries(em, endpoint.id, first + 1, after ?? null),
      this.webhookRepo.countDeliveries(em, endpoint.id),
    ]);
    return { rows: rows.slice(0, first), hasNext: rows.length > first, total };
  }

  /** Sends a logged delivery's alert to its endpoint again, once (a new row in the log). */
  async redeliver(em: EntityManager, principal: Principal | null, deliveryId: string): Promise<QueuedDelivery> {
    const p = assertApiAccess(principal, 'write');
    const delivery = isUuid(deliveryId)
      ? await this.webhookRepo.findDeliveryOwned(em, deliveryId, p.organizationId)
      : null;
    if (!delivery) throw notFound('Webhook delivery');
    return this.enqueueManual(em, delivery.eventId, delivery.endpointId);
  }

  /** A `test` event to one endpoint, so its receiver and signature check can be tried before a real alert. */
  async sendTest(em: EntityManager, principal: Principal | null, endpointId: string): Promise<QueuedDelivery> {
    const p = assertApiAccess(principal, 'write');
    const endpoint = await this.findOwned(em, p, endpointId);
    const project = await this.factsRepo.project(em, endpoint.projectId);
    if (!project) throw notFound('Webhook endpoint');
    const event = { id: newId(), createdAt: new Date() };
    await this.outboxRepo.insertEvent(em, {
      ...event,
      projectId: project.id,
      ruleId: null,
      kind: 'TEST',
      dedupeKey: event.id,
      payload: testPayload(event, project, this.config.baseUrl),
    });
    return this.enqueueManual(em, event.id, endpoint.id);
  }

  /**
   * A delivery a person asked for: one attempt, owed in PostgreSQL like an alert's (the alert workers' reconciler
   * queues it should Redis lose the job), then queued.
   */
  private async enqueueManual(em: EntityManager, eventId: string, endpointId: string): Promise<QueuedDelivery> {
    const [owed] = await this.outboxRepo.insertOwedDeliveries(em, [
      { id: newId(), eventId, channel: 'WEBHOOK', endpointId, userId: null, manual: true, maxAttempts: 1 },
    ]);
    const jobId = await enqueueDelivery(
      this.queue,
      { deliveryId: owed.id, attempt: 1 },
      this.config.ALERT_RETRY_DELAY_MS,
    );
    return { eventId, endpointId, jobId };
  }

  private async findOwned(em: EntityManager, p: Principal, endpointId: string): Promise<WebhookEndpointRow> {
    const row = isUuid(endpointId)
      ? await this.webhookRepo.findEndpointOwned(em, endpointId, p.organizationId)
      : undefined;
    if (!row) throw notFound('Webhook endpoint');
    return row;
  }

  private async withLastDelivery(em: EntityManager, rows: WebhookEndpointRow[]): Promise<WebhookEndpointView[]> {
    if (!rows.length) return [];
    const latest = await this.webhookRepo.latestDeliveries(
      em,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...r, lastDelivery: latest.find((d) => d.endpointId === r.id) ?? null }));
  }

  /** An absolute http(s) URL without credentials, whose host the SSRF policy admits (checked again at delivery). */
  private parseUrl(input: string): string {
    const fail = (message: string) => badInput(message, [{ path: 'url', message }]);
    const raw = input.trim();
    if (!raw) throw fail('url is required');
    if (raw.length > MAX_URL_LENGTH) throw fail(`url must be at most ${MAX_URL_LENGTH} characters`);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw fail('url must be an absolute http(s) URL, e.g. https://hooks.example.com/seo');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail('url must use https or http');
    if (url.username || url.password) throw fail('url must not contain credentials');
    const refused = refusedTarget(url.href, this.policy);
    if (refused) {
      throw new DomainError(
        'BAD_USER_INPUT',
        'The webhook URL points to a private, loopback or reserved address; only public endpoints can receive ' +
          'alerts (SAFE_HTTP_ALLOW admits private ones).',
        [{ path: 'url', message: refused.message }],
      );
    }
    url.hash = '';
    return url.href;
  }

  private parseDescription(input: string | null | undefined): string {
    const text = (input ?? '').trim();
    if (text.length > MAX_DESCRIPTION) {
      throw badInput(`description must be at most ${MAX_DESCRIPTION} characters`, [
        { path: 'description', message: `at most ${MAX_DESCRIPTION} characters` },
      ]);
    }
    return text;
  }
}
