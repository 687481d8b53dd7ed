import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header a delivery is signed in: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, as Stripe signs. */
export const SIGNATURE_HEADER = 'x-signature';
/** The event's id: the same on every attempt and redelivery, so a receiver can drop duplicates. */
export const EVENT_ID_HEADER = 'x-event-id';
export const EVENT_TYPE_HEADER = 'x-event-type';
/** How old a signature a receiver should accept (docs/alerts.md's snippet uses the same). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const hmac = (secret: string, timestamp: number, body: string) =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/** The X-Signature value of `body` signed with the endpoint's secret at `timestamp` (unix seconds). */
export function signWebhook(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

/**
 * A receiver's check: the header parses, its timestamp is within the tolerance of `now`, and one of its v1 values is
 * the HMAC of "t.body" (compared in constant time). The body must be the raw bytes received, not re-serialized JSON.
 */
export function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string | undefined,
  options: { now?: number; toleranceSeconds?: number } = {},
): boolean {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t)) return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - t) > (options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(hmac(secret, t, body), 'hex');
  return parts
    .filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? ''))
    .some(([, v]) => timingSafeEqual(Buffer.from(v, 'hex'), expected));
}
