import { randomBytes } from 'node:crypto';
import { SecretBox } from '../platform/secret-box.js';

/**
 * Webhook signing secrets: generated here, shown to the user once (at creation and on rotation), and stored
 * encrypted with AES-256-GCM, never hashed, since every delivery signs with them. The key is derived (HKDF-SHA256)
 * from WEBHOOK_SECRET_KEY, or from BETTER_AUTH_SECRET when that is unset; a stored secret names its format version.
 * The sealing itself is the platform's SecretBox (src/platform/secret-box.ts), shared with crawl logins.
 */
const PREFIX = 'whsec_';

export class WebhookSecretBox extends SecretBox {
  constructor(keyMaterial: string) {
    super(keyMaterial, 'webhook-endpoint-secret');
  }

  /** A new secret (`whsec_` and 32 random bytes, base64url): what the user copies. */
  static generate(): string {
    return `${PREFIX}${randomBytes(32).toString('base64url')}`;
  }
}

/** The key material of the configuration: WEBHOOK_SECRET_KEY, else the auth secret. */
export const webhookKeyMaterial = (config: { WEBHOOK_SECRET_KEY?: string; authSecret: string }): string =>
  config.WEBHOOK_SECRET_KEY ?? config.authSecret;
