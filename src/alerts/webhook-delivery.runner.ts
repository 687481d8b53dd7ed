import { performance } from 'node:perf_hooks';
import type { NativeDb } from '../platform/db/native-query.js';
import type { Logger } from '../platform/logger.js';
import { newId } from '../platform/ids.js';
import {
  describeFetchFailure,
  isSafeHttpError,
  refusedTarget,
  type AddressPolicy,
  type SafeHttpClient,
} from '../platform/safe-http/index.js';
import { AlertOutboxRepository } from './alert-outbox.repository.js';
import { WebhookRepository } from './webhook.repository.js';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signWebhook } from './webhook-signature.js';
import type { WebhookSecretBox } from './webhook-secret.js';

/** The bytes of an endpoint's answer kept in the delivery log. */
export const RESPONSE_EXCERPT_BYTES = 1024;
const USER_AGENT = 'SEOAuditPlatform-Webhooks/1.0';

/**
 * DELIVERED: a 2xx answer. FAILED: logged; `retry` says whether another attempt may succeed (an error answer, a
 * timeout) or not (a refused address, an unreadable secret). SKIPPED: nothing to send any more (endpoint or event
 * deleted, endpoint disabled).
 */
export type DeliveryOutcome =
  | { status: 'DELIVERED'; statusCode: number }
  | { status: 'FAILED'; retry: boolean; error: string }
  | { status: 'SKIPPED'; reason: string };

/** Refusals a second attempt would meet again. */
const FINAL_FETCH_ERRORS = new Set(['BLOCKED_ADDRESS', 'INVALID_URL', 'UNSUPPORTED_SCHEME']);

/**
 * Worker-side webhook deliveries: one signed POST of an alert's JSON to one endpoint per attempt, through the safe
 * HTTP client (the address is checked again at delivery, when the host name is resolved), each attempt written to
 * the endpoint's delivery log with its status, latency and the first kilobyte of the answer.
 */
export class WebhookDeliveryRunner {
  constructor(
    private readonly db: NativeDb,
    private readonly http: SafeHttpClient,
    private readonly secrets: WebhookSecretBox,
    private readonly policy: AddressPolicy,
    private readonly options: { timeoutMs: number },
    private readonly logger: Logger,
    private readonly outboxRepo = new AlertOutboxRepository(),
    private readonly webhookRepo = new WebhookRepository(),
  ) {}

  /** One attempt; `deliveryId` is the owed delivery (alert_delivery) it belongs to, written beside it in the log. */
  async deliver(
    job: { eventId: string; endpointId: string; manual?: boolean; deliveryId?: string },
    attempt: number,
  ): Promise<DeliveryOutcome> {
    const endpoint = await this.webhookRepo.endpointForDelivery(this.db, job.endpointId);
    if (!endpoint) return { status: 'SKIPPED', reason: 'the endpoint was deleted' };
    if (!endpoint.enabled && !job.manual) return { status: 'SKIPPED', reason: 'the endpoint is disabled' };
    const event = await this.outboxRepo.eventById(this.db, job.eventId);
    if (!event) return { status: 'SKIPPED', reason: 'the alert was deleted' };

    const started = performance.now();
    const record = async (r: {
      succeeded: boolean;
      statusCode: number | null;
      error: string | null;
      body?: Buffer;
    }) => {
      await this.webhookRepo.insertDelivery(this.db, {
        id: newId(),
        endpointId: endpoint.id,
        eventId: event.id,
        attempt,
        manual: job.manual ?? false,
        succeeded: r.succeeded,
        statusCode: r.statusCode,
        error: r.error,
        latencyMs: Math.round(performance.now() - started),
        responseExcerpt: r.body ? excerpt(r.body) : null,
        deliveryId: job.deliveryId ?? null,
      });
    };
    const fail = async (error: string, retry: boolean, statusCode: number | null = null, body?: Buffer) => {
      await record({ succeeded: false, statusCode, error, body });
      return { status: 'FAILED', retry, error } as const;
    };

    const secret = this.secrets.open(endpoint.secret);
    if (secret === null) {
      return fail('The signing secret cannot be read (WEBHOOK_SECRET_KEY changed?): rotate the secret.', false);
    }
    const refused = refusedTarget(endpoint.url, this.policy);
    if (refused) return fail(`${refused.message} (SAFE_HTTP_ALLOW admits private addresses)`, false);

    const body = JSON.stringify(event.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const res = await this.http.request(endpoint.url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          accept: '*/*',
          [SIGNATURE_HEADER]: signWebhook(secret, body, timestamp),
          [EVENT_ID_HEADER]: event.id,
          [EVENT_TYPE_HEADER]: String(event.payload.type ?? event.kind),
          'x-delivery-attempt': String(attempt),
        },
        totalTimeoutMs: this.options.timeoutMs,
        maxBytes: RESPONSE_EXCERPT_BYTES,
        onBodyLimit: 'truncate',
      });
      if (res.status >= 200 && res.status < 300) {
        await record({ succeeded: true, statusCode: res.status, error: null, body: res.body });
        return { status: 'DELIVERED', statusCode: res.status };
      }
      return fail(`The endpoint answered HTTP ${res.status}`, true, res.status, res.body);
    } catch (err) {
      if (!isSafeHttpError(err)) throw err;
      this.logger.warn(
        { endpointId: endpoint.id, eventId: event.id, attempt, code: err.code },
        'webhook not delivered',
      );
      const error =
        err.code === 'BLOCKED_ADDRESS'
          ? `Refused: ${err.message.replace(/^Refused: /, '')} (SAFE_HTTP_ALLOW admits private addresses)`
          : describeFetchFailure(endpoint.url, err);
      return fail(error, !FINAL_FETCH_ERRORS.has(err.code));
    }
  }
}

/** The answer as text for the log: at most RESPONSE_EXCERPT_BYTES, without the characters PostgreSQL refuses. */
function excerpt(body: Buffer): string | null {
  if (!body.length) return null;
  return body.subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replaceAll('\u0000', '\uFFFD');
}
