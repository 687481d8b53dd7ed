import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets stored encrypted at rest (webhook signing secrets, crawl logins): AES-256-GCM with a key derived
 * (HKDF-SHA256) from configured key material, one derived key per purpose (`info`). A sealed value is
 * `v1.<iv>.<tag>.<data>` (base64url); the format version is the first part.
 */
const VERSION = 'v1';
const SALT = 'seo-audit-platform';

export class SecretBox {
  private readonly key: Buffer;
  /**
   * A short fingerprint of the derived key (not the key): stored beside sealed values, it tells which key sealed a
   * row, so a rotation knows what it has to re-seal and an unreadable row can be explained.
   */
  readonly keyId: string;

  constructor(keyMaterial: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', keyMaterial, SALT, purpose, 32));
    this.keyId = createHmac('sha256', this.key).update('key-id').digest('base64url').slice(0, 12);
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** The plaintext, or null when it was sealed with another key (the key material changed) or altered. */
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
