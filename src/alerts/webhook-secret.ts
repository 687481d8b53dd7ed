import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets: generated here, shown to the user once (at creation and on rotation), and stored
 * encrypted with AES-256-GCM, never hashed, since every delivery signs with them. The key is derived (HKDF-SHA256)
 * from WEBHOOK_SECRET_KEY, or from BETTER_AUTH_SECRET when that is unset; a stored secret names its format version.
 */
const VERSION = 'v1';
const PREFIX = 'whsec_';

export class WebhookSecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = Buffer.from(hkdfSync('sha256', keyMaterial, 'seo-audit-platform', 'webhook-endpoint-secret', 32));
  }

  /** A new secret (`whsec_` and 32 random bytes, base64url): what the user copies. */
  static generate(): string {
    return `${PREFIX}${randomBytes(32).toString('base64url')}`;
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** The secret, or null when it was sealed with another key (the key material changed): rotate the secret. */
  open(sealed: string): string | null {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || !data) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

/** The key material of the configuration: WEBHOOK_SECRET_KEY, else the auth secret. */
export const webhookKeyMaterial = (config: { WEBHOOK_SECRET_KEY?: string; authSecret: string }): string =>
  config.WEBHOOK_SECRET_KEY ?? config.authSecret;
